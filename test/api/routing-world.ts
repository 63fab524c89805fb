import type { SeedFile } from "../../src/domain/partners/seed-schema";
import type { Harness } from "../support/harness";
import { seedWith } from "./payments-flow";

// A router and its three members for the routing tests (not a test file itself). Each member has
// a connection of its own on the simulated bank and is the on-us terminal of one demo bank:
//   T-A  vpos-A  Demo Bank A (bonus)    1, 3, 6     foreign cards accepted
//   T-B  vpos-B  Demo Bank B (world)    1, 3
//   T-C  vpos-C  Demo Bank C (maximum)  1, 3, 6, 9  cheapest at 3
// Router T-R lists them in that order; a test replaces what it is about.

export const CARDS = {
  bonus: "4000001100000009",
  world: "4000002200000006",
  maximum: "5400006600000006",
  foreign: "4000005500000006",
  debit: "4000003300000003",
  singleOnly: "4000001200000008",
} as const;

type Terminal = NonNullable<SeedFile["terminals"]>[number];
type Connection = NonNullable<SeedFile["connections"]>[number];
type Routing = NonNullable<Terminal["routing"]>;

const connection = (id: string, over: Partial<Connection> = {}): Connection => ({
  id,
  psp: "psp-1",
  bank: "sim",
  active: true,
  acceptsForeignCards: false,
  ...over,
});

export const memberTerminals = (): Terminal[] => [
  {
    id: "T-A",
    partner: "ptn_test",
    connection: "vpos-A",
    commissionBasis: "gross",
    installments: [1, 3, 6],
    bank: "Demo Bank A",
    rates: [
      { count: 1, rateBps: 200 },
      { count: 3, rateBps: 450 },
      { count: 6, rateBps: 700 },
    ],
  },
  {
    id: "T-B",
    partner: "ptn_test",
    connection: "vpos-B",
    commissionBasis: "gross",
    installments: [1, 3],
    bank: "Demo Bank B",
    rates: [
      { count: 1, rateBps: 150 },
      { count: 3, rateBps: 420 },
    ],
  },
  {
    id: "T-C",
    partner: "ptn_test",
    connection: "vpos-C",
    commissionBasis: "gross",
    installments: [1, 3, 6, 9],
    bank: "Demo Bank C",
    rates: [
      { count: 1, rateBps: 180 },
      { count: 3, rateBps: 300 },
      { count: 6, rateBps: 650 },
      { count: 9, rateBps: 900 },
    ],
  },
];

export const baseRouting = (): Routing => ({ members: ["T-A", "T-B", "T-C"], fallback: ["T-A", "T-B", "T-C"], order: "rules" });

export type WorldOptions = {
  routing?: Partial<Routing>;
  connections?: Record<string, Partial<Connection>>;
  terminals?: Record<string, Partial<Terminal>>;
  psp?: { active: boolean };
};

export function routingSeed(o: WorldOptions = {}): SeedFile {
  const connections = ["vpos-A", "vpos-B", "vpos-C"].map((id) =>
    connection(id, { ...(id === "vpos-A" && { acceptsForeignCards: true }), ...o.connections?.[id] }),
  );
  const terminals = memberTerminals().map((t) => ({ ...t, ...o.terminals?.[t.id] }));
  const router: Terminal = { id: "T-R", partner: "ptn_test", commissionBasis: "gross", routing: { ...baseRouting(), ...o.routing } };
  return seedWith({ connections, terminals: [...terminals, router], psp: o.psp });
}

/** The attempts of a payment as `kasa payments show --json` reads them: member, connection, route. */
export async function attemptsOf(h: Harness, code: string) {
  return (await h.store.q.attempts.byPayment(code)).map((a) => ({
    status: a.status,
    terminalId: a.terminalId,
    connectionId: a.connectionId,
    route: a.route,
  }));
}
