// --repo lists as users type them: a long or binary value is not echoed whole, and a huge @FILE
// (or a device, a pipe) is refused once 1 MiB has been read (at most MAX_REPOS names fit in far less).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { parseRepoList } from "../../src/cmdutil/repos.js";
import { checkRepo } from "../../src/validators.js";
import { tempDir } from "../helpers/tmp.js";

describe("--repo values that are not repositories", () => {
  it("a long value is quoted shortened, in one short line", () => {
    const r = checkRepo("a".repeat(100_000));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe(`'${"a".repeat(60)}…' (100000 characters) is not of the form owner/name`);
    const owner = checkRepo(`${"o".repeat(5000)}/web`);
    if (!owner.ok) expect(owner.message).toBe(`owner '${"o".repeat(60)}…' (5000 characters) must be 1 to 40 letters, digits or hyphens`);
  });

  it("a @FILE larger than 1 MiB is refused, naming the flag and the bound", () => {
    const dir = tempDir("mq-repos-");
    writeFileSync(join(dir, "huge.txt"), "acme/web\n".repeat(200_000));
    let err: unknown;
    try {
      parseRepoList("@huge.txt", dir);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(
      `--repo @huge.txt: ${join(dir, "huge.txt")} holds more than 1 MiB; a file of repositories is at most 1 MiB (1000 repositories).`,
    );
  });

  it.each(["/dev/zero", "/dev/urandom"])("a device without end (@%s) is read 1 MiB at most, then refused", (device) => {
    // before: the 1 MiB bound read the size from stat (0 for a device), and reading it ate memory
    expect(() => parseRepoList(`@${device}`, "/")).toThrow(
      new UsageError(`--repo @${device}: ${device} holds more than 1 MiB; a file of repositories is at most 1 MiB (1000 repositories).`),
    );
  });

  it("a folder is a usage error naming it", () => {
    const dir = tempDir("mq-repos-");
    expect(() => parseRepoList(`@${dir}`, "/")).toThrow(new UsageError(`--repo @${dir}: cannot read ${dir} (EISDIR).`));
  });

  it("a bad line of a @FILE is named by the file and its line number", () => {
    const dir = tempDir("mq-repos-");
    writeFileSync(join(dir, "repos.txt"), "# the team\nacme/web\n\nacme api\n");
    expect(() => parseRepoList("acme/x,@repos.txt", dir)).toThrow(
      new UsageError("bad repository from --repo @repos.txt, line 4: 'acme api' is not of the form owner/name"),
    );
    expect(() => parseRepoList("acme/x,nope", dir)).toThrow(
      new UsageError("bad repository from --repo: 'nope' is not of the form owner/name"),
    );
  });
});
