import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../src/domain/partners/demo-seed";
import { ensureChromium } from "./setup";
import { startKasa, startShop, type Kasa, type Shop } from "./servers";

// Issue 9 acceptance: the hosted link pages in real headless Chromium (Debian's, driven by
// playwright-core), served over real HTTP by h3's `serve`, paying through the simulated bank.
// Screenshots of every page go to test/artifacts/ (gitignored).

const chromium = await ensureChromium();
if (!chromium.ok) {
  process.stderr.write(`[browser tests] NOT RUN: Chromium could not be installed: ${chromium.reason}\n`);
}

const ARTIFACTS = join(process.cwd(), "test", "artifacts");
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
const CARD = "4000001100000009";
const STEP_MS = 15_000;

type Pw = typeof import("playwright-core");
type Context = Awaited<ReturnType<Pw["chromium"]["launchPersistentContext"]>>;
type Page = Context["pages"] extends () => (infer P)[] ? P : never;

describe.runIf(chromium.ok)("issue 9 / product 7 link pages in headless Chromium", () => {
  let kasa: Kasa;
  let shop: Shop;
  let pw: Pw;
  const profiles: string[] = [];
  const contexts: Context[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    pw = await import("playwright-core");
    [kasa, shop] = await Promise.all([startKasa(), startShop()]);
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await kasa?.close();
    await shop?.close();
    for (const dir of profiles) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh browser profile per test: nothing carried over between flows. */
  async function browse(javaScriptEnabled = true): Promise<{ page: Page; cspViolations: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), "kasa-chromium-"));
    profiles.push(dir);
    const context = await pw.chromium.launchPersistentContext(dir, {
      executablePath: chromium.ok ? chromium.path : "",
      headless: true,
      args: ARGS,
      javaScriptEnabled,
      viewport: { width: 480, height: 900 },
    });
    contexts.push(context);
    context.setDefaultTimeout(STEP_MS);
    const page = context.pages()[0] ?? (await context.newPage());
    const cspViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    return { page, cspViolations };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `link-${name}.png`), fullPage: true });

  async function api(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${kasa.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEMO_API_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  }

  const createLink = (over: Record<string, unknown> = {}) =>
    api("POST", "/v1/payment-links", {
      amount: 123_456,
      terminalId: "T-1001",
      customerCommissionShareBps: 10_000,
      description: "Sipariş 42",
      payerName: "Şükrü Çağlar",
      items: [
        { name: "Çay seti", note: "6 bardak", amount: 100_000 },
        { name: "Kargo", amount: 23_456 },
      ],
      redirectUrl: `${shop.origin}/orders/42`,
      ...over,
    });

  /** The one-page form: type the number, wait for the live table, pick a count, fill the rest, pay. */
  async function payWithScript(page: Page, link: { url: string }, count: number, name: string): Promise<void> {
    await page.goto(link.url);
    expect(await page.locator("#bin-form").isHidden()).toBe(true);
    await shot(page, `${name}-1-open`);
    await page.locator("#pan").pressSequentially(CARD, { delay: 10 });
    const option = page.getByRole("radio", { name: new RegExp(`^${count} taksit`) });
    await option.check();
    await page.locator("#expireMonth").fill("12");
    await page.locator("#expireYear").fill("34");
    await page.locator("#cv2").fill("857");
    await shot(page, `${name}-2-options`);
    await page.getByRole("button", { name: "Öde" }).click();
    await page.waitForURL(/\/sim-bank\/acs$/);
    await shot(page, `${name}-3-acs`);
  }

  async function answerAcs(page: Page, otp: string, outcome: "success" | "failure", name: string): Promise<void> {
    await page.locator("#otp").fill(otp);
    await page.getByRole("button", { name: "Onayla" }).click();
    await page.waitForURL(`${shop.origin}/orders/42/payment/${outcome}`);
    await shot(page, `${name}-4-${outcome}`);
  }

  it("open a link, type the card, pick 3 installments on the live table, pay through the sim bank: the success URL", async () => {
    const link = await createLink();
    const { page, cspViolations } = await browse();
    const quoted = await (
      await fetch(`${kasa.baseUrl}/l/${link.token}/options`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ bin: CARD.slice(0, 8) }),
      })
    ).json();
    const total = quoted.options.find((o: { installmentCount: number }) => o.installmentCount === 3).totalAmount as number;

    await payWithScript(page, link, 3, "js");
    const shown = await page.locator("main").innerText();
    expect(shown).toContain("3 taksit");
    expect(shown).toContain("400000******0009");
    await answerAcs(page, "123456", "success", "js");
    expect(await page.locator("#path").innerText()).toBe("/orders/42/payment/success");
    expect(cspViolations).toEqual([]);

    const record = await api("GET", `/v1/payment-links/${link.id}`);
    expect(record.status).toBe("completed");
    expect(record.payerName).toBe("Şükrü Çağlar");
    const payment = await api("GET", `/v1/payments?partnerTxCode=PL-${link.id}-1`);
    expect(payment).toMatchObject({ status: "captured", amount: total, installmentCount: 3 });

    // A completed link says so (200), with nothing left to fill in.
    await page.goto(link.url);
    expect(await page.locator("h1").innerText()).toBe("Bu bağlantı ile ödeme yapıldı");
    expect(await page.locator("form").count()).toBe(0);
    await shot(page, "js-5-completed");
  });

  it("product 17: a link on T-3001 (EST, model 3d) pays through the EST simulator's gate in Chromium: the success URL", async () => {
    const link = await createLink({ terminalId: "T-3001", amount: 45_600, customerCommissionShareBps: 0, items: null });
    const { page, cspViolations } = await browse();
    await page.goto(link.url);
    await page.locator("#pan").pressSequentially(CARD, { delay: 10 });
    await page.getByRole("radio", { name: /^Tek çekim|^1 taksit/ }).check();
    await page.locator("#expireMonth").fill("12");
    await page.locator("#expireYear").fill("34");
    await page.locator("#cv2").fill("857");
    await page.getByRole("button", { name: "Öde" }).click();
    // The relay page posts to the gate, whose page posts the ISO-8859-9 callback back to kasa.
    await page.waitForURL(`${shop.origin}/orders/42/payment/success`);
    await shot(page, "est-success");
    expect(cspViolations).toEqual([]);
    expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
    const payment = await api("GET", `/v1/payments?partnerTxCode=PL-${link.id}-1`);
    expect(payment).toMatchObject({ status: "captured", amount: 45_600 });
    const calls = (await (await fetch(`${kasa.baseUrl}/sim-est/calls`)).json()).calls as Array<{ type: string }>;
    expect(calls.filter((c) => c.type === "Auth")).toHaveLength(1);
  });

  it("a failed attempt (wrong one-time code), then a successful one by keyboard alone", async () => {
    const link = await createLink();
    const { page, cspViolations } = await browse();
    await payWithScript(page, link, 3, "retry");
    await answerAcs(page, "000000", "failure", "retry");
    expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("failed");

    await page.goto(link.url);
    expect(await page.locator("body").innerText()).toContain("Şü*** Ça****");
    // Keyboard only: the card number is the first stop; the radio group one stop; Enter pays.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("pan");
    const focusRing = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    expect(focusRing).toBe("solid");
    await page.keyboard.type(CARD, { delay: 10 });
    await page.getByRole("radio", { name: /^3 taksit/ }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("1");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe("3");
    for (const value of ["12", "34", "857"]) {
      await page.keyboard.press("Tab");
      await page.keyboard.type(value);
    }
    await shot(page, "retry-5-keyboard");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/sim-bank\/acs$/);
    await answerAcs(page, "123456", "success", "retry-again");
    expect(cspViolations).toEqual([]);

    expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
    expect(await api("GET", `/v1/payments?partnerTxCode=PL-${link.id}-2`)).toMatchObject({ status: "captured", installmentCount: 3 });
  });

  it("without JavaScript: the steps, the bank form's button, and the hosted result page", async () => {
    const link = await createLink({ redirectUrl: null });
    const { page, cspViolations } = await browse(false);
    await page.goto(link.url);
    await page.getByLabel("Kart numaranızın ilk 8 hanesi").fill(CARD.slice(0, 8));
    await page.getByRole("button", { name: "Taksit seçeneklerini göster" }).click();
    await page.getByRole("radio", { name: /^3 taksit/ }).check();
    await shot(page, "nojs-1-options");
    await page.getByRole("button", { name: "Devam" }).click();
    await page.getByLabel("Kart numarası").fill(CARD);
    await page.getByLabel("Son kullanma ayı").fill("12");
    await page.getByLabel("Son kullanma yılı").fill("34");
    await page.getByLabel("Güvenlik kodu").fill("857");
    await shot(page, "nojs-2-card");
    await page.getByRole("button", { name: "Öde" }).click();
    await page.getByRole("button", { name: "Bankaya devam et" }).click();
    await page.waitForURL(/\/sim-bank\/acs$/);
    await page.locator("#otp").fill("123456");
    await page.getByRole("button", { name: "Onayla" }).click();
    await page.waitForURL(new RegExp(`/l/${link.token}/result\\?paymentCode=`));
    expect(await page.locator("h1").innerText()).toBe("Ödemeniz alındı");
    await shot(page, "nojs-3-result");
    expect(cspViolations).toEqual([]);
    expect((await api("GET", `/v1/payment-links/${link.id}`)).status).toBe("completed");
  });

  it("text colours meet WCAG AA contrast on the link page", async () => {
    const link = await createLink();
    const { page } = await browse();
    await page.goto(link.url);
    const ratios = await page.evaluate(() => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = ([r, g, b]: number[]) => {
        const f = (byte: number) => {
          const v = byte / 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
      };
      const bg = lum(rgb(getComputedStyle(document.querySelector("main")!).backgroundColor));
      return [...document.querySelectorAll("main p, main dt, main dd, main label, main td, main th")].map((el) => {
        const fg = lum(rgb(getComputedStyle(el).color));
        return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      });
    });
    expect(ratios.length).toBeGreaterThan(5);
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(4.5);
  });
});
