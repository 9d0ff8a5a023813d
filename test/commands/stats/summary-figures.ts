// What `mq stats summary` must print: each figure equals the window value of one subcommand's
// field. `figure(name, field)` runs the subcommand over the same window and aggregates the field.
export type Figure = (name: string, field: string) => Promise<number | null>;

export async function summaryFromSubcommands(figure: Figure): Promise<Record<string, number | null>> {
  return {
    entered: await figure("queues-entered-count", "entered"),
    merged: await figure("queues-merged-count", "merged"),
    checks: await figure("failure-rate", "total"),
    check_failures: await figure("failure-rate", "failures"),
    check_failure_rate: await figure("failure-rate", "failure_rate"),
    avg_queue_time: await figure("total-queue-time", "avg_queue_time"),
    max_queue_time: await figure("total-queue-time", "max_queue_time"),
    avg_ci_runtime: await figure("average-ci-runtime", "runtime"),
    avg_queue_size: await figure("queue-size", "avg_size"),
    max_queue_size: await figure("queue-size", "max_size"),
    total_retries: await figure("checks-retries", "total_retries"),
    recovery_rate: await figure("checks-retries", "recovery_rate"),
  };
}
