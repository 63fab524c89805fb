import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { seedCommand } from "../../cli/commands/seed";
import { refuseClearBankSecrets } from "../../cli/server";
import { newMasterKeyText, parseMasterKey } from "../../src/store/secret-box";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { payflexSimulatorRoutes } from "../../src/bank/payflex/sim/routes";
import { PAYFLEX_SIM_ACCOUNT, PAYFLEX_SIM_PATHS } from "../../src/bank/payflex/sim/settings";
import { TEST_SEED } from "../support/fixtures";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

// Issue 35: the seed file's `payflex` object (validated, with its path; the password never
// printed) and `kasa connections list|check` (a Search for a fresh id).

const SECRET = "Pf-topsecret-4711";

const payflex = (over: Record<string, unknown> = {}) => ({
  mpiUrl: "https://3dsecure.vakifbank.com.tr:4443/MPIAPI/MPI_Enrollment.aspx",
  vposUrl: "https://onlineodeme.vakifbank.com.tr:4443/VposService/v3/Vposreq.aspx",
  searchUrl: "https://onlineodeme.vakifbank.com.tr:4443/UIService/Search.aspx",
  merchantId: "000000000111111",
  password: SECRET,
  terminalNo: "VP000095",
  merchantType: 0,
  subMerchantId: null,
  timeoutMs: 30000,
  ...over,
});

const withPayflex = (object: unknown, bank = "payflex") => ({
  psps: TEST_SEED.psps,
  connections: [{ id: "vpos-vakif-1", psp: "psp-1", bank, payflex: object }],
});

async function writeSeed(content: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "kasa-payflex-")), "seed.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const REQUIRED = ["mpiUrl", "vposUrl", "searchUrl", "merchantId", "password", "terminalNo"] as const;

describe("issue 35: the seed file's payflex object", () => {
  it("the note's seed object is accepted as it stands, with merchantId kept a string", async () => {
    const db = await seededDb();
    await runJson(seedCommand, [await writeSeed(withPayflex(payflex())), "--db", db]);
    const list = await runJson<Array<Record<string, unknown>>>(connectionsCommand, ["list", "--db", db]);
    expect(JSON.stringify(list)).toContain('"merchantId":"000000000111111"');
  });

  it.each(REQUIRED.map((f) => [f]))("a missing %s is refused with its path", async (field) => {
    const db = await seededDb();
    const { [field]: _dropped, ...rest } = payflex();
    const err = await runError(seedCommand, [await writeSeed(withPayflex(rest)), "--db", db]);
    expect(err.message).toContain(`connections[0].payflex.${field}`);
  });

  it.each([
    ["mpiUrl", "http://bank.example/mpi"],
    ["vposUrl", "https://user:pw@bank.example/vpos"],
    ["merchantId", 111111],
    ["merchantType", 3],
    ["timeoutMs", 50],
    ["unknownKey", "x"],
  ])("%s %s is refused with its path", async (field, value) => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withPayflex(payflex({ [field]: value }))), "--db", db]);
    expect(err.message).toContain("connections[0].payflex");
  });

  it("merchantType 2 without subMerchantId is refused at subMerchantId", async () => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withPayflex(payflex({ merchantType: 2 }))), "--db", db]);
    expect(err.message).toContain("connections[0].payflex.subMerchantId");
  });

  it("an invalid password is named by its path, never shown; a payflex object on a sim connection is refused", async () => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withPayflex(payflex({ password: `has space ${SECRET}` }))), "--db", db]);
    expect(err.message).toContain("connections[0].payflex.password");
    expect(err.message).not.toContain(SECRET);
    expect((await runError(seedCommand, [await writeSeed(withPayflex(payflex(), "sim")), "--db", db])).message).toContain(
      "connections[0].payflex",
    );
  });

  it("kasa connections list shows the settings with the password [redacted], in JSON and in text", async () => {
    const db = await seededDb();
    await runJson(seedCommand, [await writeSeed(withPayflex(payflex())), "--db", db]);
    const json = JSON.stringify(await runJson(connectionsCommand, ["list", "--db", db]));
    const text = await runHuman(connectionsCommand, ["list", "--db", db]);
    for (const out of [json, text]) expect(out).not.toContain(SECRET);
    expect(json).toContain('"password":"[redacted]"');
  });
});

