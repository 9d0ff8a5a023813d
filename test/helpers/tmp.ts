// Temporary folders for tests. `tempDir` makes one under the run's temp root (TMPDIR, which
// global-setup.ts points at a folder of this run's own) and registers it; the file-wide afterAll of
// temp-cleanup.ts removes every registered folder once the test file's own hooks have closed what
// wrote into them, and once what was registered with beforeTempRemoval (processes still running
// that might write into them) has stopped. The global teardown fails the run, naming them, if folders are left behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();
const stoppers = new Set<() => Promise<void>>();

/** `stop` runs before the file's folders are removed (a process that could write into them); returns the unregister */
export function beforeTempRemoval(stop: () => Promise<void>): () => void {
  stoppers.add(stop);
  return () => stoppers.delete(stop);
}

/** a fresh folder `<TMPDIR>/<prefix>XXXXXX`, removed after the test file */
export function tempDir(prefix = "mq-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

/** removes a folder now (and forgets it); a folder already gone is fine */
export function removeTempDir(dir: string): void {
  made.delete(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/** stops what was registered with beforeTempRemoval, then removes every folder made by tempDir so far */
export async function removeTempDirs(): Promise<void> {
  const stops = [...stoppers];
  stoppers.clear();
  await Promise.all(stops.map((stop) => stop()));
  for (const dir of [...made]) removeTempDir(dir);
}
