import { FALLBACK_RULE } from "../routing/order";
import type { Repos } from "../../store/store";
import type { SeedFile } from "./seed-schema";

// The checks of a seed file's routers and plain terminals that one field's schema cannot make
// (docs/routing.md, The seed object): which fields each kind may carry, rules naming members,
// and members that are plain terminals of the router's own partner and commission basis.

type SeedTerminal = NonNullable<SeedFile["terminals"]>[number];

/** Only id, partner, active, infrastructure, commissionBasis and routing belong on a router. */
const NOT_ON_A_ROUTER = ["connection", "installments", "rates", "valueDays", "bank", "directCollection", "allowedCardFamilies"] as const;
const REQUIRED_ON_A_TERMINAL = ["connection", "installments", "rates"] as const;

/** Answers `path: rule` for the first terminal that breaks a rule of its kind, or null. */
export function routerShapeError(terminals: readonly SeedTerminal[]): string | null {
  for (const [i, t] of terminals.entries()) {
    const at = `terminals[${i}]`;
    if (!t.routing) {
      const missing = REQUIRED_ON_A_TERMINAL.find((field) => t[field] == null);
      if (missing) return `${at}.${missing}: is required`;
      continue;
    }
    const refused = NOT_ON_A_ROUTER.find((field) => t[field] != null);
    if (refused) return `${at}.${refused}: not allowed on a router (docs/routing.md)`;
    const error = routingError(t.routing, `${at}.routing`);
    if (error) return error;
  }
  return null;
}

function routingError(r: NonNullable<SeedTerminal["routing"]>, at: string): string | null {
  const members = new Set(r.members);
  const notMember = (ids: readonly string[], path: (j: number) => string): string | null => {
    const j = ids.findIndex((id) => !members.has(id));
    return j < 0 ? null : `${path(j)}: "${ids[j]}" is not one of the router's members`;
  };
  const names = new Set<string>();
  for (const [k, rule] of (r.rules ?? []).entries()) {
    const ra = `${at}.rules[${k}]`;
    if (rule.name === FALLBACK_RULE) return `${ra}.name: "${FALLBACK_RULE}" names the fallback order; choose another name`;
    if (names.has(rule.name)) return `${ra}.name: another rule has this name`;
    names.add(rule.name);
    if ((rule.route == null) === (rule.split == null)) return `${ra}.route: give exactly one of route and split`;
    const w = rule.when ?? {};
    if (w.installmentsFrom != null && w.installmentsTo != null && w.installmentsFrom > w.installmentsTo) {
      return `${ra}.when.installmentsFrom: must be <= installmentsTo`;
    }
    if (w.amountFrom != null && w.amountTo != null && w.amountFrom > w.amountTo) return `${ra}.when.amountFrom: must be <= amountTo`;
    const error =
      notMember(rule.route ?? [], (j) => `${ra}.route[${j}]`) ??
      notMember(
        (rule.split ?? []).map((s) => s.terminal),
        (j) => `${ra}.split[${j}].terminal`,
      );
    if (error) return error;
  }
  return notMember(r.fallback ?? [], (j) => `${at}.fallback[${j}]`);
}

/**
 * Members exist (in the file or the store), are not routers, belong to the router's partner and
 * have its commission basis. A terminal the file writes wins over the stored one.
 */
export async function routerReferenceError(tx: Repos, terminals: readonly SeedTerminal[]): Promise<string | null> {
  const inFile = new Map(terminals.map((t) => [t.id, t]));
  for (const [i, t] of terminals.entries()) {
    if (!t.routing) continue;
    const basis = t.commissionBasis ?? "gross";
    for (const [j, memberId] of t.routing.members.entries()) {
      const at = `terminals[${i}].routing.members[${j}]`;
      const member = await memberFacts(tx, inFile, memberId);
      if (!member) return `${at}: unknown terminal "${memberId}"`;
      if (member.router) return `${at}: "${memberId}" is a router; members are plain terminals`;
      if (member.partner !== t.partner) return `${at}: "${memberId}" belongs to another partner`;
      if (member.basis !== basis) return `${at}: "${memberId}" has commissionBasis ${member.basis}, the router ${basis}`;
    }
  }
  return null;
}

type MemberFacts = { partner: string; basis: string; router: boolean; connection: string };

async function memberFacts(tx: Repos, inFile: ReadonlyMap<string, SeedTerminal>, id: string): Promise<MemberFacts | null> {
  const t = inFile.get(id);
  if (t) return { partner: t.partner, basis: t.commissionBasis ?? "gross", router: t.routing != null, connection: t.connection ?? "" };
  const row = await tx.catalog.terminal(id);
  if (!row) return null;
  return { partner: row.partnerId, basis: row.commissionBasis, router: row.routing !== null, connection: row.connectionId };
}

/**
 * The connection a router's row stores: its fallback-first member's. The column is required, so a
 * router names one; routing never reads it (docs/routing.md).
 */
export async function routerConnection(
  tx: Repos,
  terminals: readonly SeedTerminal[],
  t: SeedTerminal & { routing: object },
): Promise<string> {
  const routing = t.routing as NonNullable<SeedTerminal["routing"]>;
  const first = (routing.fallback ?? routing.members)[0] as string;
  const member = await memberFacts(tx, new Map(terminals.map((x) => [x.id, x])), first);
  return member?.connection ?? "";
}
