// Where the archive lives when the environment says little: never the current folder.
import { userInfo } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { archiveDir } from "../../src/archive/paths.js";

describe("archiveDir", () => {
  it("takes the flag, then MQ_DATA_DIR, then XDG_DATA_HOME, then HOME", () => {
    expect(archiveDir({ HOME: "/h", MQ_DATA_DIR: "/d", XDG_DATA_HOME: "/x" }, "/f")).toBe("/f");
    expect(archiveDir({ HOME: "/h", MQ_DATA_DIR: "/d", XDG_DATA_HOME: "/x" })).toBe("/d");
    expect(archiveDir({ HOME: "/h", XDG_DATA_HOME: "/x" })).toBe(join("/x", "mq"));
    expect(archiveDir({ HOME: "/h" })).toBe(join("/h", ".local", "share", "mq"));
  });

  it("without HOME, uses the account's home folder, not the current folder", () => {
    expect(archiveDir({})).toBe(join(userInfo().homedir, ".local", "share", "mq"));
  });
});
