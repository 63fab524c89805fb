import { describe, expect, it } from "vitest";
import { autoSubmitForm, errorPage, html, raw, renderPage } from "../../../src/html";
import { sensitive } from "../../../src/sensitive";
import { readForm } from "./read-form";

const NONCE = "bm9uY2Utbm9uY2Utbm9uY2U";

describe("product 6 html template escapes every interpolation", () => {
  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    [`"onmouseover='x'`, "&quot;onmouseover=&#39;x&#39;"],
    ["Tom & Jerry", "Tom &amp; Jerry"],
    [0, "0"],
    [42, "42"],
    [null, ""],
    [undefined, ""],
    [false, ""],
  ])("%j renders as %j", (value, expected) => {
    expect(html`<p>${value}</p>`.value).toBe(`<p>${expected}</p>`);
  });

  it("lets raw() and nested templates through unescaped, once", () => {
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p>${inner}${raw("<br>")}</p>`.value).toBe("<p><b>&lt;i&gt;</b><br></p>");
  });

  it("joins arrays without separators and escapes their plain items", () => {
    const items = ["a<", html`<li>b</li>`, ["c", null]];
    expect(html`<ul>${items}</ul>`.value).toBe("<ul>a&lt;<li>b</li>c</ul>");
  });

  it("prints a Sensitive as [redacted]", () => {
    expect(html`${sensitive("4000001100000009")}`.value).toBe("[redacted]");
  });
});

describe("product 6 page shell: strict nonce CSP and no caching", () => {
  const page = renderPage({
    title: "Ödeme <test>",
    body: html`<p>merhaba</p>`,
    nonce: NONCE,
    formActions: ["https://bank.example/acs?x=1", "https://bank.example/other", "http://shop.example:8080/return"],
  });

  it("sends the security headers", () => {
    expect(page.status).toBe(200);
    expect(page.headers).toEqual({
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        `default-src 'none'; style-src 'nonce-${NONCE}'; script-src 'nonce-${NONCE}'; img-src 'self' data:; ` +
        "form-action https://bank.example http://shop.example:8080; frame-ancestors 'none'; base-uri 'none'",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    });
  });

  it("renders a Turkish document with one nonce'd style and an escaped title", () => {
    expect(page.body.startsWith("<!doctype html>")).toBe(true);
    expect(page.body).toContain('<html lang="tr">');
    expect(page.body).toContain("<title>Ödeme &lt;test&gt;</title>");
    expect(page.body.match(/<style/g)).toHaveLength(1);
    expect(page.body).toContain(`<style nonce="${NONCE}">`);
    expect(page.body).toContain('<meta name="viewport"');
  });

  it("loads no third-party assets", () => {
    expect(page.body).not.toMatch(/(src|href)=|@import|url\(/);
  });

  it("allows no form target when none is given, and 'self' when asked", () => {
    const none = renderPage({ title: "t", body: html``, nonce: NONCE, formActions: [], status: 410 });
    expect(none.status).toBe(410);
    expect(none.headers["Content-Security-Policy"]).toContain("form-action 'none';");
    const self = renderPage({ title: "t", body: html``, nonce: NONCE, formActions: ["'self'"] });
    expect(self.headers["Content-Security-Policy"]).toContain("form-action 'self';");
  });

  it.each(["javascript:alert(1)", "/relative", "https://x.example; script-src *", "https://x.example;script-src", "https://a,b"])(
    "refuses form-action source %j",
    (source) => {
      expect(() => renderPage({ title: "t", body: html``, nonce: NONCE, formActions: [source] })).toThrow();
    },
  );

  it("accepts IPv6 and port origins", () => {
    const page = renderPage({ title: "t", body: html``, nonce: NONCE, formActions: ["http://[::1]:8080/x", "https://Bank.Example/"] });
    expect(page.headers["Content-Security-Policy"]).toContain("form-action http://[::1]:8080 https://bank.example;");
  });

  it.each(["short", "abc'; script-src *", `${NONCE}\r\nX: y`])("refuses nonce %j", (nonce) => {
    expect(() => renderPage({ title: "t", body: html``, nonce, formActions: [] })).toThrow();
  });
});

describe("product 6 auto-submitting form works with and without JavaScript", () => {
  const form = autoSubmitForm({
    action: "https://bank.example/acs",
    fields: { pan: sensitive("4000001100000009"), note: `a"b<c` },
    nonce: NONCE,
    label: "Bankaya devam et",
  }).value;

  it("posts hidden fields, revealing Sensitive values and escaping all", () => {
    expect(readForm(form)).toEqual({
      action: "https://bank.example/acs",
      hidden: { pan: "4000001100000009", note: `a"b<c` },
    });
    expect(form).toContain('value="a&quot;b&lt;c"');
    expect(form).toContain('method="post"');
  });

  it("submits by a nonce'd script and offers a noscript button", () => {
    expect(form).toMatch(new RegExp(`<script nonce="${NONCE}">document\\.getElementById\\("kasa-auto-submit"\\)\\.submit\\(\\);</script>`));
    expect(form).toContain('<noscript><div class="actions"><button type="submit">Bankaya devam et</button></div></noscript>');
  });

  it("refuses a non-http action", () => {
    expect(() => autoSubmitForm({ action: "javascript:alert(1)", fields: {}, nonce: NONCE, label: "x" })).toThrow();
  });
});

describe("product 6.5 error page shows message, code and traceId", () => {
  it("shows the code when given, escaped", () => {
    const page = errorPage({
      code: "payment_ref_invalid",
      message: "Bağlantı <geçersiz>",
      traceId: "tr_0123456789abcdef",
      nonce: NONCE,
      status: 404,
    });
    expect(page.status).toBe(404);
    expect(page.body).toContain("Bağlantı &lt;geçersiz&gt;");
    expect(page.body).toContain("<code>payment_ref_invalid</code>");
    expect(page.body).toContain("<code>tr_0123456789abcdef</code>");
    expect(page.headers["Content-Security-Policy"]).toContain("form-action 'none'");
    expect(page.headers["Cache-Control"]).toBe("no-store");
  });

  it("hides the code on generic pages (interface 4.7) and defaults to 400", () => {
    const page = errorPage({ code: null, message: "İşlem şu anda yapılamıyor.", traceId: "tr_x", nonce: NONCE });
    expect(page.status).toBe(400);
    expect(page.body).not.toContain("Hata kodu");
    expect(page.body).toContain("tr_x");
  });
});
