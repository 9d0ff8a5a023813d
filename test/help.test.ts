import { describe, expect, it } from "vitest";
import type { Command } from "commander";
import { ensureGlobalOptionsEverywhere } from "../src/cmdutil/global-options.js";
import { buildProgram, commandPath, walk } from "../src/cli.js";
import { EXAMPLES } from "../src/help/examples.js";
import { HELP_TOPICS } from "../src/help/topics.js";
import { main } from "../src/main.js";
import { testContext } from "./helpers/context.js";

const program = await buildProgram(testContext());
// the tree as completion sees it: global options on every command
ensureGlobalOptionsEverywhere(program);
const commands = [...walk(program)];
const label = (cmd: Command) => `mq ${commandPath(cmd)}`.trim();

async function run(argv: string[]) {
  const ctx = testContext();
  const code = await main(argv, ctx);
  return { code, stdout: ctx.stdoutText(), stderr: ctx.stderrText() };
}

describe("every command and option has a description", () => {
  it.each(commands.map((c) => [label(c), c] as const))("%s", (_name, cmd) => {
    expect(cmd.description().trim(), `${label(cmd)} has no description`).not.toBe("");
    const missing = cmd
      .createHelp()
      .visibleOptions(cmd)
      .filter((o) => !o.description?.trim())
      .map((o) => o.flags);
    expect(missing, `${label(cmd)}: options without a description`).toEqual([]);
    const bareArguments = cmd
      .createHelp()
      .visibleArguments(cmd)
      .filter((a) => !a.description?.trim())
      .map((a) => a.name());
    expect(bareArguments, `${label(cmd)}: arguments without a description`).toEqual([]);
  });
});

