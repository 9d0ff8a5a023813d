// What --watch means for `mq stats <endpoint>` and `mq stats summary`: its default interval and the
// flags it refuses (a watch follows the present), checked with the others before any request.
export const STATS_WATCH = { what: "follow the figures, the window moving with the present", defaultSeconds: 30 };

export function watchRefusals(flags: { until?: string; at?: string }): Array<readonly [boolean, string]> {
  return [
    [flags.until !== undefined, "--watch follows the present: drop --until (the window ends at each poll)."],
    [flags.at !== undefined, "--watch follows the present: drop --at."],
  ];
}
