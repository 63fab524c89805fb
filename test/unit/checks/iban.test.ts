import { describe, expect, it } from "vitest";
import { looksLikeIban } from "../../../src/domain/checks/iban";

describe("interface 4.1.2 IBAN pattern: looksLikeIban (ISO 13616 mod 97)", () => {
  it.each([
    ["TR330006100519786457841326", true],
    ["TR33 0006 1005 1978 6457 8413 26", true],
    ["TR33-0006-1005-1978-6457-8413-26", true],
    ["tr33 0006 1005 1978 6457 8413 26", true], // lower case
    ["Tr330006100519786457841326", true],
    ["GB82 WEST 1234 5698 7654 32", true], // letters inside the account part
    ["gb82west12345698765432", true],
    ["DE89 3704 0044 0532 0130 00", true],
    ["NO93 8601 1117 947", true], // 15 characters, the shortest in use
    ["MT84MALT011000012345MTLCAST001S", true], // 31 characters
    ["LC55HEMM000100010012001200023015", true], // 32 characters
    ["TR340006100519786457841326", false], // check digits off by one
    ["TR330006100519786457841327", false], // account digit changed
    ["TR3300061005197864578413", false], // shortened: mod 97 fails
    ["NO93 8601 1117 94", false], // 14 characters: below the minimum length
    ["GB82WEST1234569876543200000000000000", false], // 36 characters
    ["1R330006100519786457841326", false], // country must be letters
    ["TRX30006100519786457841326", false], // check digits must be digits
    ["TR33 0006 1005 1978 6457 8413 2ı", false], // dotless ı upper-cases to I: refused before that
    ["IBAN TR330006100519786457841326", false], // embedded in other text
    ["TR330006100519786457841326.", false],
    ["", false],
  ])("%j -> %s", (text, expected) => {
    expect(looksLikeIban(text)).toBe(expected);
  });
});
