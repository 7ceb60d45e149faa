import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { createCapabilities, DEFAULT_LIMITS } from "./index.js";
import type { FetchResult } from "./fetch-result.js";
import type { Resolver } from "./address-guard.js";
import { createTestContext, startHttpServer, type TestContext, type TestServer } from "./test-context.js";

const MB = 1024 * 1024;
/** A fake DNS: names tests make point at loopback or the metadata address. */
const resolve: Resolver = async (host) => {
  const table: Record<string, string> = {
    "rebind.test": "127.0.0.1",
    "meta.test": "169.254.169.254",
    "v6.test": "::1",
  };
  if (host in table) return [{ address: table[host], family: table[host].includes(":") ? 6 : 4 }];
  if (host === "localhost") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};
const caps = createCapabilities({ resolve, limits: { fetchConcurrent: 2 } });
const fetchOp = (args: object, t: TestContext) => caps.async.fetch(args, t.cx) as Promise<FetchResult>;
/** The response body's bytes, whichever way the host encoded them. */
const bytes = (r: FetchResult) => Buffer.from(r.body, r.bodyEncoding === "utf8" ? "utf8" : "base64");
const text = (r: FetchResult) => bytes(r).toString();

let server: TestServer;
let seen: { url: string; headers: IncomingMessage["headers"] }[] = [];
const zeros = (n: number) => Buffer.alloc(n);

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://x");
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    const body = Buffer.concat(chunks);
    const [, name, arg] = url.pathname.split("/");
    if (name === "echo") {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          method: req.method,
          headers: req.headers,
          length: body.length,
          body: body.toString().slice(0, 100),
        }),
      );
    } else if (name === "redirect") {
      res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/echo" });
      res.end();
    } else if (name === "chain") {
      const n = Number(arg);
      if (n > 0) res.writeHead(302, { location: `/chain/${n - 1}` }).end();
      else res.end("done");
    } else if (name === "bytes") {
      res.end(zeros(Number(arg)));
    } else if (name === "gzip") {
      res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(zeros(Number(arg))));
    } else if (name === "binary") {
      res.end(Buffer.from([0xff, 0x00, 0xc0]));
    } else if (name === "cookie") {
      res.writeHead(200, { "set-cookie": ["a=1; Path=/", "b=2; Path=/"] }).end("ok");
    } else if (name === "drip") {
      // One byte every 100 ms, forever: each read makes progress, so only an overall deadline ends it.
      res.writeHead(200);
      const timer = setInterval(() => res.write("x"), 100);
      req.socket.on("close", () => {
        clearInterval(timer);
        seen.push({ url: "drip closed", headers: {} });
      });
    } else if (name === "slow") {
      res.writeHead(200).write("partial");
      req.socket.on("close", () => seen.push({ url: "closed", headers: {} }));
    } else {
      res.writeHead(404).end();
    }
  });
}

let t: TestContext;
/** The manifest entry for the test server: a port other than 80 must be listed with the host. */
const local = () => `127.0.0.1:${server.port}`;
beforeAll(async () => {
  server = await startHttpServer(route);
});
afterAll(() => server.close());
afterEach(() => {
  t?.cleanup();
  seen = [];
});

function context(network: string[]): TestContext {
  t = createTestContext({ network });
  return t;
}

