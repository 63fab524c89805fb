import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { ensureChromium } from "./setup";
import { startKasa, startShop, type Kasa, type Shop } from "./servers";

// Issue 34 acceptance, once in real Chromium: a link on T-6001 (AkbankPos, model 3d) pays through
// the AkbankPos simulator's gate; the bank's UTF-8 callback page posts back to kasa under its CSP.

const chromium = await ensureChromium();
if (!chromium.ok) process.stderr.write(`[browser tests] NOT RUN: Chromium could not be installed: ${chromium.reason}\n`);

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

describe.runIf(chromium.ok)("issue 34: an AkbankPos link payment in headless Chromium", () => {
  let kasa: Kasa;
  let shop: Shop;
  let profile = "";

  beforeAll(async () => {
    [kasa, shop] = await Promise.all([startKasa(), startShop()]);
    profile = mkdtempSync(join(tmpdir(), "kasa-chromium-akbank-"));
  });
  afterAll(async () => {
    await kasa?.close();
    await shop?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(`${kasa.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${DEMO_API_KEY}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json() as Promise<Record<string, unknown>>;

  it("a link on T-6001 is paid through the gate and the signed callback: the success URL, one sale", async () => {
    const pw = await import("playwright-core");
    const link = await api("POST", "/v1/payment-links", {
      amount: 45_600,
      terminalId: "T-6001",
      redirectUrl: `${shop.origin}/orders/6001`,
    });
    const context = await pw.chromium.launchPersistentContext(profile, {
      executablePath: chromium.ok ? chromium.path : "",
      headless: true,
      args: ARGS,
      viewport: { width: 480, height: 900 },
    });
    try {
      context.setDefaultTimeout(15_000);
      const page = context.pages()[0] ?? (await context.newPage());
      const cspViolations: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      await page.goto(link.url as string);
      await page.locator("#pan").pressSequentially("4000001100000009", { delay: 10 });
      await page.getByRole("radio", { name: /^Tek çekim|^1 taksit/ }).check();
      await page.locator("#expireMonth").fill("12");
      await page.locator("#expireYear").fill("34");
      await page.locator("#cv2").fill("857");
      await page.getByRole("button", { name: "Öde" }).click();
      await page.waitForURL(`${shop.origin}/orders/6001/payment/success`);
      expect(cspViolations).toEqual([]);
      expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
      const calls = (await (await fetch(`${kasa.baseUrl}/sim-akbank/calls`)).json()).calls as Array<{ txnCode: string }>;
      expect(calls.map((c) => c.txnCode)).toEqual(["1000"]);
    } finally {
      await context.close();
    }
  });
});
