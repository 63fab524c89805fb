import type { Store } from "../../store/store";
import type { BinRow } from "./types";

// `kasa bins import`: a BIN list already validated whole (bin-csv.ts) is written in ONE unit of
// work, so a list imports entirely or not at all. Rows are upserted by BIN; BINs the list does not
// mention stay as they were.

/** Answers the number of rows written. */
export async function importBins(deps: { store: Store }, rows: readonly BinRow[]): Promise<number> {
  return await deps.store.write(async (tx) => {
    for (const row of rows) await tx.catalog.upsertBin(row);
    return rows.length;
  });
}
