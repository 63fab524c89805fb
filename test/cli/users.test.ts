import { describe, expect, it } from "vitest";
import { usersCommand } from "../../cli/commands/users";
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
