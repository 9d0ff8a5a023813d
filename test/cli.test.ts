import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../src/main.js";
import { testContext } from "./helpers/context.js";

describe("the command tree", () => {
  it("prints the version and exits 0", async () => {
    const ctx = testContext();
    expect(await main(["--version"], ctx)).toBe(0);
    expect(ctx.stdoutText()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it("rejects an unknown option with one line and exit 2", async () => {
    const ctx = testContext();
    expect(await main(["logs", "--bogus"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: unknown option '--bogus'\n");
    expect(ctx.stdoutText()).toBe("");
  });

  it("suggests the closest command", async () => {
    const ctx = testContext();
    expect(await main(["lgos"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: unknown command 'lgos' (did you mean logs?)\n");
  });

  it("names the flag and the allowed values for a bad --output", async () => {
    const ctx = testContext();
    expect(await main(["-o", "xml", "logs"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe(
      "mq: option '-o, --output <format>' argument 'xml' is invalid. Allowed choices are table, json, ndjson, csv, none, markdown, openmetrics.\n",
    );
  });
});

describe("config defaults", () => {
  it("a data command takes its output format from the config file when -o is not given", async () => {
    const ctx = testContext();
    expect(await main(["config", "set", "output", "json"], ctx)).toBe(0);
    const run = testContext({ env: { MQ_CONFIG_DIR: ctx.configDir() } });
    expect(await main(["--offline", "logs", "--repo", "acme/web", "--limit", "2"], run)).toBe(0);
    const parsed = JSON.parse(run.stdoutText()) as unknown[];
    expect(parsed).toHaveLength(2);
  });

  it("-o on the command line wins over the config file", async () => {
    const ctx = testContext();
    expect(await main(["config", "set", "output", "json"], ctx)).toBe(0);
    const run = testContext({ env: { MQ_CONFIG_DIR: ctx.configDir() } });
    expect(await main(["--offline", "logs", "--repo", "acme/web", "--limit", "2", "-o", "ndjson"], run)).toBe(0);
    expect(run.stdoutText().trimEnd().split("\n")).toHaveLength(2);
  });
});

describe("the exit-code map", () => {
  it("mq help exit-codes prints it on stdout, exit 0; a near miss suggests it", async () => {
    const { EXIT_CODE_TABLE } = await import("../src/errors.js");
    const ctx = testContext();
    expect(await main(["help", "exit-codes"], ctx)).toBe(0);
    expect(ctx.stdoutText()).toBe(`Exit codes:\n${EXIT_CODE_TABLE.map(([c, d]) => `  ${String(c).padEnd(4)}${d}\n`).join("")}`);
    expect(ctx.stderrText()).toBe("");
    const typo = testContext();
    expect(await main(["help", "exit-code"], typo)).toBe(2);
    expect(typo.stderrText()).toBe("mq: unknown command 'exit-code' (did you mean exit-codes?)\n");
  });

  it("is documented in docs/exit-codes.md exactly as src/errors.ts defines it", async () => {
    const { readFileSync } = await import("node:fs");
    const { EXIT_CODE_TABLE } = await import("../src/errors.js");
    const page = readFileSync(new URL("../docs/exit-codes.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("# Exit codes"));
    const rows = [...section.matchAll(/^\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]!.replaceAll("`", "")]);
    expect(rows).toEqual(EXIT_CODE_TABLE.map(([code, text]) => [code, text]));
  });
});

describe("a token typed in the wrong place", () => {
  it.each([
    [["ghp_abcdefghijklmnopqrstuvwxyz0123"], "mq: unknown command 'ghp_****'\n"],
    [
      ["config", "get", "mqk_secret_value_1234"],
      "mq: unknown config key 'mqk_****': allowed keys are api-url, repo, output, color, timeout, dialect\n",
    ],
    [["stats", "github_pat_11ABCDEFG0123456789abcdef"], 'mq: unknown stats subcommand "github_pat_****"; run mq stats to list them.\n'],
  ])("is not echoed back: mq %j", async (argv, stderr) => {
    const ctx = testContext();
    expect(await main(argv, ctx)).toBe(2);
    expect(ctx.stderrText()).toBe(stderr);
  });
});

describe("a token from any source, typed as an argument", () => {
  const TOKEN = "s3cr3t-value-42";
  const cases: Array<[string, string[], Record<string, string>]> = [
    ["MQ_TOKEN", [TOKEN], { MQ_TOKEN: TOKEN }],
    ["MERGIFY_TOKEN (with spaces around it)", ["logs", `--${TOKEN}`], { MERGIFY_TOKEN: ` ${TOKEN}\n` }],
    ["--token", ["--token", TOKEN, "logs", "--pr", TOKEN], {}],
    ["--token=", [`--token=${TOKEN}`, `--${TOKEN}`], {}],
  ];
  it.each(cases)("from %s is masked before the parser or mq can echo it", async (_source, argv, env) => {
    const ctx = testContext({ env });
    expect(await main(argv, ctx)).toBe(2);
    expect(ctx.stderrText()).not.toContain(TOKEN);
    expect(ctx.stderrText()).toMatch(/\*\*\*\*/);
  });

  it("stored by mq auth login is masked too (commander's unknown option, mq's bad value)", async () => {
    const login = testContext({ stdin: `${TOKEN}\n` });
    expect(await main(["auth", "login", "--with-token", "--no-check"], login)).toBe(0);
    for (const argv of [["logs", `--${TOKEN}`], ["logs", "--pr", TOKEN], [TOKEN]]) {
      const ctx = testContext({ env: { MQ_CONFIG_DIR: login.configDir() } });
      expect(await main(argv, ctx)).toBe(2);
      expect(ctx.stderrText()).not.toContain(TOKEN);
      expect(ctx.stderrText()).toMatch(/\*\*\*\*/);
    }
  });

  it("a very short token is masked whole, and only where it stands alone", async () => {
    const ctx = testContext({ env: { MQ_TOKEN: "ab1" } });
    expect(await main(["ab1"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: unknown command '****'\n");
    const ctx2 = testContext({ env: { MQ_TOKEN: "ab1" } });
    expect(await main(["lab1x"], ctx2)).toBe(2);
    expect(ctx2.stderrText()).toBe("mq: unknown command 'lab1x'\n");
  });
});

describe("credentials in a URL", () => {
  it("are masked wherever a URL appears in a message", async () => {
    const { redact } = await import("../src/errors.js");
    expect(redact("GET https://x-access-token:ghs_abc@github.com/acme/web failed; see http://u@h:8080/x", [])).toBe(
      "GET https://****@github.com/acme/web failed; see http://****@h:8080/x",
    );
  });

  it("of --api-url are never echoed", async () => {
    const ctx = testContext();
    expect(await main(["--api-url", "https://user:hunter22@api.example.com", "logs"], ctx)).toBe(2);
    expect(ctx.stderrText()).not.toContain("hunter22");
    const ctx2 = testContext();
    expect(await main(["--api-url", "https://user:hunter22@api.example.com", "lgos"], ctx2)).toBe(2);
    expect(ctx2.stderrText()).not.toContain("hunter22");
  });
});

describe("building only the command a run needs", () => {
  it.each([
    [["auth", "status"], "auth"],
    [["--repo", "acme/web", "--offline", "logs", "--limit", "5"], "logs"],
    [["-o", "json", "--timeout", "3", "stats", "failure-rate"], "stats"],
    [["config", "set", "repo", "acme/web"], "config"],
    [["serve", "--port", "0"], "serve"],
    [["--token", "stats", "auth", "status"], "auth"],
    [["--token=x", "-ojson", "--color=never", "--", "config", "list"], "config"],
    // a bad global value is commander's to report, whatever is built
    [["-o", "xml", "logs"], "logs"],
  ])("mq %j builds %s only", async (argv, name) => {
    const { buildProgram } = await import("../src/cli.js");
    expect((await buildProgram(testContext(), argv)).commands.map((c) => c.name())).toEqual([name]);
  });

  it.each([[["--help"]], [[]], [["help", "stats"]], [["completion", "bash"]], [["lgos"]], [["--bogus", "auth", "status"]], [["-V"]]])(
    "mq %j builds the whole tree",
    async (argv) => {
      const { buildProgram, COMMAND_NAMES } = await import("../src/cli.js");
      expect((await buildProgram(testContext(), argv)).commands.map((c) => c.name())).toEqual([...COMMAND_NAMES, "help"]);
    },
  );

  it("a help page measures a word without colour codes by its length, not through commander's colour stripping", async () => {
    // commander's stripColor makes a regular expression and a string for each word of the page:
    // ~100 KB of garbage, and a garbage collection of every `mq --help` on Node 24
    const { buildProgram } = await import("../src/cli.js");
    const { Help } = await import("commander");
    const replace = String.prototype.replace;
    let stripped = 0;
    String.prototype.replace = function (this: string, pattern: unknown, ...rest: unknown[]) {
      // a word or a term (commander strips the whole page once more, as it writes it)
      if (pattern instanceof RegExp && pattern.source.startsWith("\\x1b") && !this.includes("\n")) stripped++;
      return (replace as (...args: unknown[]) => string).call(this, pattern, ...rest);
    } as typeof replace;
    let text: string;
    let control: number;
    try {
      // the control: commander's own measure strips colour through String.prototype.replace
      new Help().displayWidth("word");
      control = stripped;
      stripped = 0;
      text = (await buildProgram(testContext(), ["--help"])).helpInformation();
    } finally {
      String.prototype.replace = replace;
    }
    expect(control).toBe(1);
    expect(text).toMatch(/^Usage: mq \[options\] \[command\]\n/);
    expect(stripped).toBe(0);
  });

  it("every folder of src/commands/ is a command of the tree, and each command but completion builds alone", async () => {
    const { buildProgram, COMMAND_NAMES, SELF_CONTAINED } = await import("../src/cli.js");
    const folders = readdirSync(new URL("../src/commands/", import.meta.url), { withFileTypes: true }).filter((d) => d.isDirectory());
    // the top-level commands, and help (whose flags cli.ts builds beside the root's)
    const tree = (await buildProgram(testContext())).commands.map((c) => c.name());
    expect(folders.map((d) => d.name).filter((name) => !tree.includes(name))).toEqual([]);
    expect(tree).toEqual([...COMMAND_NAMES, "help"]);
    for (const name of COMMAND_NAMES.filter((n) => n !== "completion")) {
      expect(SELF_CONTAINED.has(name)).toBe(true);
      expect((await buildProgram(testContext(), [name, "--help"])).commands.map((c) => c.name())).toEqual([name]);
    }
    expect(SELF_CONTAINED.has("completion")).toBe(false);
  });

  it("mq --help lists the top-level commands from their table, no flag module built: the same help as the whole tree's", async () => {
    const { buildProgram, COMMAND_NAMES } = await import("../src/cli.js");
    const { TOP_COMMANDS } = await import("../src/cmdutil/top-commands.js");
    expect(Object.keys(TOP_COMMANDS)).toEqual(COMMAND_NAMES);
    const whole = await buildProgram(testContext());
    const help = whole.createHelp();
    for (const name of COMMAND_NAMES) {
      const cmd = whole.commands.find((c) => c.name() === name)!;
      expect([help.subcommandTerm(cmd), cmd.description()]).toEqual(TOP_COMMANDS[name as keyof typeof TOP_COMMANDS]);
    }
    for (const argv of [["--help"], ["-h"], ["--offline", "-h"]]) {
      const listed = await buildProgram(testContext(), argv);
      expect(listed.helpInformation()).toBe(whole.helpInformation());
      // a listed command is its name and description: no option, argument or subcommand was built
      for (const cmd of listed.commands.filter((c) => c.name() !== "help"))
        expect([cmd.options, cmd.registeredArguments, cmd.commands]).toEqual([[], [], []]);
    }
    expect(whole.commands.find((c) => c.name() === "stats")!.commands.length).toBeGreaterThan(15);
    // what runs a stats subcommand, or shows its help, builds them all
    for (const argv of [
      ["stats", "--help"],
      ["help", "stats"],
      ["--help", "stats"],
    ]) {
      expect((await buildProgram(testContext(), argv)).commands.find((c) => c.name() === "stats")!.commands.length).toBeGreaterThan(15);
    }
  });
});