describe("fetch", () => {
  it("returns a body that is valid UTF-8 as text, and any other body as base64", async () => {
    const tc = context([local()]);
    expect(await fetchOp({ requestId: 1, url: server.url("/binary") }, tc)).toMatchObject({
      body: "/wDA",
      bodyEncoding: "base64",
    });
    expect(await fetchOp({ requestId: 2, url: server.url("/cookie") }, tc)).toMatchObject({
      body: "ok",
      bodyEncoding: "utf8",
    });
  });

  it("sends a UTF-8 text body of exactly 10 MB; refuses one byte more", async () => {
    const tc = context([local()]);
    const r = await fetchOp(
      { requestId: 1, url: server.url("/echo"), method: "POST", body: "é".repeat(5 * MB), bodyEncoding: "utf8" },
      tc,
    );
    expect(JSON.parse(text(r)).length).toBe(10 * MB);
    await expect(
      fetchOp(
        {
          requestId: 2,
          url: server.url("/echo"),
          method: "POST",
          body: "é".repeat(5 * MB) + "a",
          bodyEncoding: "utf8",
        },
        tc,
      ),
    ).rejects.toThrow("fetch: request body is over the limit of 10 MB (10485760 bytes)");
  });

  it("performs the request and returns status, headers, body and the final URL", async () => {
    const r = await fetchOp(
      {
        requestId: 1,
        url: server.url("/echo"),
        method: "put",
        headers: [["x-a", "1"]],
        body: Buffer.from("hello").toString("base64"),
      },
      context([local()]),
    );
    expect(r).toMatchObject({ status: 200, statusText: "OK", url: server.url("/echo"), redirected: false });
    expect(JSON.parse(text(r))).toMatchObject({ method: "PUT", length: 5, body: "hello", headers: { "x-a": "1" } });
    expect(r.headers).toContainEqual(["content-type", "application/json"]);
  });

  it("does not let the guest choose Host or framing headers, and sends no ambient cookies", async () => {
    const tc = context([local()]);
    await fetchOp({ requestId: 1, url: server.url("/cookie") }, tc);
    const r = await fetchOp(
      {
        requestId: 2,
        url: server.url("/echo"),
        headers: [
          ["Host", "evil.example"],
          ["Transfer-Encoding", "chunked"],
          ["Proxy-Authorization", "x"],
        ],
      },
      tc,
    );
    const headers = JSON.parse(text(r)).headers;
    expect(headers.host).toBe(`127.0.0.1:${server.port}`);
    expect(headers).not.toHaveProperty("cookie");
    expect(headers).not.toHaveProperty("proxy-authorization");
    expect(headers).not.toHaveProperty("transfer-encoding");
  });

  it("returns every Set-Cookie line to the guest", async () => {
    const r = await fetchOp({ requestId: 1, url: server.url("/cookie") }, context([local()]));
    expect(r.headers.filter(([n]) => n === "set-cookie")).toEqual([
      ["set-cookie", "a=1; Path=/"],
      ["set-cookie", "b=2; Path=/"],
    ]);
  });

  it("ignores proxy settings in the environment", async () => {
    process.env.HTTP_PROXY = "http://127.0.0.1:9";
    try {
      const r = await fetchOp({ requestId: 1, url: server.url("/echo") }, context([local()]));
      expect(r.status).toBe(200);
    } finally {
      delete process.env.HTTP_PROXY;
    }
  });

  it("rejects bad arguments with a message naming the field", async () => {
    const tc = context([local()]);
    await expect(fetchOp({ requestId: 1 }, tc)).rejects.toThrow('fetch: "url" should be a string');
    await expect(fetchOp({ requestId: 1, url: server.url(), method: "TRACE" }, tc)).rejects.toThrow(
      "fetch: the TRACE method is not allowed",
    );
    await expect(fetchOp({ requestId: 1, url: server.url(), body: "aGk=" }, tc)).rejects.toThrow(
      "fetch: a GET request cannot have a body",
    );
    await expect(fetchOp({ requestId: 1, url: server.url(), method: "POST", body: "not base64!" }, tc)).rejects.toThrow(
      "fetch: request body should be base64",
    );
    await expect(fetchOp({ requestId: 1, url: server.url(), headers: [["x", "a\r\nb"]] }, tc)).rejects.toThrow(
      'fetch: the value of header "x" contains a line break or NUL',
    );
    await expect(fetchOp({ requestId: 1, url: server.url(), redirect: "sometimes" }, tc)).rejects.toThrow(
      'fetch: "redirect" should be one of "follow", "manual", "error"',
    );
    await expect(caps.async.fetch("nope", tc.cx)).rejects.toThrow("fetch: arguments should be an object");
  });

  it("accepts 256 headers and a 65536-character URL, refuses one more of either", async () => {
    const tc = context([local()]);
    const headers = (n: number) => Array.from({ length: n }, (_, i) => [`x-h${i}`, "v"]);
    expect((await fetchOp({ requestId: 1, url: server.url("/echo"), headers: headers(256) }, tc)).status).toBe(200);
    await expect(fetchOp({ requestId: 2, url: server.url("/echo"), headers: headers(257) }, tc)).rejects.toThrow(
      "fetch: at most 256 headers are allowed",
    );
    const base = server.url("/echo?q=");
    const long = (n: number) => base + "a".repeat(n - base.length);
    expect((await fetchOp({ requestId: 3, url: long(65_536) }, tc)).status).toBe(431);
    await expect(fetchOp({ requestId: 4, url: long(65_537) }, tc)).rejects.toThrow(
      'fetch: "url" should be at most 65536 characters long',
    );
  });
});

