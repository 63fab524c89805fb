import { afterEach, describe, expect, it } from "vitest";
import { DAY_MS, LINK_VALIDITY_MS } from "../../src/limits";
import { TEST_SEED } from "../support/fixtures";
import { harness, T0, type Harness } from "../support/harness";
import {
  BASE,
  CARDS,
  createLink,
  formActionOf,
  formById,
  linkClient,
  linkJson,
  offeredCounts,
  openPage,
  pageUrl,
  REDIRECT_URL,
  textOf,
} from "./link-pages-flow";

let h: Harness;
afterEach(async () => h?.close());

describe("product 7 / interface 3.1 opening a link page", () => {
  it("the first open moves pending -> launched and sets both open times; every open sets lastOpenedAt", async () => {
    h = await harness();
    const link = await createLink(h);
    expect((await linkJson(h, link.id)).status).toBe("pending");
    await h.advance(1000);
    const first = await openPage(h, link.token);
    expect(first.page?.status).toBe(200);
    expect(await linkJson(h, link.id)).toMatchObject({
      status: "launched",
      firstOpenedAt: new Date(T0 + 1000).toISOString(),
      lastOpenedAt: new Date(T0 + 1000).toISOString(),
    });
    await h.advance(DAY_MS);
    await openPage(h, link.token);
    expect(await linkJson(h, link.id)).toMatchObject({
      status: "launched",
      firstOpenedAt: new Date(T0 + 1000).toISOString(),
      lastOpenedAt: new Date(T0 + 1000 + DAY_MS).toISOString(),
    });
  });

  it("shows the amount in TRY format, the description, the items in order and the expiry in Istanbul time", async () => {
    h = await harness();
    const items = [
      { name: "Çay bardağı", note: "6'lı set", amount: 100_000 },
      { name: "Kaşık <b>", amount: 23_456 },
    ];
    const link = await createLink(h, { description: "Sipariş #42 & kargo", items });
    const text = textOf((await openPage(h, link.token)).page);
    expect(text).toContain("1.234,56 TL");
    expect(text).toContain("Sipariş #42 & kargo");
    expect(text).toMatch(/Çay bardağı 6'lı set 1\.000,00 TL Kaşık <b> 234,56 TL/);
    // T0 is 2026-11-20 09:00Z; seven days later is 12:00 in Istanbul (UTC+3).
    expect(text).toContain("27.11.2026 12:00 (TSİ)");
  });

  it("interface 4.1.2: payerName masked on the page (Turkish letters, per word), raw in the API", async () => {
    h = await harness();
    const link = await createLink(h, { payerName: "Şükrü Çağlar İnce Ö" });
    const page = await openPage(h, link.token);
    expect(textOf(page.page)).toContain("Ödeyen Şü*** Ça**** İn** Ö");
    expect(page.page!.body).not.toContain("Şükrü");
    expect(page.page!.body).not.toContain("Çağlar");
    expect((await linkJson(h, link.id)).payerName).toBe("Şükrü Çağlar İnce Ö");
  });

  it("an unknown token is a 404 page with payment_link_not_found; nothing is written", async () => {
    h = await harness();
    const r = await openPage(h, "no-such-token");
    expect(r.page?.status).toBe(404);
    expect(textOf(r.page)).toContain("payment_link_not_found");
  });

  it.each([
    ["expired", 410, "süresi doldu", async (hh: Harness) => hh.advance(LINK_VALIDITY_MS)],
    ["cancelled", 410, "iptal edildi", async (hh: Harness, id: string) => void (await hh.del(`/v1/payment-links/${id}`))],
  ] as const)("a %s link shows a page that says so with HTTP %i, and its record no longer changes", async (status, code, words, move) => {
    h = await harness();
    const link = await createLink(h);
    await openPage(h, link.token);
    await move(h, link.id);
    const before = await linkJson(h, link.id);
    expect(before.status).toBe(status);
    await h.advance(1000);
    for (const path of ["", "/installments", "/card", "/pay"]) {
      const client = linkClient(h);
      const r =
        path === ""
          ? await client.get(pageUrl(link.token))
          : await client.post(pageUrl(link.token, path), { bin: "40000011", installment: "1" });
      expect([path, r.page?.status]).toEqual([path, code]);
      expect(textOf(r.page)).toContain(words);
      expect(r.page!.forms).toEqual([]);
    }
    expect(await linkJson(h, link.id)).toEqual(before);
  });

  it("a link past its expiresAt is expired by the page itself when the timer has not run yet", async () => {
    h = await harness();
    const link = await createLink(h);
    h.clock.advance(LINK_VALIDITY_MS);
    expect((await openPage(h, link.token)).page?.status).toBe(410);
    expect((await linkJson(h, link.id)).status).toBe("expired");
  });
});

describe("product 6 / 7 page rules: strict CSP, no third-party assets, accessible forms", () => {
  it("every page is no-store HTML with a nonce CSP; form-action allows exactly where the forms lead", async () => {
    h = await harness();
    const plain = await createLink(h);
    const redirecting = await createLink(h, { redirectUrl: REDIRECT_URL });
    for (const [link, actions] of [
      [plain, [BASE]],
      [redirecting, [BASE, "https://shop.example"]],
    ] as const) {
      const page = (await openPage(h, link.token)).page!;
      expect(page.headers.get("cache-control")).toBe("no-store");
      const csp = page.headers.get("content-security-policy")!;
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain(`connect-src ${BASE}`);
      expect(formActionOf(page)).toEqual(actions);
      // Every script and style carries the nonce; nothing is loaded from anywhere.
      expect([...page.body.matchAll(/<(script|style)\b([^>]*)>/g)].every((m) => m[2]!.includes(`nonce="${nonce}"`))).toBe(true);
      expect(page.body).not.toMatch(/\bsrc=|<link\b|https?:\/\/(?!kasa\.test)/);
    }
  });

  it("lang tr; every visible input has a label; card inputs are numeric with cc-* autocomplete", async () => {
    h = await harness();
    const link = await createLink(h);
    const body = (await openPage(h, link.token)).page!.body;
    expect(body).toContain('<html lang="tr">');
    const inputs = [...body.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !tag.includes('type="hidden"'));
    expect(inputs.length).toBeGreaterThanOrEqual(5);
    for (const tag of inputs) {
      const id = /id="([^"]+)"/.exec(tag)![1];
      expect(body, id).toContain(`<label for="${id}">`);
      expect(tag, id).toContain('inputmode="numeric"');
    }
    const auto = Object.fromEntries(inputs.map((t) => [/name="([^"]+)"/.exec(t)![1], /autocomplete="([^"]+)"/.exec(t)![1]]));
    expect(auto).toEqual({ bin: "off", pan: "cc-number", expireMonth: "cc-exp-month", expireYear: "cc-exp-year", cv2: "cc-csc" });
  });
});

