// The simulation is deterministic from (seed, repository, day), and the event log it serves must
// not change when the simulation's code does (a faster path for statistics must not move a single
// random draw). These digests were recorded from the simulation once each pull request had one
// life (issue 28: unique numbers, one base branch, plausible commands, a URL per check run,
// bisections whose culprits follow from the checks); any change to the events of these days
// changes them, so a change that means to move them says so in its commit.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { simulateDay } from "../../src/server/simulate/index.js";

// a Thursday, a Friday (its office-hours queue reaches into Monday), a weekend, working days, and
// days decades apart
const DAYS = [20405, 20406, 20407, 20408, 20409, 20410, 20411, 19000, 21000, 0];

const GOLDEN: Array<[number, string, string]> = [
  [0, "acme/web", "082d6fc96f7f82dbf0bee31d99cbf90664f97c2182c28ce2113962a705c3d0cd"],
  [7, "acme/api", "27e37eec3e074451394a40b1df9714b7aef2273c800ef155264a108452cfe206"],
  [42, "bench/year0", "2f99227c8a9c9421b843c55f6132f365047dcbc93a344e37725cce1239fdc99c"],
];

describe("the simulated event log is byte-identical to the recorded one", () => {
  it.each(GOLDEN)("seed %i, %s", (seed, repo, digest) => {
    const h = createHash("sha256");
    for (const day of DAYS) h.update(JSON.stringify(simulateDay({ repo, seed, day })));
    expect(h.digest("hex")).toBe(digest);
  });
});
