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
  [0, "acme/web", "72b2db125c4fd8a39f28a1e606b38ac29d1ae4f4484a98fc167dbaae642b07d3"],
  [7, "acme/api", "e4adfb29bf453b522b65539f963ea02b9948eca4e37c4e778106820e401a4e62"],
  [42, "bench/year0", "a68a2b494ea05c350ea35bd1ace0d12d581e833a3ec558e4847df5d679dfd567"],
];

describe("the simulated event log is byte-identical to the recorded one", () => {
  it.each(GOLDEN)("seed %i, %s", (seed, repo, digest) => {
    const h = createHash("sha256");
    for (const day of DAYS) h.update(JSON.stringify(simulateDay({ repo, seed, day })));
    expect(h.digest("hex")).toBe(digest);
  });
});