describe("product 16 options endpoint: JSON {bin}, answered like 4.8 for the link", () => {
  const bins = Object.entries(CARDS).map(([name, pan]) => [name, pan.slice(0, 8)] as const);

  it.each(bins)("%s (%s): the link's terminal, amount and share, as POST /v1/installment-options answers", async (_name, bin) => {
    h = await harness();
    const link = await createLink(h, { customerCommissionShareBps: 5000 });
    const r = await h.post(`/l/${link.token}/options`, { bin }, { key: null });
    const api = await h.post("/v1/installment-options", { bin, terminalId: "T-1", baseAmount: 123_456, customerCommissionShareBps: 5000 });
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.json).toEqual(api.json);
  });

  it.each([
    ["bonus credit card", "40000011", [1, 3], [1, 3]],
    ["debit card (single charge only)", "40000033", [1, 3], [1]],
    ["installments-blocked card", "40000012", [3, 6], []],
    ["foreign card on a connection that refuses them", "40000055", [1, 3], []],
    ["no restriction: the terminal's effective set", "40000011", null, [1, 2, 3, 6, 9, 12]],
  ])("allowedInstallmentCounts honoured: %s", async (_n, bin, allowed, counts) => {
    h = await harness();
    const link = await createLink(h, { allowedInstallmentCounts: allowed });
    const r = await h.post(`/l/${link.token}/options`, { bin }, { key: null });
    expect(r.json.options.map((o: { installmentCount: number }) => o.installmentCount)).toEqual(counts);
  });

  it.each([
    ["seven digits", { bin: "4000001" }, "bin: must be exactly 8 digits"],
    ["a number", { bin: 40000011 }, "bin"],
    ["an unknown field", { bin: "40000011", terminalId: "T-NET" }, "terminalId"],
    ["no bin", {}, "bin"],
  ])("400 validation_error: %s", async (_n, body, message) => {
    h = await harness();
    const link = await createLink(h);
    const r = await h.post(`/l/${link.token}/options`, body, { key: null });
    expect([r.status, r.json.error.code]).toEqual([400, "validation_error"]);
    expect(r.json.error.message).toContain(message);
  });

  it("a form body is 400; an unknown token is 404 payment_link_not_found", async () => {
    h = await harness();
    const link = await createLink(h);
    const form = await h.post(`/l/${link.token}/options`, "bin=40000011", {
      key: null,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([form.status, form.json.error.code]).toEqual([400, "validation_error"]);
    const unknown = await h.post("/l/nope/options", { bin: "40000011" }, { key: null });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, "payment_link_not_found"]);
  });

  it.each([
    ["expired", "payment_link_expired", (hh: Harness) => hh.advance(LINK_VALIDITY_MS)],
    ["cancelled", "payment_link_cancelled", async (hh: Harness, id: string) => void (await hh.del(`/v1/payment-links/${id}`))],
  ] as const)("a %s link: 409 %s", async (_n, code, move) => {
    h = await harness();
    const link = await createLink(h);
    await move(h, link.id);
    const r = await h.post(`/l/${link.token}/options`, { bin: "40000011" }, { key: null });
    expect([r.status, r.json.error.code]).toEqual([409, code]);
  });

  it("403 terminal_not_allowed for a card family the terminal refuses (as 4.8)", async () => {
    const seed = {
      ...TEST_SEED,
      terminals: TEST_SEED.terminals!.map((t) => (t.id === "T-1" ? { ...t, allowedCardFamilies: ["credit" as const] } : t)),
    };
    h = await harness({ seed });
    const link = await createLink(h);
    const r = await h.post(`/l/${link.token}/options`, { bin: "40000033" }, { key: null });
    expect([r.status, r.json.error.code]).toEqual([403, "terminal_not_allowed"]);
  });

  // Product 23 changed this rule (issue 15 item 4): the page's lookups used to draw on the link
  // partner's installments.partner budget, so one public link URL could block options on all the
  // partner's links and its own API calls. They now draw on the buyer's pages.ip instead.
  it("product 23 / issue 15 item 4: lookups from the page draw on pages.ip, never the partner's installments.partner", async () => {
    h = await harness({ limits: { "installments.partner": 1, "pages.ip": 3 } });
    const link = await createLink(h);
    const page = () => h.post(`/l/${link.token}/options`, { bin: "40000011" }, { key: null });
    expect((await page()).status).toBe(200);
    expect((await page()).status).toBe(200);
    // The no-JavaScript step draws on the same budget.
    const step = await linkClient(h).post(pageUrl(link.token, "/installments"), { bin: "40000011" });
    expect(step.page?.status).toBe(200);
    // Three page lookups left the partner's own budget whole.
    expect((await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-1" })).status).toBe(200);
    const refused = await page();
    expect([refused.status, refused.json.error.code]).toEqual([429, "rate_limited"]);
    const stepRefused = await linkClient(h).post(pageUrl(link.token, "/installments"), { bin: "40000011" });
    expect([stepRefused.page?.status, textOf(stepRefused.page).includes("rate_limited")]).toEqual([429, true]);
    // And the partner's exhausted budget does not stop the buyer's page once the window has passed.
    expect((await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-1" })).status).toBe(429);
    await h.advance(60_000);
    expect((await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-1" })).status).toBe(200);
    expect((await page()).status).toBe(200);
  });
});

describe("product 16 steps without JavaScript: first 8 digits, then the options, then the card form", () => {
  it("each step offers what the next needs; the options are the link's, restricted to its allowed counts", async () => {
    h = await harness();
    const link = await createLink(h, { allowedInstallmentCounts: [1, 3, 6], customerCommissionShareBps: 10_000 });
    const client = linkClient(h);
    const page = await client.get(pageUrl(link.token));
    const options = await client.submit(formById(page.page, "bin-form"), { bin: "4000 0011" });
    expect(options.page?.status).toBe(200);
    expect(offeredCounts(options.page)).toEqual([1, 3, 6]);
    const quoted = (await h.post(`/l/${link.token}/options`, { bin: "40000011" }, { key: null })).json.options;
    expect(textOf(options.page)).toContain("3 taksit 1.288,69 TL");
    expect(quoted[1].totalAmount).toBe(128_869);
    const card = await client.submit(formById(options.page, "options-form"), { installment: "3" });
    expect(card.page?.status).toBe(200);
    const form = formById(card.page, "card-form");
    expect(form.fields).toEqual([
      { name: "installment", value: "3" },
      { name: "pan", value: "40000011" },
      { name: "expireMonth", value: "" },
      { name: "expireYear", value: "" },
      { name: "cv2", value: "" },
    ]);
    expect(textOf(card.page)).toContain("Ödenecek toplam 1.288,69 TL");
  });

  it.each([
    ["seven digits", "4000001"],
    ["letters", "4000abcd"],
    ["nothing", ""],
  ])("step 1 with %s: the page again with the reason, 400, no options budget used", async (_n, bin) => {
    h = await harness({ limits: { "installments.partner": 1 } });
    const link = await createLink(h);
    const r = await linkClient(h).post(pageUrl(link.token, "/installments"), { bin });
    expect(r.page?.status).toBe(400);
    expect(r.page!.body).toContain('aria-invalid="true"');
    expect(textOf(r.page)).toContain("ilk 8 hanesini");
    expect((await h.post(`/l/${link.token}/options`, { bin: "40000011" }, { key: null })).status).toBe(200);
  });

  it("step 2 with a count the card is not offered: 422 installment_not_allowed, with the way back", async () => {
    h = await harness();
    const link = await createLink(h);
    const r = await linkClient(h).post(pageUrl(link.token, "/card"), { bin: "40000033", installment: "3" });
    expect(r.page?.status).toBe(422);
    expect(textOf(r.page)).toContain("installment_not_allowed");
    expect(r.page!.body).toContain(`href="${BASE}/l/${link.token}"`);
  });

  it("step 1 with a card the link cannot be paid with: the generic page without a code", async () => {
    h = await harness();
    const link = await createLink(h);
    const r = await linkClient(h).post(pageUrl(link.token, "/installments"), { bin: CARDS.foreign.slice(0, 8) });
    expect(r.page?.status).toBe(422);
    expect(textOf(r.page)).not.toContain("Hata kodu");
  });
});
