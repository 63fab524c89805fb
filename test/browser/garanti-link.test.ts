import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { startKasa, startShop, type Kasa, type Shop } from "./servers";
import { ensureChromium } from "./setup";

// Issue 31 acceptance, once in real Chromium: a payment link on the sandbox demo's T-4001
// (Garanti, model 3d) pays through the Garanti simulator's gate: the relay page posts the card
// to the gate under kasa's CSP, the gate's page posts the signed callback back, kasa sends one
// `sales` and the browser lands on the shop's success URL.

const chromium = await ensureChromium();
if (!chromium.ok) process.stderr.write(`[browser tests] NOT RUN: Chromium could not be installed: ${chromium.reason}\n`);

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"];

describe.runIf(chromium.ok)("issue 31: a Garanti link payment in headless Chromium", () => {
  let kasa: Kasa;
  let shop: Shop;
  let profile = "";

  beforeAll(async () => {
    [kasa, shop] = await Promise.all([startKasa(), startShop()]);
  });

  afterAll(async () => {
    await kasa?.close();
    await shop?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, body?: unknown): Promise<{ url: string; id: string; status: string }> =>
    (
      await fetch(`${kasa.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${DEMO_API_KEY}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json();

  it("a link on T-4001 is paid through the Garanti gate: the success URL, one sales, no CSP violation", async () => {
    const link = await api("POST", "/v1/payment-links", {
      amount: 45_600,
      terminalId: "T-4001",
      customerCommissionShareBps: 0,
      redirectUrl: `${shop.origin}/orders/42`,
    });
    const pw = await import("playwright-core");
    profile = mkdtempSync(join(tmpdir(), "kasa-chromium-garanti-"));
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
      await page.goto(link.url);
      await page.locator("#pan").pressSequentially("4000001100000009", { delay: 10 });
      await page.getByRole("radio", { name: /^Tek çekim|^1 taksit/ }).check();
      await page.locator("#expireMonth").fill("12");
      await page.locator("#expireYear").fill("34");
      await page.locator("#cv2").fill("857");
      await page.getByRole("button", { name: "Öde" }).click();
      await page.waitForURL(`${shop.origin}/orders/42/payment/success`);
      expect(cspViolations).toEqual([]);
    } finally {
      await context.close();
    }
    expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
    const calls = (await (await fetch(`${kasa.baseUrl}/sim-garanti/calls`)).json()).calls as Array<{ type: string }>;
    expect(calls.map((c) => c.type)).toEqual(["sales"]);
  });
});
