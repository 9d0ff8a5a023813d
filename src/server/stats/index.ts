// The statistics engine's public face: what the server, the day fold and the tests use.
export { bucketIndex, bucketsFor, intervalFor, MAX_INTERVALS, type Bucket } from "./buckets.js";
export { Sink, type Partials, type RenderOptions, type Slots, type Spec } from "./engine.js";
export { groupKey, type GroupKey, type StatsFilter } from "./keys.js";
export {
  Accumulation,
  computeStats,
  mergePartials,
  partialBytes,
  PartialsPacker,
  PartialsUnpacker,
  renderStats,
  STATS_HANDLERS,
  type PackedPartials,
  type StatsContext,
} from "./accumulate.js";
export { CONTRACT_VIEW, FactAccumulation, type FactView } from "./facts.js";
export { STATS_SPECS, timeToMerge } from "../endpoints/index.js";
