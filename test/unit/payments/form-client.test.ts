import { describe, expect, it } from "vitest";
import { decodeEntities, formClient, parseAttributes, parseForms } from "../../../src/http/sandbox/form-client";

// The test client itself (test/support/form-client.ts): what it reads from a page.

describe("form-following client: parsing", () => {
  it("reads attributes in every quoting style and decodes entities", () => {
    expect(parseAttributes(`<input type=hidden name='a' value="x &amp; y &#39;z&#x27;" required>`)).toEqual({
      type: "hidden",
      name: "a",
      value: "x & y 'z'",
      required: "",
    });
    expect(decodeEntities("&lt;&gt;&quot;&#8364;")).toBe('<>"€');
  });

  it("collects defaults: hidden and text values, checked boxes only, the selected option", () => {
    const [form] = parseForms(
      `<form method="post" action="/pay"><input type="hidden" name="t" value="1"><input name="otp">
       <input type="radio" name="n" value="1"><input type="radio" name="n" value="3" checked>
       <input type="checkbox" name="c"><select name="s"><option value="a">A<option value="b" selected>B</select>
       <textarea name="note">hi &amp; bye</textarea><input type="text" name="off" value="x" disabled>
       <button type="submit" name="action" value="go">Go</button><button type="button">No</button></form>`,
      "http://kasa.test/l/x",
    );
    expect(form).toMatchObject({ action: "http://kasa.test/pay", method: "POST", autoSubmit: false });
    expect(form!.fields).toEqual([
      { name: "t", value: "1" },
      { name: "otp", value: "" },
      { name: "n", value: "3" },
      { name: "s", value: "b" },
      { name: "note", value: "hi & bye" },
    ]);
    expect(form!.buttons).toEqual([{ name: "action", value: "go", label: "Go" }]);
  });

  it("an auto-submitting form needs both the nonce'd script and the <noscript> button", () => {
    const page = (noscript: string) =>
      `<form id="f" method="post" action="https://bank.example/acs"><input type="hidden" name="a" value="1">${noscript}</form>
       <script nonce="n">document.getElementById("f").submit();</script>`;
    expect(parseForms(page(`<noscript><button type="submit">Go</button></noscript>`), "http://k/")[0]!.autoSubmit).toBe(true);
    expect(parseForms(page(""), "http://k/")[0]!.autoSubmit).toBe(false);
  });
});

describe("form-following client: following", () => {
  const pages: Record<string, () => Response> = {
    "POST http://app.test/start": () =>
      new Response(
        `<form id="x" method="post" action="/next"><input type="hidden" name="k" value="v"><noscript><button>Go</button></noscript></form><script>document.getElementById("x").submit()</script>`,
        { headers: { "content-type": "text/html" } },
      ),
    "POST http://app.test/next": () => new Response(null, { status: 303, headers: { location: "/landing" } }),
    "GET http://app.test/landing": () => new Response(null, { status: 303, headers: { location: "https://shop.example/back?x=1" } }),
  };
  const seen: string[] = [];
  const client = formClient(
    async (url, init) => {
      const key = `${init.method} ${url}`;
      seen.push(`${key} ${init.body ?? ""}`.trim());
      return (pages[key] ?? (() => new Response("nope", { status: 404 })))();
    },
    ["http://app.test"],
  );

  it("follows the auto-submit, 303s as GET, and stops at the first foreign Location", async () => {
    const out = await client.post("http://app.test/start", { a: "1" });
    expect(out.leftTo).toBe("https://shop.example/back?x=1");
    expect(out.page).toBeNull();
    expect(seen).toEqual(["POST http://app.test/start a=1", "POST http://app.test/next k=v", "GET http://app.test/landing"]);
    expect(out.trail.map((v) => v.status)).toEqual([200, 303, 303]);
  });
});
