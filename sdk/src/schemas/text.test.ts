import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { charCount, hostOf, isAbsolutePath, isHttps, jsonByteLength, utf8ByteLength } from "./text.js";
import { networkAllows } from "./permissions.js";

describe("utf8ByteLength", () => {
  it("matches Buffer.byteLength on any string, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(utf8ByteLength(s)).toBe(Buffer.byteLength(s, "utf8"));
      }),
      { numRuns: 150 },
    );
    expect(utf8ByteLength("\ud800")).toBe(3);
    expect(utf8ByteLength("😀")).toBe(4);
  });

  it("jsonByteLength is Infinity for what JSON cannot hold", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonByteLength(cycle)).toBe(Infinity);
    expect(jsonByteLength({ a: "é" })).toBe(10);
  });
});

describe("string shapes", () => {
  it("counts code points", () => {
    expect(charCount("ok👍")).toBe(3);
  });

  it("finds the host of http and https addresses only", () => {
    expect(hostOf("https://API.github.com/repos?x=1")).toBe("api.github.com");
    expect(hostOf("http://user:pw@example.com:8080/")).toBe("example.com");
    expect(hostOf("https://[::1]:3000")).toBe("[::1]");
    for (const bad of ["ftp://x.com", "javascript:alert(1)", "https://", "example.com", "https://a b.com"]) {
      expect(hostOf(bad)).toBeUndefined();
    }
    expect(isHttps("https://x.dev")).toBe(true);
    expect(isHttps("http://x.dev")).toBe(false);
  });

  it("knows absolute paths on every platform", () => {
    for (const p of ["/tmp/a", "C:\\Users\\a", "d:/x", "\\\\server\\share"]) expect(isAbsolutePath(p)).toBe(true);
    for (const p of ["tmp/a", "./a", "~/a", "", "C:relative"]) expect(isAbsolutePath(p)).toBe(false);
  });
});

describe("networkAllows", () => {
  it("matches exact hosts and *. suffixes, case-insensitively", () => {
    expect(networkAllows(["API.example.com"], "api.example.com")).toBe(true);
    expect(networkAllows(["*.example.com"], "a.b.example.com")).toBe(true);
    expect(networkAllows(["*.example.com"], "example.com")).toBe(false);
    expect(networkAllows(["*.example.com"], "badexample.com")).toBe(false);
    expect(networkAllows([], "example.com")).toBe(false);
  });
});
