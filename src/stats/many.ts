// `mq stats <endpoint> --repo a/b,c/d`: one row per repository (its figure over all its groups, as
// the "all groups" row of one repository's table) and a total over all of them, computed from the
// records pooled across repositories by each field's rule: counts and sums add, extremes combine,
// rates come from their summed counts, averages from Σsum / Σcount. A figure the API sends without
// what it takes to combine it (an average without its count, a percentile) has no total: it is
// null with the reason, never an average of averages. Pure: the command fetches, this combines.
import { mergeIntervals, totalUnavailable, windowValue } from "./aggregate.js";
import { findStatsEndpoint, type StatsEndpoint } from "./endpoints.js";
import {
  judge,
  statsTargets,
  totalCovers,
  type FailIfExpr,
  type GateOptions,
  type GateScope,
  type Target,
  type Verdict,
} from "./fail-if.js";
import type { KeyValue } from "./series.js";
import { SUMMARY_SOURCES, summaryFigures, type SummaryFigureName } from "./summary.js";

type Rec = Readonly<Record<string, unknown>>;

/** One repository's response. */
export interface RepoBody {
  repository: string;
  body: unknown;
}

/** A row: a repository's figures (or the total's, `repository` null) for one part of the response. */
export interface ManyRow {
  /** null for the total */
  repository: string | null;
  /** the part: bisection section and/or check outcome or exit reason; empty for most endpoints */
  keys: Array<[string, KeyValue]>;
  /** each field's value over the window (null: no value, or no exact total) */
  values: Record<string, number | null>;
  /** the fields without an exact value over the parts combined (groups, repositories), and why */
  unavailable: Record<string, string>;
}

export interface ManyStats {
  rows: ManyRow[];
  total: ManyRow[];
}

interface Part {
  keys: Array<[string, KeyValue]>;
  /** records of each repository (by index), flat as sent */
  byRepo: Map<number, Rec[]>;
  /** the fields this part carries (a bisection section has its own) */
  fields: Set<string>;
  /** per repository, the fields its groups do not combine into (statsTargets' "all"), and why */
  whyByRepo: Map<number, Record<string, string>>;
}

function parts(endpoint: StatsEndpoint, repos: readonly RepoBody[]): Part[] {
  const out = new Map<string, Part>();
  repos.forEach((r, i) => {
    for (const field of endpoint.fields) {
      for (const t of statsTargets(endpoint, r.body, field, "all")) {
        const id = JSON.stringify(t.keys);
        let part = out.get(id);
        if (!part) out.set(id, (part = { keys: t.keys, byRepo: new Map(), fields: new Set(), whyByRepo: new Map() }));
        part.fields.add(field);
        if (t.unavailable !== undefined) part.whyByRepo.set(i, { ...part.whyByRepo.get(i), [field]: t.unavailable });
        // every field of a part sees the same records: set them once per repository
        if (!part.byRepo.has(i)) part.byRepo.set(i, [...(t.flat ?? t.records)]);
      }
    }
  });
  return [...out.values()];
}

/** The per-repository rows and the total rows of an endpoint's responses (not time-to-merge, not lists). */
export function combineRepos(endpoint: StatsEndpoint, repos: readonly RepoBody[]): ManyStats {
  const all = parts(endpoint, repos);
  const rows: ManyRow[] = [];
  repos.forEach((r, i) => {
    for (const part of all) {
      const records = part.byRepo.get(i);
      if (!records) continue;
      const values: Record<string, number | null> = {};
      // a repository's row is its "all groups": the same rule, n/a where its groups do not combine
      const unavailable = part.whyByRepo.get(i) ?? {};
      for (const f of endpoint.fields) if (part.fields.has(f)) values[f] = unavailable[f] ? null : (windowValue(f, records) ?? null);
      rows.push({ repository: r.repository, keys: part.keys, values, unavailable });
    }
  });
  const total = all.map((part) => {
    const pooled = [...part.byRepo.values()].flat();
    const values: Record<string, number | null> = {};
    const unavailable: Record<string, string> = {};
    for (const f of endpoint.fields) {
      if (!part.fields.has(f)) continue;
      const why = totalUnavailable(f, pooled);
      if (why) unavailable[f] = why;
      values[f] = why ? null : (windowValue(f, pooled) ?? null);
    }
    return { repository: null, keys: part.keys, values, unavailable };
  });
  return { rows, total };
}

