import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PANEL_EMAIL } from "../../src/domain/users/demo";
import { DAY_MS } from "../../src/limits";
import { api, capturedPayment, startPanelKasa, type PanelKasa } from "./panel-servers";
import { ensureChromium } from "./setup";
import { startReceiver, type Receiver } from "../unit/webhooks/receiver";
import { SECRET, setWebhook } from "../unit/webhooks/support";

// Issue 19 acceptance: the merchant panel (product 18) in real headless Chromium (Debian's, driven
// by playwright-core) over real HTTP: log in by keyboard, today's payments, a partial refund after
// day end, a consent agreement accepted, an API key issued and revoked; every page checked by
// axe-core (no serious or critical violation) and walked with the Tab key.

const chromium = await ensureChromium();
if (!chromium.ok) process.stderr.write(`[browser tests] NOT RUN: Chromium could not be installed: ${chromium.reason}\n`);

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
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Pw = typeof import("playwright-core");
type Context = Awaited<ReturnType<Pw["chromium"]["launchPersistentContext"]>>;
type Page = Context["pages"] extends () => (infer P)[] ? P : never;
type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

describe.runIf(chromium.ok)("issue 19 / product 18 merchant panel in headless Chromium", () => {
  let kasa: PanelKasa;
  let pw: Pw;
  let context: Context;
  let page: Page;
  let profile: string;
  const cspViolations: string[] = [];
  let yesterdays: string;
  let todays: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    pw = await import("playwright-core");
    kasa = await startPanelKasa();
    // Yesterday's capture passes its day end, so part of it can be refunded (product 9).
    yesterdays = await capturedPayment(kasa, "PANEL-B-1", 25_000);
    await api(kasa, "POST", "/sandbox/clock", { advanceSeconds: DAY_MS / 1000 });
    todays = await capturedPayment(kasa, "PANEL-B-2", 12_345);
    profile = mkdtempSync(join(tmpdir(), "kasa-chromium-"));
    context = await pw.chromium.launchPersistentContext(profile, {
      executablePath: chromium.ok ? chromium.path : "",
      headless: true,
      args: ARGS,
      viewport: { width: 1024, height: 900 },
    });
    context.setDefaultTimeout(15_000);
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await kasa?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `panel-${name}.png`), fullPage: true });

  /** axe-core run inside the page (through the DevTools protocol, so the page's CSP stays strict). */
  async function seriousViolations(): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    type Result = { violations: Violation[]; passes: unknown[] };
    const result = (await page.evaluate(() => (globalThis as unknown as { axe: { run(): Promise<unknown> } }).axe.run())) as Result;
    expect(result.passes.length, "axe ran its rules").toBeGreaterThan(10);
    const violations = result.violations;
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.help} @ ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }

  /** Every visible control is reached by Tab, in order, and shows a focus outline. */
  async function tabWalk(): Promise<void> {
    const controls = await page
      .locator("a[href], button, input:not([type=hidden]), select, textarea")
      .evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e, i) => ((e as HTMLElement).dataset.tab = String(i))),
      );
    const reached = new Set<string>();
    // Twice round, wherever focus starts: Tab wraps from the last control through the browser.
    for (let i = 0; i < 2 * controls.length + 4 && reached.size < controls.length; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return el ? { tab: el.dataset.tab ?? null, outline: getComputedStyle(el).outlineStyle } : null;
      });
      if (focused?.tab) {
        reached.add(focused.tab);
        expect(focused.outline, `focus ring on control ${focused.tab}`).not.toBe("none");
      }
    }
    expect([...reached].sort()).toEqual(controls.map(String).sort());
  }

  async function checkPage(name: string): Promise<void> {
    await shot(name);
    expect(await seriousViolations(), name).toEqual([]);
    await tabWalk();
  }

  it("logs in by keyboard alone and sees today's payments on the overview and the list", async () => {
    await page.goto(`${kasa.baseUrl}/panel/`);
    expect(page.url()).toBe(`${kasa.baseUrl}/panel/login`);
    await checkPage("login");
    // A fresh page, so the first Tab lands on the first field, as for a person arriving there.
    await page.goto(`${kasa.baseUrl}/panel/login`);
    await page.keyboard.press("Tab");
    await page.keyboard.type(DEMO_PANEL_EMAIL);
    await page.keyboard.press("Tab");
    await page.keyboard.type(kasa.password);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${kasa.baseUrl}/panel/`);
    expect(await page.locator("#today-count").innerText()).toBe("1");
    expect(await page.locator("#today-sum").innerText()).toBe("123,45 TL");
    await checkPage("overview");
    await page.getByRole("link", { name: "Ödemeler", exact: true }).click();
    await page.getByRole("link", { name: "Bugünün ödemeleri" }).click();
    const list = await page.locator("main").innerText();
    expect(list).toContain(todays);
    expect(list).not.toContain(yesterdays);
    await checkPage("payments");
  });

  it("opens yesterday's payment and refunds part of it", async () => {
    await page.goto(`${kasa.baseUrl}/panel/payments?q=PANEL-B-1`);
    await page.getByRole("link", { name: yesterdays }).click();
    await checkPage("payment");
    await page.getByLabel(/^Tutar/).fill("50,00");
    await page.getByRole("button", { name: "İade et" }).press("Enter");
    await page.waitForURL(`${kasa.baseUrl}/panel/payments/${yesterdays}`);
    const refunds = await page.locator("main").innerText();
    expect(refunds).toContain("50,00 TL");
    expect((await api(kasa, "GET", `/v1/payments/${yesterdays}`)).json.refunds.map((r: { amount: number }) => r.amount)).toEqual([5_000]);
    await shot("payment-refunded");
  });

  it("a refund above the remainder is a clear page with the code", async () => {
    await page.goto(`${kasa.baseUrl}/panel/payments/${yesterdays}`);
    await page.getByLabel(/^Tutar/).fill("999,00");
    await page.getByRole("button", { name: "İade et" }).click();
    expect(await page.locator("main").innerText()).toContain("refund_amount_exceeds_remaining");
    await checkPage("refund-refused");
  });

  it("accepts a consent agreement and sees the hold lifted", async () => {
    // Registered only now: its hold would also block the refunds above (product 10).
    await kasa.runtime.deps.store.write(
      async (tx) =>
        await tx.acceptance.upsertAgreement({
          partnerId: "ptn_demo",
          agreementCode: "KVKK",
          version: "3",
          agreementName: "Aydınlatma metni",
          requirement: "consent",
          kind: "renewal",
          deadlineAtMs: kasa.runtime.deps.clock.nowMs() - 60_000,
          acceptedAtMs: null,
          createdAtMs: kasa.runtime.deps.clock.nowMs() - 120_000,
        }),
    );
    expect((await api(kasa, "GET", "/v1/payment-acceptance")).json.acceptingPayments).toBe(false);
    await page.goto(`${kasa.baseUrl}/panel/acceptance`);
    expect(await page.locator("#accepting").innerText()).toContain("kabul etmiyor");
    await checkPage("acceptance");
    await page.getByRole("button", { name: /Onayla: Aydınlatma metni/ }).click();
    expect(await page.locator("#accepting").innerText()).toBe("Hesap ödeme kabul ediyor.");
    expect((await api(kasa, "GET", "/v1/payment-acceptance")).json.acceptingPayments).toBe(true);
  });

  it("issues an API key (shown once) and revokes it: the revoked key gets 401 on its next request", async () => {
    await page.goto(`${kasa.baseUrl}/panel/keys`);
    await checkPage("keys");
    await page.getByRole("button", { name: "Yeni API anahtarı oluştur" }).click();
    const key = await page.locator("#new-key").innerText();
    expect((await api(kasa, "GET", "/v1/payment-acceptance", undefined, key)).status).toBe(200);
    await shot("key-issued");
    const id = await page.locator(".notice code").first().innerText();
    await page.goto(`${kasa.baseUrl}/panel/keys`);
    expect(await page.locator("main").innerText()).not.toContain(key);
    await page.getByRole("button", { name: `İptal et: ${id}` }).click();
    expect((await api(kasa, "GET", "/v1/payment-acceptance", undefined, key)).status).toBe(401);
  });

  it("takes a panel payment with a test card through the bank's 3D step", async () => {
    await page.goto(`${kasa.baseUrl}/panel/new-payment`);
    await checkPage("new-payment");
    await page.getByLabel("Tutar (TL)").fill("75,50");
    await page.getByLabel(/^Sipariş kodu/).fill("PANEL-TEL-1");
    await page.getByRole("button", { name: "Devam: kart bilgileri" }).click();
    await checkPage("card-form");
    await page.getByLabel("Kart numarası").fill("4000001100000009");
    await page.getByLabel(/ayı/).fill("12");
    await page.getByLabel(/yılı/).fill("34");
    await page.getByLabel("Güvenlik kodu").fill("123");
    await page.getByRole("button", { name: /^Öde/ }).click();
    await page.waitForURL(/\/sim-bank\/acs$/);
    await page.locator("#otp").fill("123456");
    await page.getByRole("button", { name: "Onayla" }).click();
    await page.waitForURL(/\/panel\/new-payment\/done\?/);
    // Turkish for the merchant, the API's state for the developer (docs/panel.md, Words).
    expect(await page.locator("#payment-status").innerText()).toBe("Tahsil edildi");
    expect(await page.locator("#payment-status-code").innerText()).toBe("captured");
    await checkPage("payment-done");
    await page.getByRole("link", { name: /Ödemeyi aç/ }).click();
    const shown = await page.locator("main").innerText();
    expect(shown).toContain("PANEL-TEL-1");
    expect(shown).toContain("Panel");
    expect(await page.locator('main [title="panel"]').innerText()).toBe("Panel");
    expect(shown).toContain("75,50 TL");
  });

  it("creates a link with items, copies its URL, and cancels it", async () => {
    await page.goto(`${kasa.baseUrl}/panel/links`);
    await checkPage("links");
    await page.getByLabel("Tutar (TL)", { exact: true }).fill("150,00");
    await page.getByLabel("Açıklama").fill("Sipariş 9");
    await page.getByLabel("Kalem 1 adı").fill("Çay seti");
    await page.getByLabel("Kalem 1 tutarı (TL)").fill("100");
    await page.getByLabel("Kalem 2 adı").fill("Kargo");
    await page.getByLabel("Kalem 2 tutarı (TL)").fill("50");
    await page.getByRole("button", { name: "Bağlantı oluştur" }).click();
    const url = await page.locator("#new-link-url").innerText();
    const id = await page.locator(".notice code").first().innerText();
    expect(await page.locator(`#url-${id}`).inputValue()).toBe(url);
    await shot("link-created");
    expect((await api(kasa, "GET", `/v1/payment-links/${id}`)).json.items).toHaveLength(2);
    await page.getByRole("button", { name: `İptal et: ${id}` }).click();
    expect((await api(kasa, "GET", `/v1/payment-links/${id}`)).json.status).toBe("cancelled");
  });

  it("resends a failed webhook and sends a test one: the loopback receiver gets both, correctly signed", async () => {
    const receiver: Receiver = await startReceiver({ secret: SECRET });
    try {
      const deps = kasa.runtime.deps;
      await setWebhook({ store: deps.store, clock: deps.clock, deps }, "ptn_demo", receiver.url);
      // Every delivery fails until the receiver is reset (older ones, if due, fail with it).
      receiver.script(...Array.from({ length: 20 }, () => ({ status: 410 })));
      await page.goto(`${kasa.baseUrl}/panel/webhooks`);
      await page.getByRole("button", { name: "Deneme bildirimi gönder" }).click();
      const failedId = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1)!);
      await deps.timers.runDue();
      await page.reload();
      expect(await page.locator("#delivery-status").innerText()).toBe("İletilemedi");
      expect(await page.locator("#delivery-status span").getAttribute("title")).toBe("failed");
      await checkPage("webhook-failed");
      receiver.reset();
      // The resend answers 303 to the delivery's page: wait for that page (the request the redirect
      // made) before reloading, or the reload races the navigation still under way.
      const redirected = page.waitForResponse((r) => r.request().method() === "GET" && r.request().redirectedFrom() !== null);
      await page.getByRole("button", { name: "Yeniden gönder" }).click();
      await redirected;
      await page.waitForLoadState("load");
      await deps.timers.runDue();
      await page.reload();
      expect(await page.locator("#delivery-status").innerText()).toBe("İletildi");
      expect(await page.locator("#delivery-status span").getAttribute("title")).toBe("delivered");
      await page.goto(`${kasa.baseUrl}/panel/webhooks`);
      await checkPage("webhooks");
      await page.getByRole("button", { name: "Deneme bildirimi gönder" }).click();
      const testId = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1)!);
      await deps.timers.runDue();
      const got = (id: string) => receiver.deliveries.filter((d) => d.headers["x-service-delivery-id"] === id);
      expect(got(failedId).map((d) => [JSON.parse(d.rawBody).type, d.verified])).toEqual([["webhook.test", true]]);
      expect(got(testId).map((d) => [JSON.parse(d.rawBody).type, d.verified])).toEqual([["webhook.test", true]]);
    } finally {
      await receiver.close();
    }
  });

  it("users, payouts, the audit log and a refusal page pass axe and the Tab walk too", async () => {
    await page.goto(`${kasa.baseUrl}/panel/users`);
    await checkPage("users");
    await page.goto(`${kasa.baseUrl}/panel/payouts`);
    await checkPage("payouts");
    // Yesterday's day end paid out yesterday's capture.
    await page.locator("main table a").first().click();
    await checkPage("payout");
    await page.goto(`${kasa.baseUrl}/panel/audit`);
    const log = await page.locator("main").innerText();
    for (const action of [
      "login",
      "refund",
      "agreement.accept",
      "key.issue",
      "key.revoke",
      "link.create",
      "link.cancel",
      "webhook.test",
      "webhook.resend",
      "payment.create",
    ])
      expect(log).toContain(action);
    await checkPage("audit");
    await page.goto(`${kasa.baseUrl}/panel/payments/pay_00000000000000000000`);
    expect(await page.locator("main").innerText()).toContain("payment_not_found");
    await checkPage("not-found");
  });

  it("logs out; the old session opens nothing, and no page broke its CSP", async () => {
    await page.goto(`${kasa.baseUrl}/panel/`);
    await page.getByRole("button", { name: "Çıkış yap" }).click();
    await page.waitForURL(`${kasa.baseUrl}/panel/login`);
    await page.goto(`${kasa.baseUrl}/panel/payments`);
    expect(page.url()).toBe(`${kasa.baseUrl}/panel/login`);
    expect(cspViolations).toEqual([]);
  });
});
