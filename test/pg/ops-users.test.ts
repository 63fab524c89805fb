import { afterEach, describe, expect, it } from "vitest";
import { secretBox } from "../../src/store/secret-box";
import type { AuditRow, PanelUserRow, PartnerRow } from "../../src/store/rows";
import type { PartnersOps } from "../../src/store/store";
import type { LoginFailuresOps, PanelAuditOps, PanelSessionsOps, PanelUsersOps } from "../../src/store/panel-ops";
import { loginFailuresPg } from "../../src/store/postgres/login-failures-pg";
import { partnersPg } from "../../src/store/postgres/partners-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { panelAuditPg, panelSessionsPg, panelUsersPg } from "../../src/store/postgres/users-pg";
import { bothStores, type Both } from "./differential";
import { partnerRow } from "../support/catalog-rows";

// Issue 23: the merchant panel's users, sessions and audit log answer on PostgreSQL as on SQLite.

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

type Ops = { partners: PartnersOps; panelUsers: PanelUsersOps; panelSessions: PanelSessionsOps; panelAudit: PanelAuditOps };

const pgOps = (sql: Pg): Ops => ({
  partners: partnersPg(sql, secretBox(null)),
  panelUsers: panelUsersPg(sql),
  panelSessions: panelSessionsPg(sql),
  panelAudit: panelAuditPg(sql),
});

const partner = (id: string): PartnerRow => ({ ...partnerRow(id, 1), name: id });

const user = (id: string, partnerId: string, email: string, over: Partial<PanelUserRow> = {}): PanelUserRow => ({
  id,
  partnerId,
  email,
  role: "admin",
  passwordHash: "$scrypt$n=16384$x",
  status: "active",
  failedLogins: 0,
  lockedUntilMs: null,
  createdAtMs: 10,
  updatedAtMs: 10,
  ...over,
});

/** Runs the same calls on both stores, after seeding partners and three users, and answers both results. */
async function run<T>(steps: (o: Ops) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  both = await bothStores();
  const seeded = async (o: Ops) => {
    for (const id of ["p-a", "p-b"]) await o.partners.upsert(partner(id));
    await o.panelUsers.insert(user("u-1", "p-b", "zed@b.example"));
    await o.panelUsers.insert(user("u-2", "p-a", "bob@a.example", { role: "viewer", failedLogins: 2 }));
    await o.panelUsers.insert(user("u-3", "p-a", "Ann@a.example", { status: "disabled", lockedUntilMs: 99 }));
    return steps(o);
  };
  const sqlite = await both.sqlite((tx) => seeded(tx));
  const pg = await both.pg((sql) => seeded(pgOps(sql)));
  return { sqlite, pg };
}

