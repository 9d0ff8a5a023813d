// mq serve as a real process: the first stdout line is the URL, SIGTERM stops it cleanly.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { join } from "node:path";

describe("mq serve as a process", () => {
  it("prints its URL as the first stdout line, serves, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, ["bin/mq.js", "serve", "--port", "0", "--seed", "3", "--days", "2"], {
      cwd: join(__dirname, "../.."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const lines = createInterface({ input: child.stdout });
    const url = await new Promise<string>((resolve, reject) => {
      lines.once("line", resolve);
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/v1/repos/acme/web/stats/queues_entered_count`, { headers: { authorization: "Bearer anything" } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { groups: unknown[] }).groups.length).toBeGreaterThan(0);
    const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
    expect(stderr).toContain("mq serve: stopped");
  });
});