describe("red team: redirects", () => {
  it("to a host not in the list is denied at that hop", async () => {
    const tc = context([local()]);
    await expect(fetchOp({ requestId: 1, url: server.url("/redirect?to=http://evil.example/") }, tc)).rejects.toThrow(
      'fetch to evil.example denied: "evil.example" is not in permissions.network',
    );
    expect(tc.denials).toHaveLength(1);
  });

  it("to a listed name that is another origin on the same machine is denied when only the IP is listed", async () => {
    await expect(
      fetchOp(
        { requestId: 1, url: server.url(`/redirect?to=http://localhost:${server.port}/echo`) },
        context([local()]),
      ),
    ).rejects.toThrow(`fetch to localhost:${server.port} denied: "localhost" is not in permissions.network`);
  });

  it.each(["file:///etc/passwd", "data:text/plain,secret", "ftp://127.0.0.1/x"])("to %s is refused", async (to) => {
    await expect(
      fetchOp({ requestId: 1, url: server.url(`/redirect?to=${encodeURIComponent(to)}`) }, context([local()])),
    ).rejects.toThrow("denied: only http and https URLs are allowed");
  });

  it("follows 20 hops and fails on the 21st", async () => {
    const tc = context([local()]);
    const r = await fetchOp({ requestId: 1, url: server.url("/chain/20") }, tc);
    expect([text(r), r.redirected, r.url]).toEqual(["done", true, server.url("/chain/0")]);
    await expect(fetchOp({ requestId: 2, url: server.url("/chain/21") }, tc)).rejects.toThrow(
      "fetch: too many redirects (more than 20)",
    );
  });

  it('"manual" returns the 3xx with its Location; "error" rejects', async () => {
    const tc = context([local()]);
    const r = await fetchOp(
      { requestId: 1, url: server.url("/redirect?to=http://evil.example/"), redirect: "manual" },
      tc,
    );
    expect(r.status).toBe(302);
    expect(r.headers).toContainEqual(["location", "http://evil.example/"]);
    expect(tc.denials).toEqual([]);
    await expect(fetchOp({ requestId: 2, url: server.url("/redirect"), redirect: "error" }, tc)).rejects.toThrow(
      'answered with a redirect (302) and redirect is "error"',
    );
  });

  it("303 turns a POST into a GET without body; 307 keeps method and body", async () => {
    const tc = context([local()]);
    const body = Buffer.from("payload").toString("base64");
    const headers = [["content-type", "text/plain"]];
    const a = JSON.parse(
      text(await fetchOp({ requestId: 1, url: server.url("/redirect?status=303"), method: "POST", body, headers }, tc)),
    );
    expect([a.method, a.length, a.headers["content-type"]]).toEqual(["GET", 0, undefined]);
    const b = JSON.parse(
      text(await fetchOp({ requestId: 2, url: server.url("/redirect?status=307"), method: "POST", body, headers }, tc)),
    );
    expect([b.method, b.body]).toEqual(["POST", "payload"]);
  });

  it("drops Authorization and Cookie when a redirect changes origin", async () => {
    const tc = context([local(), `localhost:${server.port}`]);
    const headers = [
      ["authorization", "Bearer secret"],
      ["cookie", "s=1"],
      ["x-keep", "1"],
    ];
    const r = await fetchOp(
      { requestId: 1, url: server.url(`/redirect?to=http://localhost:${server.port}/echo`), headers },
      tc,
    );
    const seenHeaders = JSON.parse(text(r)).headers;
    expect(seenHeaders.authorization).toBeUndefined();
    expect(seenHeaders.cookie).toBeUndefined();
    expect(seenHeaders["x-keep"]).toBe("1");
  });
});

describe("red team: DNS rebinding", () => {
  it("a listed name resolving to loopback is refused at connect time", async () => {
    const tc = context([`rebind.test:${server.port}`]);
    await expect(fetchOp({ requestId: 1, url: `http://rebind.test:${server.port}/echo` }, tc)).rejects.toThrow(
      'fetch to rebind.test denied: "rebind.test" resolves to 127.0.0.1, a loopback address, which only a listed IP literal may reach (add "127.0.0.1" to svc.permissions.network in package.json)',
    );
    expect(seen).toEqual([]);
  });

  it("a listed name resolving to the metadata address or IPv6 loopback is refused", async () => {
    await expect(
      fetchOp({ requestId: 1, url: "http://meta.test/latest/meta-data/" }, context(["meta.test"])),
    ).rejects.toThrow("a cloud metadata address");
    await expect(fetchOp({ requestId: 1, url: "http://v6.test/" }, context(["v6.test"]))).rejects.toThrow(
      "resolves to ::1, a loopback address",
    );
  });

  it("is allowed when the manifest lists the IP literal too", async () => {
    const r = await fetchOp(
      { requestId: 1, url: `http://rebind.test:${server.port}/echo` },
      context([`rebind.test:${server.port}`, "127.0.0.1"]),
    );
    expect(JSON.parse(text(r)).headers.host).toBe(`rebind.test:${server.port}`);
  });

  it("localhost listed itself reaches loopback; a wildcard never stands for it", async () => {
    expect(
      (
        await fetchOp(
          { requestId: 1, url: `http://localhost:${server.port}/echo` },
          context([`localhost:${server.port}`]),
        )
      ).status,
    ).toBe(200);
    t.cleanup();
    await expect(
      fetchOp(
        { requestId: 1, url: `http://rebind.test:${server.port}/echo` },
        context([`rebind.test:${server.port}`, "localhost"]),
      ),
    ).rejects.toThrow("a loopback address");
  });
});