/** The PayFlex simulator's Search on a loopback port, as a bank would serve it. */
async function searchServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const routes = payflexSimulatorRoutes({
    nowMs: () => Date.parse("2026-03-02T09:00:00Z"),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
    gateway: () => {
      throw new Error("not used");
    },
  });
  const search = routes.find((r) => r.path === PAYFLEX_SIM_PATHS.search)!;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(`http://127.0.0.1${PAYFLEX_SIM_PATHS.search}`);
      const answer = (await search.handle({
        req: new Request(url, { method: "POST", body: Buffer.concat(chunks) }),
        url,
        form: null,
        traceId: "t",
      })) as Response;
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${PAYFLEX_SIM_PATHS.search}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("issue 35: kasa connections check on a PayFlex connection", () => {
  it("a Search for a fresh id: answered, credentials accepted or refused (9065), latency; the password never shown", async () => {
    const bank = await searchServer();
    try {
      const db = await seededDb();
      const account = { merchantId: PAYFLEX_SIM_ACCOUNT.merchantId, searchUrl: bank.url };
      await runJson(seedCommand, [
        await writeSeed({
          psps: TEST_SEED.psps,
          connections: [
            { id: "good", psp: "psp-1", bank: "payflex", payflex: payflex({ ...account, password: PAYFLEX_SIM_ACCOUNT.password }) },
            { id: "bad", psp: "psp-1", bank: "payflex", payflex: payflex({ ...account, password: "wrong-password" }) },
          ],
        }),
        "--db",
        db,
      ]);
      const good = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "good", "--db", db]);
      expect(good).toMatchObject({ connectionId: "good", bank: "payflex", answered: true, credentialsAccepted: true });
      expect(typeof good.latencyMs).toBe("number");
      const bad = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "bad", "--db", db]);
      expect(bad).toMatchObject({ answered: true, credentialsAccepted: false });
      expect(process.exitCode).toBe(1);
      process.exitCode = 0;
      expect(JSON.stringify(bad)).not.toContain("wrong-password");
    } finally {
      await bank.close();
    }
  });

  it("a bank that does not answer: answered false, exit 1", async () => {
    const db = await seededDb();
    await runJson(seedCommand, [
      await writeSeed(withPayflex(payflex({ searchUrl: "http://127.0.0.1:9/search", timeoutMs: 500 }))),
      "--db",
      db,
    ]);
    const out = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "vpos-vakif-1", "--db", db]);
    expect(out).toMatchObject({ answered: false, credentialsAccepted: null });
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
  });
});

describe("issue 35: the PayFlex password at rest", () => {
  it("seeded with a master key it is sealed (not in the file or its WAL); serve refuses the connection without a key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasa-payflex-mk-"));
    const key = join(dir, "master.key");
    writeFileSync(key, newMasterKeyText(), { mode: 0o600 });
    const sealed = join(dir, "sealed.db");
    await runJson(seedCommand, [await writeSeed(withPayflex(payflex())), "--db", sealed, "--master-key-file", key]);
    const bytes = [sealed, `${sealed}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString("latin1"))
      .join("");
    expect(bytes.includes(SECRET)).toBe(false);
    const clear = join(dir, "clear.db");
    await runJson(seedCommand, [await writeSeed(withPayflex(payflex())), "--db", clear]);
    const store = await openStore(clear);
    await expect(refuseClearBankSecrets(store, null)).rejects.toThrow(/connection vpos-vakif-1 uses a real bank \(payflex\)/);
    await expect(refuseClearBankSecrets(store, parseMasterKey(readFileSync(key, "utf8")))).resolves.toBeUndefined();
    await store.close();
  });
});