describe("examples", () => {
  it("every command has 2 to 4 examples", () => {
    const wrong = commands.map(commandPath).filter((p) => !EXAMPLES[p] || EXAMPLES[p]!.length < 2 || EXAMPLES[p]!.length > 4);
    expect(wrong, "command paths without 2-4 examples in src/help/examples.ts").toEqual([]);
  });

  it("no examples for a command that does not exist", () => {
    const paths = new Set(commands.map(commandPath));
    expect(Object.keys(EXAMPLES).filter((p) => !paths.has(p))).toEqual([]);
  });

  it("each example runs the command it documents", () => {
    const wrong = Object.entries(EXAMPLES).flatMap(([path, lines]) =>
      lines.filter((l) => !/(^|[\s;&|(])mq( |$)/.test(l) || (path !== "" && !l.includes(` ${path}`))).map((l) => `${path}: ${l}`),
    );
    expect(wrong).toEqual([]);
  });

  it("queries say --offline, so they run on a fresh clone", () => {
    const querying = Object.entries(EXAMPLES).filter(([p]) => /^(logs|stats .)/.test(p));
    const wrong = querying.flatMap(([p, lines]) => lines.filter((l) => !l.includes("--offline")).map((l) => `${p}: ${l}`));
    expect(wrong).toEqual([]);
  });

  it.each(commands.map((c) => [label(c), c] as const))("%s --help ends with its examples, once", async (_name, cmd) => {
    const path = commandPath(cmd);
    const { code, stdout } = await run([...path.split(" ").filter(Boolean), "--help"]);
    expect(code).toBe(0);
    const block = `\nExamples:\n${EXAMPLES[path]!.map((l) => `  $ ${l}`).join("\n")}\n`;
    expect(stdout).toContain(block);
    expect(stdout.split("\nExamples:").length - 1, `${label(cmd)} --help has more than one Examples section`).toBe(1);
    if (path !== "") expect(stdout.endsWith(block)).toBe(true);
  });

  it("mq --help ends with the exit codes after the examples", async () => {
    const { stdout } = await run(["--help"]);
    expect(stdout).toMatch(
      /\nExamples:\n( {2}\$ .*\n)+\nExit codes:\n {2}0 {3}success\n[\s\S]* {2}129 hung up \(SIGHUP[^\n]*\n {2}130 interrupted \(Ctrl-C, SIGTERM\)[^\n]*\n$/,
    );
  });
});

describe("global options", () => {
  it("appear under their own heading in a subcommand's help, not among its options", async () => {
    const { stdout } = await run(["logs", "--help"]);
    const options = stdout.slice(stdout.indexOf("\nOptions:\n"), stdout.indexOf("\nGlobal options:\n"));
    expect(options).toContain("--type <type>");
    expect(options).not.toContain("--repo");
    expect(stdout.indexOf("\nGlobal options:\n")).toBeGreaterThan(0);
    const globals = stdout.slice(stdout.indexOf("\nGlobal options:\n"));
    for (const flag of [
      "-R, --repo",
      "--api-url",
      "--offline",
      "-o, --output",
      "--color",
      "--debug",
      "--token",
      "--timeout",
      "--no-retry",
      "--insecure",
      "--strict",
    ]) {
      expect(globals).toContain(flag);
    }
  });
});

describe("mq help", () => {
  it("mq help logs prints the help of mq logs", async () => {
    const viaHelp = await run(["help", "logs"]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe((await run(["logs", "--help"])).stdout);
    expect(viaHelp.stdout.startsWith("Usage: mq logs [options] [command]\n")).toBe(true);
  });

  it("mq help stats failure-rate prints the help of the nested command", async () => {
    const viaHelp = await run(["help", "stats", "failure-rate"]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe((await run(["stats", "failure-rate", "--help"])).stdout);
    expect(viaHelp.stdout.startsWith("Usage: mq stats failure-rate")).toBe(true);
  });

  it("mq help alone prints the top-level help", async () => {
    const { code, stdout } = await run(["help"]);
    expect(code).toBe(0);
    expect(stdout).toBe((await run(["--help"])).stdout);
  });

  it("mq help --help names every topic of the topics table (it named exit-codes only)", async () => {
    const { code, stdout } = await run(["help", "--help"]);
    expect(code).toBe(0);
    expect(Object.keys(HELP_TOPICS)).toEqual(expect.arrayContaining(["formats", "config", "environment", "exit-codes"]));
    expect(stdout.split("\n").slice(0, 6).join("\n")).toBe(
      [
        "Usage: mq help [options] [command...]",
        "",
        `show help for a command, or a topic: ${Object.keys(HELP_TOPICS).join(", ")}`,
        "",
        "Arguments:",
        "  command     the command, e.g. logs or stats failure-rate, or a topic",
      ].join("\n"),
    );
  });

  it.each(Object.keys(HELP_TOPICS))("mq help %s prints that topic", async (topic) => {
    expect(await run(["help", topic])).toEqual({ code: 0, stdout: HELP_TOPICS[topic]!(), stderr: "" });
  });

  it("mq archive query --help points to the schema's page (it pointed to the README)", async () => {
    const { stdout } = await run(["archive", "query", "--help"]);
    // the description as commander wraps it to the help's width
    expect(stdout.split("\n\n")[1]!.replace(/\s+/g, " ")).toBe(
      "run one read-only SELECT (DuckDB dialect) over the archive, sandboxed (no files, no network, no ATTACH/COPY/SET/PRAGMA): the events are in the table events; see docs/archive.md for the schema",
    );
  });

  it("suggests the closest command for an unknown one", async () => {
    expect(await run(["help", "lgos"])).toEqual({ code: 2, stdout: "", stderr: "mq: unknown command 'lgos' (did you mean logs?)\n" });
  });

  it("suggests the closest nested command", async () => {
    expect(await run(["help", "stats", "failur-rate"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "mq: unknown command 'failur-rate' (did you mean failure-rate?)\n",
    });
  });
});

describe("suggestions after a typo", () => {
  it("an unknown stats subcommand suggests the closest one", async () => {
    const { code, stdout, stderr } = await run(["stats", "failur-rate"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(stderr).toMatch(/"?failur-rate"?.*\(did you mean failure-rate\?\)/);
  });

  it("an unknown option suggests the closest one", async () => {
    expect(await run(["logs", "--tpye", "action.queue.enter"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "mq: unknown option '--tpye' (did you mean --type?)\n",
    });
  });

  it("an unknown option of a nested command suggests the closest one", async () => {
    const { code, stderr } = await run(["stats", "failure-rate", "--sinse", "7d"]);
    expect(code).toBe(2);
    expect(stderr).toBe("mq: unknown option '--sinse' (did you mean --since?)\n");
  });
});

describe("help on a 60-column terminal", () => {
  // commander wraps a description only when 40 columns remain beside the flags: at 60 none was
  // wrapped and the terminal broke them mid-word. Examples are commands, kept whole to be copied.
  it.each(commands.map((c) => [label(c), c] as const))("%s --help: every line but an example fits", async (_name, cmd) => {
    const ctx = testContext({ columns: 60 });
    await main([...commandPath(cmd).split(" ").filter(Boolean), "--help"], ctx);
    const wide = ctx
      .stdoutText()
      .split("\n")
      .filter((l) => l.length > 60 && !/^\s+\$ /.test(l) && !/^\s{4,}\S+$/.test(l));
    expect(wide).toEqual([]);
  });
});

describe("help-like listings on a 60-column terminal", () => {
  it.each([[["help", "exit-codes"]], [["stats"]]])(
    "mq %j: no line wider than 60 (they ran to 90 and 95); piped, a line each",
    async (argv) => {
      const tty = testContext({ tty: true, columns: 60 });
      expect(await main(argv, tty)).toBe(0);
      expect(
        tty
          .stdoutText()
          .split("\n")
          .filter((l) => l.length > 60),
      ).toEqual([]);
      const piped = testContext({ columns: 60 });
      await main(argv, piped);
      expect(
        piped
          .stdoutText()
          .split("\n")
          .some((l) => l.length > 60),
      ).toBe(true);
    },
  );
});
