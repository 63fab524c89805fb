import type { PartnerRow, TerminalRow } from "../../src/store/rows";
import type { Store } from "../../src/store/store";

// Onboarded rows a test changes mid-scenario (a partner suspended, a connection switched off, a
// rate changed), each read and written back through the store's named operations in one unit of
// work, as an operator's seed would (issue 18: tests never write SQL).

/** Applies `patch` to every partner, or to the one named. */
export async function editPartners(store: Store, patch: Partial<PartnerRow>, id?: string): Promise<void> {
  await store.write(async (tx) => {
    const partners = id === undefined ? await tx.partners.list() : [await tx.partners.get(id)];
    for (const p of partners) {
      if (p === undefined) throw new Error(`no partner ${id}`);
      await tx.partners.upsert({ ...p, ...patch });
    }
  });
}

/** Applies `patch` to one terminal. */
export async function editTerminal(store: Store, id: string, patch: Partial<TerminalRow>): Promise<void> {
  await store.write(async (tx) => {
    const t = await tx.catalog.terminal(id);
    if (t === undefined) throw new Error(`no terminal ${id}`);
    await tx.catalog.upsertTerminal({ ...t, ...patch });
  });
}

/** Switches every connection on or off. */
export async function setConnectionsActive(store: Store, active: boolean): Promise<void> {
  await store.write(async (tx) => {
    for (const c of await tx.catalog.connections()) await tx.catalog.upsertConnection({ ...c, active });
  });
}

/** Switches every PSP on or off. */
export async function setPspsActive(store: Store, active: boolean): Promise<void> {
  await store.write(async (tx) => {
    for (const p of await tx.fixtures.psps()) await tx.catalog.upsertPsp({ ...p, active });
  });
}
