import { afterEach, describe, expect, it } from "vitest";
import {
  canonicalNetworkEntry,
  checkNetworkUrl,
  networkEntryClass,
  networkEntryText,
  parseNetworkPolicy,
} from "./network-policy.js";
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
    const policy = parseNetworkPolicy([
      "API.Example.COM.",
      "münchen.de",
      "*.Example.org",
      "2130706433",
      "::1",
      "[::FFFF:127.0.0.1]",
    ]);
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

  it("that are not a host (with an optional port) allow nothing and are reported", () => {
    const policy = parseNetworkPolicy([
      "https://a.example",
      "a.example:0",
      "a.example:65536",
      "u@a.example",
      "a.example/x",
      "*",
      "*.*.a.example",
      "*.10.0.0.1",
      "",
      "a b",
      "a:b",
    ]);
    expect(policy.patterns).toEqual([]);
    expect(policy.invalid).toHaveLength(11);
  });
});

describe("ports", () => {
  it("an entry without a port allows the scheme's own port only", () => {
    expect(check(["localhost"], "http://localhost/")).toBe("http://localhost/");
    expect(check(["localhost"], "https://localhost/")).toBe("https://localhost/");
    expect(check(["localhost"], "http://localhost:443/")).toBe(
      'denied: fetch to localhost:443 denied: "localhost" is listed, but not for port 443 (add "localhost:443" to svc.permissions.network in package.json)',
    );
    expect(check(["localhost"], "http://localhost:8080/")).toBe(
      'denied: fetch to localhost:8080 denied: "localhost" is listed, but not for port 8080 (add "localhost:8080" to svc.permissions.network in package.json)',
    );
  });

  it("a host:port entry allows that port (1 and 65535 are ports too)", () => {
    expect(check(["localhost:8080"], "http://localhost:8080/x")).toBe("http://localhost:8080/x");
    expect(check(["localhost:8080"], "http://localhost/")).toBe(
      'denied: fetch to localhost denied: "localhost" is listed, but not for port 80 (add "localhost" to svc.permissions.network in package.json)',
    );
    expect(check(["[::1]:65535", "*.example.com:8443"], "https://[::1]:65535/")).toBe("https://[::1]:65535/");
    expect(check(["*.example.com:8443"], "https://a.example.com:8443/")).toBe("https://a.example.com:8443/");
    expect(check(["*.example.com:8443"], "https://a.example.com/")).toContain("is listed, but not for port 443");
  });

  it("the WHATWG bad ports are refused whatever the manifest lists", () => {
    expect(check(["localhost:25"], "http://localhost:25/")).toBe(
      "denied: fetch to localhost:25 denied: port 25 is one browsers never connect to (it belongs to another protocol)",
    );
    expect(check(["mail.example:6667"], "http://mail.example:6667/")).toContain(
      "port 6667 is one browsers never connect to",
    );
    expect(check(["localhost:6667"], "ws://localhost:6667/", "websocket")).toBe(
      "denied: WebSocket to localhost:6667 denied: port 6667 is one browsers never connect to (it belongs to another protocol)",
    );
    expect(check(["localhost:6668"], "ws://localhost:6666/", "websocket")).toContain(
      "port 6666 is one browsers never connect to",
    );
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
    [
      "IPv4-mapped IPv6 loopback when 127.0.0.1 is listed",
      ["127.0.0.1"],
      "http://[::ffff:127.0.0.1]/",
      "[::ffff:7f00:1]",
    ],
    ["a listed name does not allow its address", ["localhost"], "http://127.0.0.1/", "127.0.0.1"],
    ["wildcard never matches IP literals", ["*.0.0.1"], "http://127.0.0.1/", "127.0.0.1"],
    ["empty list", [], "http://example.com/", "example.com"],
  ];
  for (const [name, entries, url, host] of cases) {
    it(name, () => {
      const message = check(entries, url);
      expect(message).toBe(
        `denied: fetch to ${host} denied: "${host}" is not in permissions.network (add "${host}" to svc.permissions.network in package.json)`,
      );
      expect(t.denials).toEqual([
        {
          kind: "fetch",
          target: host,
          reason: `"${host}" is not in permissions.network`,
          fix: `add "${host}" to svc.permissions.network in package.json`,
        },
      ]);
    });
  }

  it("userinfo naming the allowed host is refused, the real host named", () => {
    expect(check(["allowed.example"], "http://allowed.example@evil.example/")).toBe(
      "denied: fetch to evil.example denied: URLs carrying a user name or password are refused (send credentials in a header instead)",
    );
  });

  it("userinfo is refused even for an allowed host", () => {
    expect(check(["allowed.example"], "http://user:pw@allowed.example/")).toContain("denied");
    expect(t.denials).toEqual([
      {
        kind: "fetch",
        target: "allowed.example",
        reason: "URLs carrying a user name or password are refused",
        fix: "send credentials in a header instead",
      },
    ]);
  });

  it("non-http schemes are refused for fetch, non-ws schemes for WebSocket", () => {
    expect(check(["a.example"], "file:///etc/passwd")).toBe(
      "denied: fetch to file:///etc/passwd denied: only http and https URLs are allowed",
    );
    expect(check(["a.example"], "data:text/plain,hi")).toBe(
      "denied: fetch to data:text/plain,hi denied: only http and https URLs are allowed",
    );
    expect(check(["a.example"], "ws://a.example/")).toContain("only http and https");
    expect(check(["a.example"], "http://a.example/", "websocket")).toBe(
      "denied: WebSocket to http://a.example/ denied: only ws and wss URLs are allowed",
    );
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
    ["127.0.0.1", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["169.254.169.254", "cloud metadata"],
    ["fd00:ec2::254", "cloud metadata"],
    ["10.1.2.3", "private"],
    ["172.31.0.1", "private"],
    ["192.168.1.1", "private"],
    ["fd12::1", "private"],
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["93.184.216.34", "public"],
    ["2606:4700::1111", "public"],
    ["172.32.0.1", "public"],
    // IPv6 forms carrying an IPv4 address are as private as what they carry (red team).
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::169.254.169.254", "cloud metadata"],
    ["64:ff9b::a00:1", "private"],
    ["64:ff9b::5db8:d822", "public"],
    ["64:ff9b:1::5db8:d822", "private"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:a9fe:a9fe::", "cloud metadata"],
    ["2002:c0a8:101::1", "private"],
    ["2002:5db8:d822::1", "public"],
    ["::127.0.0.1", "loopback"],
    ["::a9fe:a9fe", "cloud metadata"],
    ["::5db8:d822", "reserved"],
    // Teredo: server 65.54.227.120; client 192.168.1.1 stored with its bits flipped (3f57:fefe).
    ["2001:0:4136:e378:8000:63bf:3f57:fefe", "private"],
    ["2001:0:7f00:1::1", "loopback"],
    ["2001:0:4136:e378:8000:63bf:a201:2bdd", "public"],
    ["fec0::1", "private"],
    ["feff::1", "private"],
  ])("%s is %s", (ip, kind) => expect(classifyAddress(ip)).toBe(kind));
});

describe("canonicalNetworkEntry: the value the fence enforces and the review shows", () => {
  it.each([
    ["2130706433:47811", "127.0.0.1:47811", "loopback"],
    ["2852039166", "169.254.169.254", "cloud metadata"],
    ["0xa9fea9fe", "169.254.169.254", "cloud metadata"],
    ["0x7f.1:8080", "127.0.0.1:8080", "loopback"],
    ["127.1", "127.0.0.1", "loopback"],
    ["0177.0.0.1", "127.0.0.1", "loopback"],
    ["017700000001", "127.0.0.1", "loopback"],
    ["0x7f000001", "127.0.0.1", "loopback"],
    ["127.0.0.1.", "127.0.0.1", "loopback"],
    ["0", "0.0.0.0", "unspecified"],
    ["10.1", "10.0.0.1", "private"],
    ["0xc0.0xa8.1.1", "192.168.1.1", "private"],
    ["169.254.1.1", "169.254.1.1", "link-local"],
    ["LOCALHOST", "localhost", "loopback"],
    ["localhost.", "localhost", "loopback"],
    ["localhost.:8080", "localhost:8080", "loopback"],
    ["::1", "[::1]", "loopback"],
    ["[0:0:0:0:0:0:0:1]:8080", "[::1]:8080", "loopback"],
    ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "loopback"],
    ["::ffff:169.254.169.254", "[::ffff:a9fe:a9fe]", "cloud metadata"],
    ["[::ffff:a9fe:a9fe]", "[::ffff:a9fe:a9fe]", "cloud metadata"],
    ["[64:ff9b::a9fe:a9fe]", "[64:ff9b::a9fe:a9fe]", "cloud metadata"],
    ["[fd00::1]", "[fd00::1]", "private"],
    ["[fe80::1]", "[fe80::1]", "link-local"],
    ["API.Example.COM.", "api.example.com", "public"],
    ["api.example.com:8443", "api.example.com:8443", "public"],
    ["8.8.8.8", "8.8.8.8", "public"],
    // A name reaches public addresses only, whatever its DNS says (address-guard.ts).
    ["app.localhost", "app.localhost", "public"],
    ["*.Example.org", "*.example.org", "public"],
  ])("%s is %s, %s", (raw, text, kind) => {
    const entry = canonicalNetworkEntry(raw)!;
    expect(networkEntryText(entry)).toBe(text);
    expect(networkEntryClass(entry)).toBe(kind);
  });

  it("is what parseNetworkPolicy keeps, so the fence allows exactly the address shown", () => {
    t = createTestContext();
    const policy = parseNetworkPolicy(["2130706433:47811"]);
    expect(checkNetworkUrl(t.cx, policy, "fetch", "http://127.0.0.1:47811/v1").href).toBe("http://127.0.0.1:47811/v1");
    expect(() => checkNetworkUrl(t.cx, policy, "fetch", "http://127.0.0.1:80/")).toThrow(
      'fetch to 127.0.0.1 denied: "127.0.0.1" is listed, but not for port 80',
    );
  });

  it("is undefined for what names no host (it allows nothing)", () => {
    for (const raw of ["0x7f.1.2.3.4", "http://a.com", "a.com/x", "*.127.0.0.1", "a.com:0", "a.com:65536", ""]) {
      expect(canonicalNetworkEntry(raw)).toBeUndefined();
    }
  });
});

describe("origins the person granted (a url option, from the host)", () => {
  /** Checks `url` against no manifest entries and `granted`. */
  function granted(origins: string[], url: string, kind: "fetch" | "websocket" = "fetch"): string {
    t = createTestContext({ network: [] });
    try {
      return checkNetworkUrl(t.cx, parseNetworkPolicy([], origins), kind, url).href;
    } catch (error) {
      return `denied: ${(error as Error).message}`;
    }
  }

  it("admit exactly their scheme, host and port", () => {
    const origins = ["https://calendar.google.com/calendar/ical/x/basic.ics"];
    expect(granted(origins, "https://CALENDAR.google.com./other")).toBe("https://calendar.google.com/other");
    expect(granted(origins, "http://calendar.google.com/")).toBe(
      'denied: fetch to calendar.google.com denied: "calendar.google.com" is listed, but not for port 80 (add "calendar.google.com" to svc.permissions.network in package.json)',
    );
    expect(granted(origins, "https://calendar.google.com:8443/")).toMatch(/is listed, but not for port 8443/);
    expect(granted(origins, "https://www.google.com/")).toMatch(/"www.google.com" is not in permissions.network/);
    expect(granted(["http://192.168.1.20:8123"], "http://192.168.1.20:8123/api/states")).toBe(
      "http://192.168.1.20:8123/api/states",
    );
  });

  it("a granted http origin does not admit https on its port, nor a WebSocket of the other scheme", () => {
    expect(granted(["http://127.0.0.1:8123"], "https://127.0.0.1:8123/")).toMatch(/^denied: /);
    expect(granted(["http://127.0.0.1:8123"], "ws://127.0.0.1:8123/socket", "websocket")).toBe(
      "ws://127.0.0.1:8123/socket",
    );
    expect(granted(["http://127.0.0.1:8123"], "wss://127.0.0.1:8123/socket", "websocket")).toMatch(/^denied: /);
  });

  it("make a granted IP literal or localhost reachable by the connect-time guard, like a listed one", () => {
    const policy = parseNetworkPolicy([], ["http://10.0.0.5:8080", "http://localhost:3000"]);
    expect(policy.listsAddress("10.0.0.5")).toBe(true);
    expect(policy.listsLocalhost).toBe(true);
    expect(parseNetworkPolicy([], []).listsAddress("10.0.0.5")).toBe(false);
  });

  it("admit nothing when they are not an http or https origin", () => {
    const policy = parseNetworkPolicy([], ["ftp://example.com", "https://user:pw@example.com", "not a url", ""]);
    expect(policy.granted).toEqual([]);
  });
});
