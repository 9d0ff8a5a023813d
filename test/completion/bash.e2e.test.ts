import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { ensureGlobalOptionsEverywhere } from "../../src/cmdutil/global-options.js";
import { buildProgram, COMMAND_NAMES, walk } from "../../src/cli.js";
import { ALL_EVENT_TYPES, MERGIFY_DIALECT, SPEC_DIALECT } from "../../src/api/dialects/index.js";
import { STATS_ENDPOINTS } from "../../src/stats/endpoints.js";
import { testContext } from "../helpers/context.js";
import { bashComplete } from "./shells.js";

const escaped = (values: readonly string[]) => values.map((v) => v.replace(/\*/g, "\\*"));

describe("bash completion", () => {
  it("completes the top-level commands", () => {
    expect(bashComplete(["mq", ""])).toEqual([...COMMAND_NAMES, "help"]);
  });

  it("completes a command name from its prefix", () => {
    expect(bashComplete(["mq", "st"])).toEqual(["stats"]);
  });

  it("completes a stats subcommand", () => {
    expect(bashComplete(["mq", "stats", "fa"])).toEqual(["failure-rate"]);
  });

  it("offers every stats subcommand, one per endpoint plus summary", () => {
    expect(bashComplete(["mq", "stats", ""]).sort()).toEqual([...STATS_ENDPOINTS.map((e) => e.name), "summary"].sort());
  });

  it("completes a flag of the current command", () => {
    expect(bashComplete(["mq", "logs", "--ty"])).toEqual(["--type"]);
  });

  it("completes an event type", () => {
    expect(bashComplete(["mq", "logs", "--type", "action.queue.e"])).toEqual(["action.queue.enter"]);
  });

  it("offers the family globs with the * escaped", () => {
    expect(bashComplete(["mq", "logs", "--type", "action.queue.checks"])).toEqual([
      "action.queue.checks.\\*",
      "action.queue.checks.change",
      "action.queue.checks_end",
      "action.queue.checks_not_started",
      "action.queue.checks_start",
    ]);
  });

  it("offers the event types and family globs of both dialects after --type and --not-type, outcomes after --outcome", () => {
    const all = [...new Set([...SPEC_DIALECT.eventFamilies, ...MERGIFY_DIALECT.eventFamilies, ...ALL_EVENT_TYPES])].sort();
    expect(bashComplete(["mq", "logs", "--type", ""])).toEqual(escaped(all));
    expect(bashComplete(["mq", "logs", "aggregate", "--not-type", ""])).toEqual(escaped(all));
    expect(ALL_EVENT_TYPES).toHaveLength(57);
    // mq prs shares the flag: its stay outcomes are offered too
    expect(bashComplete(["mq", "logs", "--outcome", ""])).toEqual([
      "success",
      "failure",
      "pending",
      "neutral",
      "merged",
      "failed",
      "dequeued",
      "open",
    ]);
    expect(bashComplete(["mq", "logs", "--not-outcome", ""])).toEqual(["success", "failure", "pending", "neutral"]);
  });

  it("completes the value after --type= (split on = by COMP_WORDBREAKS)", () => {
    expect(bashComplete(["mq", "logs", "--type", "=", "ci_issue.re"])).toEqual([
      "ci_issue.renamed",
      "ci_issue.reopened",
      "ci_issue.resolved",
    ]);
    expect(bashComplete(["mq", "logs", "--type", "="])).toHaveLength(
      new Set([...SPEC_DIALECT.eventFamilies, ...MERGIFY_DIALECT.eventFamilies, ...ALL_EVENT_TYPES]).size,
    );
  });

  it("completes the last item of a comma-separated --type list", () => {
    expect(bashComplete(["mq", "logs", "--type", "command.queue,command.de"])).toEqual(["command.queue,command.dequeue"]);
  });

  it("completes the output formats of the global -o", () => {
    expect(bashComplete(["mq", "-o", ""])).toEqual(["table", "json", "ndjson", "csv", "none", "markdown", "openmetrics"]);
  });

  it("completes -o after a subcommand", () => {
    expect(bashComplete(["mq", "logs", "-o", "j"])).toEqual(["json"]);
  });

  it("completes --color", () => {
    expect(bashComplete(["mq", "stats", "queues", "--color", ""])).toEqual(["auto", "always", "never"]);
  });

  it("completes the shells of mq completion", () => {
    expect(bashComplete(["mq", "completion", ""])).toEqual(["bash", "zsh", "fish"]);
  });

  it("completes config keys", () => {
    expect(bashComplete(["mq", "config", "set", ""])).toEqual(["api-url", "repo", "output", "color", "timeout", "dialect"]);
  });

  it("skips global flags and their values to find the command", () => {
    expect(bashComplete(["mq", "-R", "acme/web", "--offline", "stats", "fa"])).toEqual(["failure-rate"]);
    expect(bashComplete(["mq", "--repo=acme/web", "stats", "fa"])).toEqual(["failure-rate"]);
  });

  it("offers nothing for an open value", () => {
    expect(bashComplete(["mq", "logs", "--repo", ""])).toEqual([]);
  });

  it("completes the command tree after mq help", () => {
    expect(bashComplete(["mq", "help", "stats", "fa"])).toEqual(["failure-rate"]);
    expect(bashComplete(["mq", "help", "au"])).toEqual(["auth"]);
  });
});

const liveTree = await buildProgram(testContext());

describe("bash completion follows the live tree", () => {
  const program = liveTree;
  ensureGlobalOptionsEverywhere(program);
  const commands = [...walk(program)].filter((c) => c.name() !== "help");
  const pathOf = (cmd: Command): string[] => {
    const names: string[] = [];
    for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
    return names;
  };

  it.each(commands.map((c) => [pathOf(c).join(" ") || "mq", c] as const))("%s: every visible flag and subcommand", (_name, cmd) => {
    const help = cmd.createHelp();
    const flags = help.visibleOptions(cmd).flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f)));
    expect(bashComplete(["mq", ...pathOf(cmd), "-"]).sort()).toEqual(flags.sort());
    const subs = cmd.commands.filter((c) => help.visibleCommands(cmd).includes(c)).map((c) => c.name());
    if (subs.length > 0) expect(bashComplete(["mq", ...pathOf(cmd), ""])).toEqual(subs);
  });
});
