import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { ensureChromium } from "./setup";
import { startKasa, startShop, type Kasa, type Shop } from "./servers";

// Issue 33 acceptance: a link payment on the sandbox's T-5001 (YapıKredi Posnet) in real headless
// Chromium, once: kasa asks the bank for the 3D data (oosRequestData), its relay page posts the
// bank's fields to the Posnet 3D page, which posts straight back to kasa's callback; kasa resolves
// the bank's answer (oosResolveMerchantData) and sends the one charge (oosTranData). No page's CSP
// is violated on the way.

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

describe.runIf(chromium.ok)("issue 33: a Posnet link payment in headless Chromium", () => {
  let kasa: Kasa;
  let shop: Shop;
  let dir: string;

  beforeAll(async () => {
    [kasa, shop] = await Promise.all([startKasa(), startShop()]);
    dir = mkdtempSync(join(tmpdir(), "kasa-chromium-posnet-"));
  });

  afterAll(async () => {
    await kasa?.close();
    await shop?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function api(method: string, path: string, body?: unknown): Promise<{ status: string; url: string; id: string }> {
    const res = await fetch(`${kasa.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO_API_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  }

  it("T-5001: the link is paid through the Posnet 3D page and kasa's three calls: the success URL, one oosTranData", async () => {
    const pw = await import("playwright-core");
    const link = await api("POST", "/v1/payment-links", { terminalId: "T-5001", amount: 45_600, redirectUrl: `${shop.origin}/orders/42` });
    const context = await pw.chromium.launchPersistentContext(dir, {
      executablePath: chromium.ok ? chromium.path : "",
      headless: true,
      args: ARGS,
    });
    try {
      context.setDefaultTimeout(15_000);
      const page = context.pages()[0] ?? (await context.newPage());
      const cspViolations: string[] = [];
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
      await page.goto(link.url);
      await page.locator("#pan").pressSequentially("4000001100000009", { delay: 10 });
      await page.getByRole("radio", { name: /^Tek çekim|^1 taksit/ }).check();
      await page.locator("#expireMonth").fill("12");
      await page.locator("#expireYear").fill("34");
      await page.locator("#cv2").fill("857");
      await page.getByRole("button", { name: "Öde" }).click();
      await page.waitForURL(`${shop.origin}/orders/42/payment/success`);
      expect(cspViolations).toEqual([]);
      expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
      const calls = (await (await fetch(`${kasa.baseUrl}/sim-posnet/calls`)).json()).calls as Array<{ operation: string }>;
      expect(calls.map((c) => c.operation).filter((o) => o === "oosTranData")).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 60_000);
});
