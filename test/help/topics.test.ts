// `mq help <topic>`: each topic prints its text on stdout, exit 0, fitted to 80 columns in a pipe;
// a near miss suggests it; and what the topics list agrees with the config keys and with
// docs/configuration.md's table of the environment.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/keys.js";
import { HELP_TOPICS, WIDTH } from "../../src/help/topics.js";
import { TOPIC_NAMES } from "../../src/help/topic-names.js";
import { main } from "../../src/main.js";
import { testContext } from "../helpers/context.js";

/** left whole in a pipe, a code a line, as `mq --help` ends (docs/formats.md) */
const WHOLE_IN_PIPES = "exit-codes";

describe("mq help <topic>", () => {
  it("has a text for each name the root help gives, in that order (the names are read without the texts)", () => {
    expect(Object.keys(HELP_TOPICS)).toEqual([...TOPIC_NAMES]);
  });

  it.each(Object.keys(HELP_TOPICS).filter((t) => t !== WHOLE_IN_PIPES))(
    "mq help %s prints the topic on stdout, exit 0, no line wider than 80",
    async (topic) => {
      const ctx = testContext();
      expect(await main(["help", topic], ctx)).toBe(0);
      expect(ctx.stdoutText()).toBe(HELP_TOPICS[topic]!());
      expect(ctx.stderrText()).toBe("");
      for (const line of ctx.stdoutText().split("\n")) expect([...line].length, line).toBeLessThanOrEqual(WIDTH);
    },
  );

  it.each(Object.keys(HELP_TOPICS))("mq help %s on a 60-column terminal: no line wider than 60", async (topic) => {
    const ctx = testContext({ tty: true, columns: 60 });
    expect(await main(["help", topic], ctx)).toBe(0);
    // a screen of it at most (the next test)
    expect(ctx.stdoutText()).toBe(`${HELP_TOPICS[topic]!(60).split("\n").slice(0, 30).join("\n").trimEnd()}\n`);
    for (const line of ctx.stdoutText().split("\n")) expect([...line].length, line).toBeLessThanOrEqual(60);
  });

  it("a topic longer than the screen on a terminal: its first lines (30, or the terminal's rows less two), and a line on stderr saying what shows them all; a pipe gets it whole", async () => {
    const whole = HELP_TOPICS.figures!(80).trimEnd().split("\n");
    expect(whole.length).toBeGreaterThan(1000);
    const tty = testContext({ tty: true, columns: 80 });
    expect(await main(["help", "figures"], tty)).toBe(0);
    expect(tty.stdoutText()).toBe(`${whole.slice(0, 30).join("\n")}\n`);
    expect(tty.stderrText()).toBe(`the first 30 of ${whole.length.toLocaleString("en-US")} lines; mq help figures | less shows them all\n`);
    // a taller terminal holds more: its rows less two (the line on stderr, the prompt)
    const tall = testContext({ tty: true, columns: 80, rows: 50 });
    expect(await main(["help", "figures"], tall)).toBe(0);
    expect(tall.stdoutText()).toBe(`${whole.slice(0, 48).join("\n")}\n`);
    expect(tall.stderrText()).toMatch(/^the first 48 of /);
    const pipe = testContext();
    expect(await main(["help", "figures"], pipe)).toBe(0);
    expect(pipe.stdoutText()).toBe(HELP_TOPICS.figures!());
    expect(pipe.stderrText()).toBe("");
  });

  it("a near miss suggests the topic", async () => {
    const ctx = testContext();
    expect(await main(["help", "formts"], ctx)).toBe(2);
    expect(ctx.stderrText()).toBe("mq: unknown command 'formts' (did you mean formats?)\n");
  });

  it("mq help config names every config key", () => {
    const text = HELP_TOPICS.config!();
    for (const key of CONFIG_KEYS) expect(text).toMatch(new RegExp(`^  ${key} `, "m"));
  });

  it("mq help environment names every variable of docs/configuration.md's Environment table, and no other", () => {
    const page = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");
    const table = page.slice(page.indexOf("## Environment"));
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z_]+)(?:=1)?`/g)].map((m) => m[1]!));
    const listed = new Set([...HELP_TOPICS.environment!().matchAll(/\b([A-Z][A-Z_]{3,})\b/g)].map((m) => m[1]!));
    expect([...listed].sort()).toEqual([...documented].sort());
  });
});
