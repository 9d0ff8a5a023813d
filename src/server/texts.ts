// The abort codes' sentences and the exit reason of a leave event live in src/api/exit-reasons.ts,
// which mq insights reads too (insights must not depend on the server).
export { ABORT_CODE_TEXT, MERGED_REASON, exitReasonOf } from "../api/exit-reasons.js";
