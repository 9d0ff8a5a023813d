// `mq archive export --parquet DIR --force` replaces only what an export wrote: it never follows a
// symbolic link and refuses a DIR that holds anything else. Before, DuckDB's OVERWRITE emptied DIR
// and the folder a link inside it pointed to, exit 0.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runMq, seedArchive, tempDataDir } from "../helpers/archive.js";
import { tempDir } from "../helpers/tmp.js";

let data: string;
beforeAll(async () => {
  data = tempDataDir();
  await seedArchive(data);
});

const exportTo = (dir: string, ...more: string[]) => runMq(["archive", "export", "--parquet", dir, ...more], { dataDir: data });
const PARTITION = "repository=acme%2Fweb";

describe("mq archive export --force", () => {
  it("writes a manifest of its files, and replaces a previous export", async () => {
    const out = join(tempDir(), "parquet");
    expect((await exportTo(out)).code).toBe(0);
    expect(readdirSync(out)).toEqual(["_mq_export.json", PARTITION]);
    expect(JSON.parse(readFileSync(join(out, "_mq_export.json"), "utf8"))).toEqual({
      written_by: "mq archive export",
      events: 3,
      files: [`${PARTITION}/date=2026-11-20/data_0.parquet`],
    });
    const again = await exportTo(out, "--force");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe(`Exported 3 events into 1 partition under ${out}.\n`);
    expect(readdirSync(join(out, PARTITION, "date=2026-11-20"))).toEqual(["data_0.parquet"]);
  });

  it("never follows a symbolic link inside DIR: refused, and the folder it points to untouched", async () => {
    const out = join(tempDir(), "parquet");
    expect((await exportTo(out)).code).toBe(0);
    const precious = tempDir();
    writeFileSync(join(precious, "keep.txt"), "mine");
    symlinkSync(precious, join(out, PARTITION, "date=2026-11-19"));
    const r = await exportTo(out, "--force");
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `mq: --parquet ${out} holds ${PARTITION}/date=2026-11-19, a symbolic link: --force replaces only what mq archive export wrote.\n` +
        "choose an empty folder, or move that entry out of it\n",
    });
    expect(readFileSync(join(precious, "keep.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(out, PARTITION, "date=2026-11-20", "data_0.parquet"))).toBe(true);
  });

  it("refuses a DIR that is a symbolic link, with or without --force", async () => {
    const real = tempDir();
    writeFileSync(join(real, "keep.txt"), "mine");
    const link = join(tempDir(), "link");
    symlinkSync(real, link);
    for (const more of [[], ["--force"]]) {
      const r = await exportTo(link, ...more);
      expect(r.stderr).toBe(
        `mq: --parquet ${link} is a symbolic link: mq archive export writes into a real folder, never through a link.\ngive the folder itself, or another one\n`,
      );
      expect(r.code).toBe(2);
    }
    expect(readdirSync(real)).toEqual(["keep.txt"]);
  });

  it("refuses a DIR holding files that are not a previous export", async () => {
    const out = tempDir();
    mkdirSync(join(out, "src"));
    writeFileSync(join(out, "src", "main.ts"), "x");
    writeFileSync(join(out, "notes.txt"), "x");
    const r = await exportTo(out, "--force");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `mq: --parquet ${out} holds notes.txt, which is not part of an export: --force replaces only what mq archive export wrote.\nchoose an empty folder, or move that entry out of it\n`,
    );
    expect(readdirSync(out)).toEqual(["notes.txt", "src"]);
    // a stray file inside a partition too
    const out2 = join(tempDir(), "p");
    expect((await exportTo(out2)).code).toBe(0);
    writeFileSync(join(out2, PARTITION, "date=2026-11-20", "README"), "x");
    const r2 = await exportTo(out2, "--force");
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/holds repository=acme%2Fweb\/date=2026-11-20\/README, which is not part of an export/);
  });
});
