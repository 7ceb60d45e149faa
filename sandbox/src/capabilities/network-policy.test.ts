import { afterEach, describe, expect, it } from "vitest";
import { checkNetworkUrl, parseNetworkPolicy } from "./network-policy.js";
import { classifyAddress } from "./address-guard.js";
import { createTestContext, type TestContext } from "./test-context.js";

let t: TestContext;
afterEach(() => t?.cleanup());

/** Checks `url` against `entries`; returns the URL to use or the denial message. */
function check(entries: string[], url: string, kind: "fetch" | "websocket" = "fetch"): string {
  t = createTestContext({ network: entries });
  try {
    return checkNetworkUrl(t.cx, parseNetworkPolicy(entries), kind, url).href;
  } catch (error) {
    return `denied: ${(error as Error).message}`;
  }
}

describe("manifest entries", () => {
  it("are normalized like URL hosts", () => {
    const policy = parseNetworkPolicy(["API.Example.COM.", "münchen.de", "*.Example.org", "2130706433", "::1", "[::FFFF:127.0.0.1]"]);
    expect(policy.patterns).toEqual([
      { kind: "exact", host: "api.example.com" },
      { kind: "exact", host: "xn--mnchen-3ya.de" },
      { kind: "wildcard", suffix: ".example.org" },
      { kind: "exact", host: "127.0.0.1" },
      { kind: "exact", host: "[::1]" },
      { kind: "exact", host: "[::ffff:7f00:1]" },
    ]);
    expect(policy.invalid).toEqual([]);
  });

  it("that are not bare host names allow nothing and are reported", () => {
    const policy = parseNetworkPolicy(["https://a.example", "a.example:8080", "u@a.example", "a.example/x", "*", "*.*.a.example", "*.10.0.0.1", "", "a b"]);
    expect(policy.patterns).toEqual([]);
    expect(policy.invalid).toHaveLength(9);
  });
});

describe("checkNetworkUrl returns the URL to use", () => {
  it("normalized: case, trailing dot, default port", () => {
    expect(check(["api.example.com"], "HTTPS://API.Example.COM.:443/v1?q=1")).toBe("https://api.example.com/v1?q=1");
  });

  it("for an IDN host in punycode, whichever spelling the manifest and guest used", () => {
    expect(check(["münchen.de"], "http://xn--mnchen-3ya.de/")).toBe("http://xn--mnchen-3ya.de/");
    expect(check(["xn--mnchen-3ya.de"], "http://MÜNCHEN.de/")).toBe("http://xn--mnchen-3ya.de/");
  });

  it("for IPv4 literals in decimal, hex and octal only when the dotted address is listed", () => {
    expect(check(["127.0.0.1"], "http://2130706433/")).toBe("http://127.0.0.1/");
    expect(check(["127.0.0.1"], "http://0x7f.0.0.1/")).toBe("http://127.0.0.1/");
    expect(check(["127.0.0.1"], "http://0177.0.0.1/")).toBe("http://127.0.0.1/");
    expect(check(["example.com"], "http://2130706433/")).toMatch(/^denied: fetch to 127\.0\.0\.1 denied/);
  });
});

describe("red team: allow-list bypass URLs are denied", () => {
  const cases: [string, string[], string, string][] = [
    ["fragment hiding an @", ["allowed.example"], "http://evil.example#@allowed.example", "evil.example"],
    ["backslash trick", ["allowed.example"], "http://evil.example\\@allowed.example/", "evil.example"],
    ["suffix without a label boundary", ["example.com"], "http://evilexample.com/", "evilexample.com"],
    ["allowed name as a subdomain of evil", ["example.com"], "http://example.com.evil.com/", "example.com.evil.com"],
    ["wildcard does not match the apex", ["*.example.com"], "http://example.com/", "example.com"],
    ["wildcard needs a label boundary", ["*.example.com"], "http://evilexample.com/", "evilexample.com"],
    ["wildcard as a subdomain of evil", ["*.example.com"], "http://a.example.com.evil.com/", "a.example.com.evil.com"],
    ["IDN homograph (Cyrillic a)", ["example.com"], "http://exаmple.com/", "xn--exmple-4nf.com"],
    ["IPv4-mapped IPv6 loopback when 127.0.0.1 is listed", ["127.0.0.1"], "http://[::ffff:127.0.0.1]/", "[::ffff:7f00:1]"],
    ["a listed name does not allow its address", ["localhost"], "http://127.0.0.1/", "127.0.0.1"],
    ["wildcard never matches IP literals", ["*.0.0.1"], "http://127.0.0.1/", "127.0.0.1"],
    ["empty list", [], "http://example.com/", "example.com"],
  ];
  for (const [name, entries, url, host] of cases) {
    it(name, () => {
      const message = check(entries, url);
      expect(message).toBe(`denied: fetch to ${host} denied: "${host}" is not in permissions.network (add "${host}" to svc.permissions.network in package.json)`);
      expect(t.denials).toEqual([{ kind: "fetch", target: host, reason: `"${host}" is not in permissions.network`, fix: `add "${host}" to svc.permissions.network in package.json` }]);
    });
  }

  it("userinfo naming the allowed host is refused, the real host named", () => {
    expect(check(["allowed.example"], "http://allowed.example@evil.example/"))
      .toBe("denied: fetch to evil.example denied: URLs carrying a user name or password are refused (send credentials in a header instead)");
  });

  it("userinfo is refused even for an allowed host", () => {
    expect(check(["allowed.example"], "http://user:pw@allowed.example/")).toContain("denied");
    expect(t.denials).toEqual([{ kind: "fetch", target: "allowed.example", reason: "URLs carrying a user name or password are refused", fix: "send credentials in a header instead" }]);
  });

  it("non-http schemes are refused for fetch, non-ws schemes for WebSocket", () => {
    expect(check(["a.example"], "file:///etc/passwd")).toBe("denied: fetch to file:///etc/passwd denied: only http and https URLs are allowed");
    expect(check(["a.example"], "data:text/plain,hi")).toBe("denied: fetch to data:text/plain,hi denied: only http and https URLs are allowed");
    expect(check(["a.example"], "ws://a.example/")).toContain("only http and https");
    expect(check(["a.example"], "http://a.example/", "websocket")).toBe("denied: WebSocket to http://a.example/ denied: only ws and wss URLs are allowed");
    expect(check(["a.example"], "wss://A.example./s", "websocket")).toBe("wss://a.example/s");
  });

  it("a string that is not an absolute URL is a TypeError, not a denial", () => {
    expect(check(["a.example"], "/relative")).toBe('denied: fetch: "/relative" is not a valid absolute URL');
    expect(t.denials).toEqual([]);
  });
});

describe("wildcards", () => {
  it("match any depth of subdomain", () => {
    expect(check(["*.example.com"], "https://a.example.com/")).toBe("https://a.example.com/");
    expect(check(["*.example.com"], "https://a.b.example.com/")).toBe("https://a.b.example.com/");
  });
});

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"], ["::1", "loopback"], ["::ffff:127.0.0.1", "loopback"],
    ["169.254.169.254", "cloud metadata"], ["fd00:ec2::254", "cloud metadata"], ["10.1.2.3", "private"],
    ["172.31.0.1", "private"], ["192.168.1.1", "private"], ["fd12::1", "private"], ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"], ["0.0.0.0", "unspecified"], ["::", "unspecified"], ["224.0.0.1", "multicast"],
    ["93.184.216.34", "public"], ["2606:4700::1111", "public"], ["172.32.0.1", "public"],
  ])("%s is %s", (ip, kind) => expect(classifyAddress(ip)).toBe(kind));
});
