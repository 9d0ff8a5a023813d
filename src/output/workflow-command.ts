// Workflow commands of GitHub Actions and the one escaper of their text (actions/toolkit,
// packages/core/src/command.ts): in the message `%`, `\r`, `\n` become %25, %0D, %0A; in a property
// value also `:` and `,` become %3A and %2C. With those escaped a value can neither end the command
// early nor start a second one. Small on purpose: main() reports a failure through it at start-up cost.

export function escapeCommandData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export function workflowCommand(name: string, properties: Readonly<Record<string, string>>, message: string): string {
  const props = Object.entries(properties)
    .map(([k, v]) => `${k}=${escapeCommandProperty(v)}`)
    .join(",");
  return `::${name}${props ? ` ${props}` : ""}::${escapeCommandData(message)}\n`;
}

export interface ActionsEnv {
  GITHUB_ACTIONS?: string;
  GITHUB_STEP_SUMMARY?: string;
  GITHUB_OUTPUT?: string;
}

export function inActions(env: ActionsEnv): boolean {
  return env.GITHUB_ACTIONS === "true";
}
