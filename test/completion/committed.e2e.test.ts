// completions/ holds the scripts as the tree generates them; a flag added without regenerating
// them fails here.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("committed completion scripts", () => {
  it.each([
    ["bash", "completions/mq.bash"],
    ["zsh", "completions/_mq"],
    ["fish", "completions/mq.fish"],
  ])("%s: %s is what `mq completion` generates", (shell, file) => {
    const generated = execFileSync("node", ["bin/mq.js", "completion", shell], { cwd: root, encoding: "utf8" });
    const committed = readFileSync(`${root}/${file}`, "utf8");
    expect(committed === generated, `${file} is out of date: run npm run build && npm run completions`).toBe(true);
  });
});
