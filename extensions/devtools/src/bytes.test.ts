import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64, utf8OrUndefined } from "./bytes.js";

describe("base64", () => {
  it("reads standard and URL-safe base64, padded or not, with white space", () => {
    const bytes = Uint8Array.from([251, 255, 191, 0]);
    expect(bytesToBase64(bytes)).toBe("+/+/AA==");
    for (const text of ["+/+/AA==", "-_-_AA", "+/+/\nAA=="]) expect(base64ToBytes(text)).toEqual(bytes);
  });

  it("names the first problem", () => {
    expect(() => base64ToBytes("ab*c")).toThrow('"*" at position 3 is not a base64 character');
    expect(() => base64ToBytes("ab=c")).toThrow('"=" may only end the text');
    expect(() => base64ToBytes("abcde")).toThrow("5 base64 characters cannot be whole bytes: one is missing or extra");
  });

  it("tells UTF-8 text from other bytes", () => {
    expect(utf8OrUndefined(new TextEncoder().encode("héllo"))).toBe("héllo");
    expect(utf8OrUndefined(Uint8Array.from([0xff, 0xfe]))).toBeUndefined();
  });
});