/** Every field without an exact total (or repository row), with its reason (the first one's wording), once each. */
export function unavailableTotals(m: ManyStats): Array<[string, string]> {
  const out = new Map<string, string>();
  for (const t of [...m.total, ...m.rows]) for (const [f, why] of Object.entries(t.unavailable)) if (!out.has(f)) out.set(f, why);
  return [...out];
}

/**
 * --fail-if over several repositories: `each` judges every repository (all its groups), `all` the
 * total, `both` both. A total without an exact value is a check that cannot be judged: it fails
 * unless --allow-empty, as a check that found no data does.
 */
export function manyTargets(
  endpoint: StatsEndpoint,
  repos: readonly RepoBody[],
  field: string,
  scope: GateScope,
  failed: readonly string[] = [],
): Target[] {
  const all = parts(endpoint, repos).filter((p) => p.fields.has(field));
  const out: Target[] = [];
  if (scope !== "all") {
    repos.forEach((r, i) => {
      for (const part of all) {
        const flat = part.byRepo.get(i);
        if (!flat) continue;
        const unavailable = part.whyByRepo.get(i)?.[field];
        out.push({
          scope: "each",
          keys: [["repository", r.repository], ...part.keys],
          records: mergeIntervals(flat),
          flat,
          ...(unavailable !== undefined ? { unavailable } : {}),
        });
      }
    });
  }
  if (scope !== "each") {
    for (const part of all) {
      const flat = [...part.byRepo.values()].flat();
      out.push({
        scope: "all",
        over: totalCovers(repos.length, failed),
        keys: part.keys,
        records: mergeIntervals(flat),
        flat,
        unavailable: totalUnavailable(field, flat),
      });
    }
  }
  return out;
}

export function judgeMany(
  exprs: readonly FailIfExpr[],
  endpoint: StatsEndpoint,
  repos: readonly RepoBody[],
  scope: GateScope,
  opts: GateOptions = {},
  failed: readonly string[] = [],
): Verdict[] {
  return exprs.flatMap((expr) =>
    judge(expr, manyTargets(endpoint, repos, expr.field, scope, failed), { sample: endpoint.sample, ...opts }),
  );
}

// ---------------------------------------------------------------------------------------------
// mq stats summary --repo a/b,c/d: each headline figure per repository, and its total from the
// records of the endpoint it comes from, pooled as above

/** One repository's responses to the summary's endpoints (keyed by endpoint name). */
export interface RepoBodies {
  repository: string;
  bodies: ReadonlyMap<string, unknown>;
}

export interface SummaryMany {
  rows: Array<{ repository: string; figures: Record<SummaryFigureName, number | null> }>;
  total: Record<SummaryFigureName, number | null>;
  /** the figures without an exact total, and why */
  unavailable: Partial<Record<SummaryFigureName, string>>;
}

function sourceOf(name: SummaryFigureName): [StatsEndpoint, string] {
  const [endpointName, field] = SUMMARY_SOURCES[name];
  return [findStatsEndpoint(endpointName)!, field];
}

function bodiesOf(repos: readonly RepoBodies[], endpoint: StatsEndpoint): RepoBody[] {
  return repos.map((r) => ({ repository: r.repository, body: r.bodies.get(endpoint.name) }));
}

export function combineSummaries(repos: readonly RepoBodies[]): SummaryMany {
  const total = {} as Record<SummaryFigureName, number | null>;
  const unavailable: SummaryMany["unavailable"] = {};
  for (const name of Object.keys(SUMMARY_SOURCES) as SummaryFigureName[]) {
    const [endpoint, field] = sourceOf(name);
    const [part] = combineRepos(endpoint, bodiesOf(repos, endpoint)).total;
    total[name] = part?.values[field] ?? null;
    const why = part?.unavailable[field];
    if (why) unavailable[name] = why;
  }
  return { rows: repos.map((r) => ({ repository: r.repository, figures: summaryFigures(r.bodies) })), total, unavailable };
}

export function judgeSummaryMany(
  exprs: readonly FailIfExpr[],
  repos: readonly RepoBodies[],
  scope: GateScope,
  opts: GateOptions = {},
  failed: readonly string[] = [],
): Verdict[] {
  return exprs.flatMap((expr) => {
    const [endpoint, field] = sourceOf(expr.field as SummaryFigureName);
    return judge(expr, manyTargets(endpoint, bodiesOf(repos, endpoint), field, scope, failed), {
      sample: endpoint.sample,
      ...opts,
      sourceField: field,
    });
  });
}
