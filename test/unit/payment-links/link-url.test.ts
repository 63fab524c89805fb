import { describe, expect, it } from "vitest";
import { toLinkUrl } from "../../../src/domain/payment-links/view";

// docs/contract.md#the-link-record `url`: the server's base URL, /l/, the token. The addresses are
// kept per token (issue 37); a kept one must never outlive the base URL it was made with.
describe("contract, the link record: url", () => {
  it("is /l/ and the token under an empty base URL too, asked first", () => {
    expect(toLinkUrl("", "tok_a")).toBe("/l/tok_a");
  });

  it("is the base URL, /l/ and the token, whatever was asked before", () => {
    expect(toLinkUrl("http://127.0.0.1:8080", "tok_a")).toBe("http://127.0.0.1:8080/l/tok_a");
    expect(toLinkUrl("http://127.0.0.1:8080", "tok_a")).toBe("http://127.0.0.1:8080/l/tok_a");
    expect(toLinkUrl("https://pay.example.com.tr", "tok_a")).toBe("https://pay.example.com.tr/l/tok_a");
    expect(toLinkUrl("http://127.0.0.1:8080", "tok_b")).toBe("http://127.0.0.1:8080/l/tok_b");
  });

  it("stays exact past the number of addresses it keeps", () => {
    for (let i = 0; i < 10_000; i++) expect(toLinkUrl("http://127.0.0.1:8080", `tok_${i}`)).toBe(`http://127.0.0.1:8080/l/tok_${i}`);
    expect(toLinkUrl("http://127.0.0.1:8080", "tok_0")).toBe("http://127.0.0.1:8080/l/tok_0");
  });
});
