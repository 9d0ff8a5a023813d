import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fishComplete, hasShell, scriptFile } from "./shells.js";

const fish = hasShell("fish");

// fish sorts what it offers
describe.skipIf(!fish)(`fish completion${fish ? "" : " (skipped: fish is not installed; apt-get install -y fish)"}`, () => {
  it("parses (fish --no-execute)", () => {
    execFileSync("fish", ["--no-config", "--no-execute", scriptFile("fish")]);
  });

  it.each([
    ["mq st", ["stats"]],
    ["mq stats fa", ["failure-rate"]],
    ["mq logs --ty", ["--type"]],
    ["mq logs --type action.queue.e", ["action.queue.enter"]],
    [
      "mq logs --type action.queue.checks",
      [
        "action.queue.checks.*",
        "action.queue.checks.change",
        "action.queue.checks_end",
        "action.queue.checks_not_started",
        "action.queue.checks_start",
      ],
    ],
    ["mq -o ", ["csv", "json", "markdown", "ndjson", "none", "openmetrics", "table"]],
    ["mq logs -o j", ["json"]],
    ["mq completion ", ["bash", "fish", "zsh"]],
    ["mq -R acme/web stats fa", ["failure-rate"]],
    ["mq help stats fa", ["failure-rate"]],
    ["mq config get r", ["repo"]],
  ])("%s", (line, expected) => {
    expect(fishComplete(line)).toEqual(expected);
  });
});
