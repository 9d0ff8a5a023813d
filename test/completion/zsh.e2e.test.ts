import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { COMMAND_NAMES } from "../../src/cli.js";
import { hasShell, scriptFile, zshComplete } from "./shells.js";

const zsh = hasShell("zsh");

describe.skipIf(!zsh)(`zsh completion${zsh ? "" : " (skipped: zsh is not installed; apt-get install -y zsh)"}`, () => {
  it("parses (zsh -n)", () => {
    execFileSync("zsh", ["-n", scriptFile("zsh")]);
  });

  it.each([
    [
      ["mq", ""],
      [...COMMAND_NAMES, "help"],
    ],
    [["mq", "st"], ["stats"]],
    [["mq", "stats", "fa"], ["failure-rate"]],
    [["mq", "logs", "--ty"], ["--type"]],
    [["mq", "logs", "--type", "action.queue.e"], ["action.queue.enter"]],
    [
      ["mq", "logs", "--type=ci_issue.re"],
      ["--type=ci_issue.renamed", "--type=ci_issue.reopened", "--type=ci_issue.resolved"],
    ],
    [["mq", "logs", "--type", "command.queue,command.de"], ["command.queue,command.dequeue"]],
    [
      ["mq", "-o", ""],
      ["table", "json", "ndjson", "csv", "none", "markdown", "openmetrics"],
    ],
    [["mq", "logs", "-o", "j"], ["json"]],
    [
      ["mq", "completion", ""],
      ["bash", "zsh", "fish"],
    ],
    [["mq", "-R", "acme/web", "stats", "fa"], ["failure-rate"]],
    [["mq", "serve", "--events", ""], ["<files>"]],
  ])("%j", (words, expected) => {
    expect(zshComplete(words)).toEqual(expected);
  });
});
