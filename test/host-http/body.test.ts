/**
 * Request bodies (DESIGN.md HTTP table): `application/json` only (415), at most 1 MB (413 past
 * it, 1 MB itself accepted), JSON only (400 `invalid JSON: …`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressBlip, startHarness, type Harness } from "./harness.js";

const MB = 1_048_576;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** `value` as JSON, padded with trailing whitespace (still valid JSON) to exactly `bytes`. */
function jsonOfSize(value: unknown, bytes: number): string {
  const json = JSON.stringify(value);
  expect(Buffer.byteLength(json)).toBeLessThan(bytes);
  return json + " ".repeat(bytes - Buffer.byteLength(json));
}

describe("Content-Type", () => {
  const routes: Array<[string, string]> = [
    ["POST", "/v1/blips"],
    ["POST", "/v1/hooks/com.example.ci"],
    ["POST", "/v1/blips/x/end"],
  ];

  it("refuses a body without application/json: 415", async () => {
    for (const [method, path] of routes) {
      for (const type of [
        undefined,
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/jsonx",
        "multipart/form-data; boundary=x",
      ]) {
        const headers: Record<string, string> = type ? { "Content-Type": type } : {};
        const answer = await h.call(method, path, { rawBody: '{"title":"x"}', headers });
        expect(answer.status, `${path} ${type}`).toBe(415);
        expect(answer.json.error).toMatch(/send the body as Content-Type: application\/json$/);
      }
    }
    expect(h.store.list()).toEqual([]);
    expect(h.hooks.deliveries).toEqual([]);
  });

  it("refuses POST /v1/blips and hooks without a Content-Type even when empty: 415", async () => {
    expect((await h.call("POST", "/v1/blips")).status).toBe(415);
    expect((await h.call("POST", "/v1/hooks/com.example.ci")).status).toBe(415);
  });

  it("accepts application/json with parameters and a UTF-8 charset, refuses another charset", async () => {
    const ok = await h.call("POST", "/v1/hooks/com.example.ci", {
      rawBody: "{}",
      headers: { "Content-Type": "Application/JSON; charset=UTF-8" },
    });
    expect(ok.status).toBe(202);
    const latin = await h.call("POST", "/v1/hooks/com.example.ci", {
      rawBody: "{}",
      headers: { "Content-Type": "application/json; charset=latin1" },
    });
    expect(latin.status).toBe(415);
    expect(latin.json.error).toBe('charset "latin1" is not supported: send UTF-8 JSON');
  });

  it("refuses a compressed body: 415", async () => {
    const answer = await h.call("POST", "/v1/hooks/com.example.ci", {
      rawBody: "{}",
      headers: { "Content-Type": "application/json", "Content-Encoding": "gzip" },
    });
    expect(answer.status).toBe(415);
  });
});

describe("size limit: 1 MB", () => {
  it("accepts a push of exactly 1 MB (1048576 bytes)", async () => {
    const body = jsonOfSize(progressBlip({ id: "big" }), MB);
    const answer = await h.call("POST", "/v1/blips", {
      rawBody: body,
      headers: { "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.blips).toEqual([{ id: "webhook/big", seq: 1 }]);
  });

  it("refuses a push of 1 MB + 1 byte: 413, nothing stored", async () => {
    const body = jsonOfSize(progressBlip({ id: "bigger" }), MB + 1);
    const answer = await h.call("POST", "/v1/blips", {
      rawBody: body,
      headers: { "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ error: "the body is over 1 MB (1048576 bytes)" });
    expect(h.store.get("webhook/bigger")).toBeUndefined();
  });

  it("accepts a hook body of exactly 1 MB and refuses 1 MB + 1", async () => {
    const before = h.hooks.deliveries.length;
    const pad = (n: number) => jsonOfSize({ pad: "x".repeat(n) }, MB);
    const exact = await h.call("POST", "/v1/hooks/com.example.ci", {
      rawBody: pad(MB - 100),
      headers: { "Content-Type": "application/json" },
    });
    expect(exact.status).toBe(202);
    const over = await h.call("POST", "/v1/hooks/com.example.ci", {
      rawBody: `${pad(MB - 100)} `,
      headers: { "Content-Type": "application/json" },
    });
    expect(over.status).toBe(413);
    expect(h.hooks.deliveries.length).toBe(before + 1);
  });

  it("refuses an oversized chunked body (no Content-Length): 413", async () => {
    const chunk = "x".repeat(64 * 1024);
    let text =
      `POST /v1/hooks/com.example.ci HTTP/1.1\r\nHost: 127.0.0.1:${h.server.port}\r\nAuthorization: Bearer ${h.server.token}\r\n` +
      "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    text += `1\r\n"\r\n`;
    for (let sent = 0; sent <= MB; sent += chunk.length) text += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    text += `1\r\n"\r\n0\r\n\r\n`;
    const answer = await h.raw(text);
    expect(answer.status).toBe(413);
  });

  it("refuses a Content-Length over the limit without needing the body", async () => {
    const answer = await h.raw(
      `POST /v1/blips HTTP/1.1\r\nHost: 127.0.0.1:${h.server.port}\r\nAuthorization: Bearer ${h.server.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${MB + 1}\r\nConnection: close\r\n\r\n{`,
    );
    expect(answer.status).toBe(413);
  });
});

describe("JSON", () => {
  it("refuses a body that is not JSON: 400 invalid JSON: …", async () => {
    for (const path of ["/v1/blips", "/v1/hooks/com.example.ci", "/v1/blips/x/end"]) {
      const answer = await h.call("POST", path, {
        rawBody: "{title: nope",
        headers: { "Content-Type": "application/json" },
      });
      expect(answer.status, path).toBe(400);
      expect(answer.json.error).toMatch(/^invalid JSON: ./);
    }
  });

  it("refuses an empty body on POST /v1/blips and hooks", async () => {
    for (const path of ["/v1/blips", "/v1/hooks/com.example.ci"]) {
      const answer = await h.call("POST", path, { rawBody: "", headers: { "Content-Type": "application/json" } });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: "invalid JSON: the body is empty" });
    }
  });

  it("refuses bytes that are not UTF-8", async () => {
    const answer = await h.call("POST", "/v1/hooks/com.example.ci", {
      rawBody: new Uint8Array([0x22, 0xff, 0xfe, 0x22]),
      headers: { "Content-Type": "application/json" },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: "invalid JSON: the body is not valid UTF-8" });
  });

  it("takes any JSON value on the hook route: strings, numbers, null, arrays", async () => {
    const before = h.hooks.deliveries.length;
    for (const value of ['"hello"', "42", "null", "[1,2]", "true"]) {
      const answer = await h.call("POST", "/v1/hooks/com.example.ci", {
        rawBody: value,
        headers: { "Content-Type": "application/json" },
      });
      expect(answer.status).toBe(202);
    }
    expect(h.hooks.deliveries.slice(before).map((d) => d.body)).toEqual(["hello", 42, null, [1, 2], true]);
  });
});