describe("body limits", () => {
  it("a response of exactly 10 MB is delivered; one byte more is refused", async () => {
    const tc = context([local()]);
    const r = await fetchOp({ requestId: 1, url: server.url(`/bytes/${10 * MB}`) }, tc);
    expect(bytes(r).length).toBe(10 * MB);
    await expect(fetchOp({ requestId: 2, url: server.url(`/bytes/${10 * MB + 1}`) }, tc)).rejects.toThrow(
      `fetch: the response body from 127.0.0.1:${server.port} is over the limit of 10 MB (10485760 bytes)`,
    );
  });

  it("the response limit counts bytes after decompression (gzip bomb)", async () => {
    const tc = context([local()]);
    expect(bytes(await fetchOp({ requestId: 1, url: server.url(`/gzip/${10 * MB}`) }, tc)).length).toBe(10 * MB);
    await expect(fetchOp({ requestId: 2, url: server.url(`/gzip/${10 * MB + 1}`) }, tc)).rejects.toThrow(
      "is over the limit of 10 MB",
    );
  });

  it("a request body of exactly 10 MB is sent; one byte more is refused before connecting", async () => {
    const tc = context([local()]);
    const r = await fetchOp(
      { requestId: 1, url: server.url("/echo"), method: "POST", body: zeros(10 * MB).toString("base64") },
      tc,
    );
    expect(JSON.parse(text(r)).length).toBe(10 * MB);
    seen = [];
    await expect(
      fetchOp(
        { requestId: 2, url: server.url("/echo"), method: "POST", body: zeros(10 * MB + 1).toString("base64") },
        tc,
      ),
    ).rejects.toThrow("fetch: request body is over the limit of 10 MB (10485760 bytes)");
    expect(seen).toEqual([]);
  });

  it("defaults are the documented ones", () => {
    expect(DEFAULT_LIMITS).toMatchObject({
      fetchRequestBytes: 10 * MB,
      fetchResponseBytes: 10 * MB,
      fetchMaxRedirects: 20,
      fetchConcurrent: 16,
    });
  });
});

describe("the overall deadline", () => {
  it("a body dripping one byte every 100 ms is stopped at fetchTimeoutMs, and the connection closed", async () => {
    const quick = createCapabilities({ limits: { fetchTimeoutMs: 800 } });
    const tc = context([local()]);
    const from = seen.length;
    const started = Date.now();
    await expect(quick.async.fetch({ requestId: 1, url: server.url("/drip") }, tc.cx)).rejects.toThrow(
      `fetch: 127.0.0.1:${server.port} did not answer in full within 800 ms; the request was stopped`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(790);
    await expect.poll(() => seen.slice(from).map((s) => s.url), { timeout: 10_000 }).toContain("drip closed");
  });

  it("defaults to 30 s", () => {
    expect(DEFAULT_LIMITS.fetchTimeoutMs).toBe(30_000);
  });
});

describe("abort and concurrency", () => {
  it("fetch.abort cancels the host request", async () => {
    const tc = context([local()]);
    const from = seen.length;
    const pending = fetchOp({ requestId: "r1", url: server.url("/slow") }, tc);
    await expect.poll(() => seen.slice(from).map((s) => s.url), { timeout: 10_000 }).toContain("/slow");
    expect(caps.sync["fetch.abort"]({ requestId: "r1" }, tc.cx)).toBeNull();
    await expect(pending).rejects.toThrow("fetch: the request was aborted");
    await expect.poll(() => seen.slice(from).map((s) => s.url), { timeout: 10_000 }).toContain("closed");
  });

  it("disposing the sandbox aborts requests in flight", async () => {
    const tc = context([local()]);
    const from = seen.length;
    const pending = fetchOp({ requestId: 1, url: server.url("/slow") }, tc);
    await expect.poll(() => seen.slice(from).map((s) => s.url), { timeout: 10_000 }).toContain("/slow");
    tc.dispose();
    await expect(pending).rejects.toThrow("fetch: the request was aborted");
    await expect(fetchOp({ requestId: 2, url: server.url("/echo") }, tc)).rejects.toThrow(
      "fetch: the sandbox is closing",
    );
  });

  it("allows the configured number of requests in flight and refuses one more", async () => {
    const tc = context([local()]);
    const a = fetchOp({ requestId: 1, url: server.url("/slow") }, tc);
    const b = fetchOp({ requestId: 2, url: server.url("/slow") }, tc);
    await expect(fetchOp({ requestId: 3, url: server.url("/echo") }, tc)).rejects.toThrow(
      "fetch: 2 requests are already in flight; wait for one to finish",
    );
    tc.dispose();
    await expect(a).rejects.toThrow("aborted");
    await expect(b).rejects.toThrow("aborted");
  });
});