describe("product 22: panel operations answer on PostgreSQL as on SQLite", () => {
  it("panelUsers: byEmail, get, list, setStatus, setPassword", async () => {
    const { sqlite, pg } = await run(async ({ panelUsers: u }) => [
      await u.byEmail("bob@a.example"),
      await u.byEmail("nobody@a.example"),
      await u.get("u-3"),
      await u.get("none"),
      await u.list(null),
      await u.list("p-a"),
      await u.list("nobody"),
      await u.setStatus("u-1", "disabled", 20),
      await u.setStatus("none", "disabled", 20),
      await u.get("u-1"),
      await u.setPassword("u-2", "$scrypt$new", 23),
      await u.setPassword("none", "$scrypt$new", 23),
      await u.get("u-2"),
      await u.get("u-1"),
    ]);
    expect(pg).toEqual(sqlite);
    expect((sqlite[4] as PanelUserRow[]).map((x) => x.id)).toEqual(["u-3", "u-2", "u-1"]);
    expect(sqlite.slice(10, 12)).toEqual([true, false]);
    expect(sqlite[12]).toEqual(user("u-2", "p-a", "bob@a.example", { role: "viewer", passwordHash: "$scrypt$new", updatedAtMs: 23 }));
  });

  it("issue 30 loginFailures: insert, since (newest first, limited), remove, clear by source and for all, prune", async () => {
    both = await bothStores();
    const steps = async (f: LoginFailuresOps) => {
      const seqs = [
        await f.insert("a@x.example", "10.0.0.1", 100),
        await f.insert("a@x.example", "10.0.0.2", 200),
        await f.insert("a@x.example", "10.0.0.1", 300),
        await f.insert("b@x.example", "10.0.0.1", 300),
      ];
      const strip = (rows: { ip: string; atMs: number }[]) => rows.map((r) => `${r.ip}@${r.atMs}`);
      const out = [
        strip(await f.since("a@x.example", 0, 10)),
        strip(await f.since("a@x.example", 150, 10)),
        strip(await f.since("a@x.example", 0, 1)),
      ];
      await f.remove(seqs[2] ?? 0);
      out.push(strip(await f.since("a@x.example", 0, 10)));
      await f.clear("a@x.example", "10.0.0.2");
      out.push(strip(await f.since("a@x.example", 0, 10)));
      await f.insert("a@x.example", "10.0.0.3", 400);
      await f.prune(150);
      out.push(strip(await f.since("a@x.example", 0, 10)), strip(await f.since("b@x.example", 0, 10)));
      await f.clear("b@x.example", null);
      out.push(strip(await f.since("b@x.example", 0, 10)));
      return { out, increasing: seqs.every((s, i) => i === 0 || s > (seqs[i - 1] ?? 0)) };
    };
    const sqlite = await both.sqlite((tx) => steps(tx.loginFailures));
    const pg = await both.pg((sql) => steps(loginFailuresPg(sql)));
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual({
      out: [
        ["10.0.0.1@300", "10.0.0.2@200", "10.0.0.1@100"],
        ["10.0.0.1@300", "10.0.0.2@200"],
        ["10.0.0.1@300"],
        ["10.0.0.2@200", "10.0.0.1@100"],
        ["10.0.0.1@100"],
        ["10.0.0.3@400"],
        ["10.0.0.1@300"],
        [],
      ],
      increasing: true,
    });
  });

  it("panelSessions: insert, get, touch, remove, removeForUser", async () => {
    const session = (idHash: string, userId: string) => ({
      idHash,
      userId,
      csrfToken: `csrf-${idHash}`,
      createdAtMs: 30,
      lastSeenAtMs: 30,
    });
    const { sqlite, pg } = await run(async ({ panelSessions: s }) => [
      await s.insert(session("h-1", "u-1")),
      await s.insert(session("h-2", "u-2")),
      await s.insert(session("h-3", "u-2")),
      await s.get("h-1"),
      await s.get("none"),
      await s.touch("h-1", 40),
      await s.touch("none", 40),
      await s.get("h-1"),
      await s.remove("h-1"),
      await s.remove("h-1"),
      await s.removeForUser("u-2"),
      await s.removeForUser("u-2"),
      await s.get("h-2"),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(3, 13)).toEqual([
      session("h-1", "u-1"),
      undefined,
      { changes: 1 },
      { changes: 0 },
      { ...session("h-1", "u-1"), lastSeenAtMs: 40 },
      true,
      false,
      2,
      0,
      undefined,
    ]);
  });

  it("panelAudit: insert numbers rows, page is newest first and keyset-paged", async () => {
    const audit = (partnerId: string, atMs: number, over: Partial<AuditRow> = {}): AuditRow => ({
      partnerId,
      atMs,
      userId: "u-2",
      email: "bob@a.example",
      action: "login",
      target: null,
      outcome: "ok",
      ip: "127.0.0.1",
      ...over,
    });
    const { sqlite, pg } = await run(async ({ panelAudit: a }) => {
      await a.insert(audit("p-a", 1));
      await a.insert(audit("p-b", 2));
      await a.insert(audit("p-a", 3, { userId: null, email: "who@x.example", outcome: "bad_credentials" }));
      await a.insert(audit("p-a", 4, { action: "refund", target: "PAY-1" }));
      return [await a.page("p-a", null, 2), await a.page("p-a", 3, 10), await a.page("p-a", 1, 10), await a.page("p-c", null, 5)];
    });
    expect(pg).toEqual(sqlite);
    expect((sqlite[0] as AuditRow[]).map((r) => r.seq)).toEqual([4, 3]);
    expect(sqlite[1]).toEqual([{ seq: 1, ...audit("p-a", 1) }]);
    expect(sqlite.slice(2)).toEqual([[], []]);
  });
});
