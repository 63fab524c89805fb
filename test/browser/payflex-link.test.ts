import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { ensureChromium } from "./setup";
import { startKasa, startShop, type Kasa, type Shop } from "./servers";

// Issue 35 acceptance: a link payment on the sandbox's T-7001 (VakıfBank PayFlex) in real headless
// Chromium, once: kasa's relay page posts to the simulated issuer ACS, the buyer types the code,
// the ACS posts to the MPI's TermUrl, the MPI's page posts the unsigned callback to kasa, and kasa's
// own Sale captures. No page's CSP is violated on the way.

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

describe.runIf(chromium.ok)("issue 35: a PayFlex link payment in headless Chromium", () => {
  let kasa: Kasa;
  let shop: Shop;
  let dir: string;

  beforeAll(async () => {
    [kasa, shop] = await Promise.all([startKasa(), startShop()]);
    dir = mkdtempSync(join(tmpdir(), "kasa-chromium-payflex-"));
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

  it("T-7001: the link is paid through the MPI, the ACS and kasa's Sale: the success URL, one Sale", async () => {
    const pw = await import("playwright-core");
    const link = await api("POST", "/v1/payment-links", { terminalId: "T-7001", amount: 45_600, redirectUrl: `${shop.origin}/orders/42` });
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
      await page.waitForURL(/\/sim-payflex\/acs\/auth$/);
      await page.locator('input[name="otp"]').fill("123456");
      await page.getByRole("button", { name: "Onayla" }).click();
      await page.waitForURL(`${shop.origin}/orders/42/payment/success`);
      expect(cspViolations).toEqual([]);
      expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
      const calls = (await (await fetch(`${kasa.baseUrl}/sim-payflex/calls`)).json()).calls as Array<{ kind: string }>;
      expect(calls.map((c) => c.kind)).toEqual(["enrollment", "Sale"]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
