import { describe, expect, it } from "vitest";
import { usersCommand } from "../../cli/commands/users";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store";
import { runJson, seededDb } from "./cli-run";

type User = { id: string; partnerId: string; email: string; role: string; status: string; password?: string };

describe("product 18: kasa users add|list|disable|enable|reset-password", () => {
  it("add prints a one-time password once; list shows the user without it", async () => {
    const db = await seededDb();
    const added = await runJson<User>(usersCommand, [
      "add",
      "--partner",
      "ptn_test",
      "--email",
      "Ali@Example.com",
      "--role",
      "staff",
      "--db",
      db,
    ]);
    expect(added).toMatchObject({ partnerId: "ptn_test", email: "ali@example.com", role: "staff", status: "active" });
    expect(added.password).toMatch(/^[0-9A-Za-z]{20}$/);
    const list = await runJson<User[]>(usersCommand, ["list", "--partner", "ptn_test", "--db", db]);
    expect(list.map((u) => u.email)).toEqual(["ali@example.com"]);
    expect(JSON.stringify(list)).not.toContain(added.password);
  });

  it.each([
    ["a bad role", ["--email", "a@example.com", "--role", "owner"], /role/],
    ["a bad address", ["--email", "not-an-address", "--role", "staff"], /email/],
  ])("add refuses %s", async (_name, args, message) => {
    const db = await seededDb();
    await expect(runJson(usersCommand, ["add", "--partner", "ptn_test", ...args, "--db", db])).rejects.toThrow(message);
  });

  it("one account per address, and an unknown partner is refused", async () => {
    const db = await seededDb();
    await runJson(usersCommand, ["add", "--partner", "ptn_test", "--email", "a@example.com", "--role", "viewer", "--db", db]);
    await expect(
      runJson(usersCommand, ["add", "--partner", "ptn_other", "--email", "A@example.com", "--role", "viewer", "--db", db]),
    ).rejects.toThrow(/this address is taken/);
    await expect(
      runJson(usersCommand, ["add", "--partner", "ptn_nope", "--email", "b@example.com", "--role", "viewer", "--db", db]),
    ).rejects.toThrow(/unknown partner/);
  });

  it("disable, enable and reset-password (a new one-time password)", async () => {
    const db = await seededDb();
    const added = await runJson<User>(usersCommand, [
      "add",
      "--partner",
      "ptn_test",
      "--email",
      "a@example.com",
      "--role",
      "viewer",
      "--db",
      db,
    ]);
    expect((await runJson<User>(usersCommand, ["disable", "a@example.com", "--db", db])).status).toBe("disabled");
    expect((await runJson<User>(usersCommand, ["enable", added.id, "--db", db])).status).toBe("active");
    const reset = await runJson<User>(usersCommand, ["reset-password", "a@example.com", "--db", db]);
    expect(reset.password).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(reset.password).not.toBe(added.password);
  });
});

describe("issue 30: kasa users list shows when the account's last locked source unlocks", () => {
  it("five failures from one source within 15 minutes: lockedUntil is the fifth newest + 15 min; a reset clears it", async () => {
    const db = await seededDb();
    await runJson(usersCommand, ["add", "--partner", "ptn_test", "--email", "a@example.com", "--role", "viewer", "--db", db]);
    const nowMs = Date.now();
    const store = await openSqliteStore(db);
    await store.write(async (tx) => {
      for (let i = 0; i < 6; i++) await tx.loginFailures.insert("a@example.com", "203.0.113.9", nowMs - (6 - i) * 60_000);
      for (let i = 0; i < 4; i++) await tx.loginFailures.insert("a@example.com", "198.51.100.1", nowMs - i * 1000);
    });
    await store.close();
    const locked = await runJson<Array<User & { lockedUntil: string | null }>>(usersCommand, ["list", "--db", db]);
    // The fifth newest of 203.0.113.9 is 5 minutes old; 198.51.100.1 has four, no lock.
    expect(locked[0]?.lockedUntil).toBe(new Date(nowMs - 5 * 60_000 + 15 * 60_000).toISOString());
    await runJson(usersCommand, ["reset-password", "a@example.com", "--db", db]);
    expect((await runJson<Array<User & { lockedUntil: string | null }>>(usersCommand, ["list", "--db", db]))[0]?.lockedUntil).toBeNull();
  });
});
