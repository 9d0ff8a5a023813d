// Archived events held to the shapes of the side of the API that sent them (the `dialect` each
// event row records, db.ts), not to the dialect the reading command is in: an archive may hold a
// repository synced from the real service next to one from the bundled server, and a repository
// synced from both. Each run of events of one dialect in a batch goes through that dialect's page
// check (api/schema/page-check.ts), as a page from the API would.
import type { DialectName } from "../api/dialects/types.js";
import { METADATA_SHAPES_OF, type PageCheck, type PageCheckOptions, pageCheck } from "../api/schema/page-check.js";
import { ContractError } from "../errors.js";

export interface ArchivedEventsCheckOptions {
  strict: boolean;
  /** a metadata mismatch outside strict, with what the event's shapes come from ("the contract", ...) */
  onMetadataMismatch?: (type: string, id: number, message: string, against: string) => void;
  checkMetadataOf?: (type: string) => boolean;
}

/** Checks a batch of archived events (in order), each against its own dialect; throws ContractError as parseEventsPage does. */
export async function archivedEventsCheck(
  opts: ArchivedEventsCheckOptions,
): Promise<(batch: readonly { event: unknown; dialect: DialectName }[]) => Promise<void>> {
  const checks = new Map<DialectName, Promise<PageCheck>>();
  const optionsOf = new Map<DialectName, PageCheckOptions>();
  const options = (dialect: DialectName): PageCheckOptions => {
    let o = optionsOf.get(dialect);
    if (o === undefined) {
      const onMismatch = opts.onMetadataMismatch;
      o = {
        strict: opts.strict,
        checkMetadataOf: opts.checkMetadataOf,
        onMetadataMismatch: onMismatch && ((type, id, message) => onMismatch(type, id, message, METADATA_SHAPES_OF[dialect])),
      };
      optionsOf.set(dialect, o);
    }
    return o;
  };
  return async (batch) => {
    for (let start = 0; start < batch.length; ) {
      const dialect = batch[start]!.dialect;
      let end = start + 1;
      while (end < batch.length && batch[end]!.dialect === dialect) end++;
      const events = batch.slice(start, end).map((b) => b.event);
      let check = checks.get(dialect);
      if (check === undefined) {
        check = pageCheck(dialect);
        checks.set(dialect, check);
      }
      try {
        await (await check)({ size: events.length, per_page: events.length, events }, options(dialect));
      } catch (err) {
        throw err instanceof ContractError ? archivedEventError(err) : err;
      }
      start = end;
    }
  };
}

/**
 * The page check's error said of an archived event: nothing came over the network, and the
 * position is in a batch the reader made up, so the event is named by its id.
 */
function archivedEventError(err: ContractError): ContractError {
  const named = err.message.replace(
    /^response does not match (.+?): events\[\d+\] \(id ([^)]*)\):? ?/,
    "archived event $2 does not match $1: ",
  );
  if (named === err.message) return err;
  return new ContractError(named, err.hint);
}
