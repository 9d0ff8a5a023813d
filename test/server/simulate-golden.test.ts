// The simulation is deterministic from (seed, repository, day), and the event log it serves must
// not change when the simulation's code does (a faster path for statistics must not move a single
// random draw). These digests were recorded from the simulation as it was before the statistics
// fast path (simulateDayFacts) was added; any change to the events of these days changes them.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { simulateDay } from "../../src/server/simulate/index.js";

// a Thursday, a Friday (its office-hours queue reaches into Monday), a weekend, working days, and
// days decades apart
const DAYS = [20405, 20406, 20407, 20408, 20409, 20410, 20411, 19000, 21000, 0];

const GOLDEN: Array<[number, string, string]> = [
  [0, "acme/web", "cd491f3603c25436d131174ac6c73b761b2ab7de03beaa1ab37495036a79851d"],
  [7, "acme/api", "d5a72963523bc2a25e8cd34e6b942d765a0579a201462390566a74c4411f45ff"],
  [42, "bench/year0", "a1654afbbc61f656b74c8cf04e827d863e8d1cd5645c5acc8472673384c196ae"],
];

describe("the simulated event log is byte-identical to the recorded one", () => {
  it.each(GOLDEN)("seed %i, %s", (seed, repo, digest) => {
    const h = createHash("sha256");
    for (const day of DAYS) h.update(JSON.stringify(simulateDay({ repo, seed, day })));
    expect(h.digest("hex")).toBe(digest);
  });
});
