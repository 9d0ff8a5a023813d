// CI: the checks of a train car (whether they pass, fail or time out, and how long they run), the
// retries CI Insights makes of flaky jobs, and the day's CI issues.
import { DAY, HOUR, MIN, iso } from "./days.js";
import { CHECK_NAMES, type Abort, type Emission } from "./emission.js";
import type { Car, Failing, Lane, Session } from "./model.js";
import type { SimDay } from "./shape.js";

export class Ci {
  constructor(
    private readonly day: SimDay,
    private readonly out: Emission,
  ) {}

  /** a car's checks start at `start` for these sessions: their outcome and length are drawn now */
  startCar(lane: Lane, sessions: Session[], start: number, reason: string): Car {
    const day = this.day;
    const rng = day.rng;
    const q = lane.queue;
    const outcome: Car["outcome"] = rng.chance(q.failureRate) ? (rng.chance(0.2) ? "timeout" : "failure") : "success";
    const dur = outcome === "timeout" ? q.timeoutMs : Math.min(q.timeoutMs - MIN, Math.max(3 * MIN, rng.logNormal(q.ciMedianMs, 0.35)));
    const car: Car = {
      sessions,
      start,
      startIso: day.factsOnly ? "" : iso(start),
      end: start + dur,
      id: day.factsOnly ? (day.skipUuid(), "") : rng.uuid(),
      number: sessions.length === 1 ? sessions[0]!.pr : ++day.draftCounter,
      outcome,
    };
    this.out.checksStart(lane, car, reason);
    return car;
  }

  /** a half of a bisected batch: its checks run again, as long as a run of the queue takes (its outcome is the culprit's) */
  bisectionCar(lane: Lane, sessions: Session[], start: number): Car {
    const q = lane.queue;
    const sub = this.startCar(lane, sessions, start, "Batch bisection");
    sub.end = sub.start + Math.min(q.timeoutMs - MIN, Math.max(3 * MIN, this.day.rng.logNormal(q.ciMedianMs, 0.3)));
    return sub;
  }

  /** a car's checks end at `at` (or are cut short: `abort`) */
  endCar(lane: Lane, car: Car, at: number, conclusion: string, abort: Abort | null, failing: Failing | null): void {
    for (const s of car.sessions) {
      s.lastRun = car.id;
      s.lastRunEnd = at;
    }
    this.out.checksEnd(lane, car, at, conclusion, abort, failing);
  }

  /** which check failed a failed car */
  failingCheck(car: Car): Failing {
    const state = car.outcome === "timeout" ? "timed_out" : "failure";
    return { state, check: this.day.rng.pick(CHECK_NAMES) };
  }

  /** CI Insights retries a flaky job of a single pull request's failed run, more often than not */
  jobRetried(s: Session, at: number, failing: Failing): void {
    const rng = this.day.rng;
    const q = s.lane.queue;
    if (rng.chance(0.6)) {
      this.out.emit(at, "ci_insights.job_retried", s.pr, s.lane.base, "CI Insights", {
        rule_id: "5f0c6a1e-8d3b-4c1e-9f4a-2b7d9e1c3a55",
        rule_name: "Retry flaky jobs",
        max_retry: q.maxRetries,
        retry_mode: rng.chance(0.8) ? "job" : "pipeline",
        retry_attempt: s.retry + 1,
        condition_matches: [{ type: "log_pattern", pattern: "ECONNRESET", job_name: failing.check }],
      });
    }
  }

  /** the day's CI issues (flaky tests found by CI Insights): after everything else, drawing only for themselves */
  makeCiIssues(): void {
    const day = this.day;
    const rng = day.rng;
    const out = this.out;
    let issueId = 1 + (((day.day % 100_000) + 100_000) % 100_000) * 100;
    const n = Math.min(99, rng.poisson(2));
    for (let k = 0; k < n; k++) {
      const id = ++issueId;
      const t = day.startMs + rng.int(0, DAY / 1000 - 1) * 1000;
      const name = `Flaky test: ${rng.pick(["test_checkout", "test_login", "e2e/cart.spec.ts", "TestQueueOrder"])}`;
      const meta = { ci_issue_id: id, name };
      out.emit(t, "ci_issue.created", null, null, "CI Insights", meta);
      if (rng.chance(0.7)) {
        // one of the day's last pull requests (or its first, on a day of fewer), on its own base branch
        const at = t + rng.int(1, 120) * MIN;
        const pr = Math.max(day.firstPr, day.prCounter - rng.int(0, 50));
        if (pr <= day.prCounter) out.emit(at, "ci_issue.linked", pr, day.prBases[pr - day.firstPr]!, "CI Insights", meta);
      }
      if (rng.chance(0.1))
        out.emit(t + rng.int(1, 60) * MIN, "ci_issue.renamed", null, null, "CI Insights", { ...meta, name: `${name} (renamed)` });
      if (rng.chance(0.05)) out.emit(t + rng.int(60, 600) * MIN, "ci_issue.merged", null, null, "CI Insights", { ...meta, into: id - 1 });
      if (rng.chance(0.5)) {
        const r = t + rng.int(2, 12) * HOUR;
        out.emit(r, "ci_issue.resolved", null, null, "CI Insights", meta);
        if (rng.chance(0.15)) out.emit(r + rng.int(1, 8) * HOUR, "ci_issue.reopened", null, null, "CI Insights", meta);
      } else if (rng.chance(0.1)) {
        out.emit(t + rng.int(2, 12) * HOUR, "ci_issue.unresolved", null, null, "CI Insights", meta);
      }
    }
  }
}
