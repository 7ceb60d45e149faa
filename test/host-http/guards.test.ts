/**
 * Rules every request passes (SPEC.md "Authentication", DESIGN.md HTTP table): bearer token,
 * no OPTIONS, loopback Host only, no Origin, no CORS header ever, unknown paths 404.
 */
import { networkInterfaces } from "node:os";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_PROOF_ROUTE, appProof, proveApp } from "@svc/runtime";
import { startHarness, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const request = (extra: string, method = "GET", path = "/v1/health") =>
  `${method} ${path} HTTP/1.1\r\n${extra}Connection: close\r\n\r\n`;

describe("health", () => {
  it("GET /v1/health answers {ok: true, version}", async () => {
    const answer = await h.call("GET", "/v1/health");
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, version: "9.9.9-test" });
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
  });

  it("other methods on /v1/health are 405 with Allow", async () => {
    const answer = await h.call("DELETE", "/v1/health");
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET");
    expect(answer.json.error).toMatch(/^DELETE is not allowed on \/v1\/health/);
  });
});

describe("the token proof (GET /v1/proof)", () => {
  const NONCE = "n".repeat(43);
  const ask = (nonce?: string, extra: Record<string, string> = {}) =>
    h.call("GET", APP_PROOF_ROUTE, {
      headers: { Authorization: "", ...(nonce === undefined ? {} : { "Svc-Proof-Nonce": nonce }), ...extra },
    });

  it("answers the HMAC of a 43-character nonce keyed by the token, without the token being sent", async () => {
    const answer = await ask(NONCE);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ proof: appProof(h.server.token, NONCE) });
    expect(answer.headers["cache-control"]).toBe("no-store");
    await expect(proveApp(h.server.port, h.server.token)).resolves.toBeUndefined();
  });

  it("refuses a nonce one character short or long, or none, in the same words", async () => {
    for (const nonce of [undefined, "n".repeat(42), "n".repeat(44), `${"n".repeat(42)}!`]) {
      const answer = await ask(nonce);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: "send svc-proof-nonce: 32 random bytes as base64url (43 characters)" });
    }
  });

  it("keeps the other guards: a page (Origin) or a foreign Host gets no proof", async () => {
    expect((await ask(NONCE, { Origin: "http://evil.example" })).status).toBe(403);
    const foreign = await h.raw(request(`Host: evil.example\r\nSvc-Proof-Nonce: ${NONCE}\r\n`, "GET", APP_PROOF_ROUTE));
    expect(foreign.status).toBe(403);
    expect((await h.call("POST", APP_PROOF_ROUTE)).status).toBe(405);
  });

  it("a client holding another token is told the port is not svc", async () => {
    await expect(proveApp(h.server.port, "another-token")).rejects.toThrow(
      `something else is answering on port ${h.server.port}: it is not svc (it could not prove it holds svc's key). Stop it, or start svc-host again.`,
    );
  });
});

describe("bearer token", () => {
  it("refuses a request without Authorization: 401 with WWW-Authenticate: Bearer", async () => {
    const answer = await h.call("GET", "/v1/health", { headers: { Authorization: "" } });
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toBe("Bearer");
    expect(answer.json.error).toMatch(/^missing bearer token/);
  });

  it("refuses a wrong token of the same length, and one of another length", async () => {
    const sameLength = h.server.token.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    for (const token of [sameLength, "short", `${h.server.token}x`]) {
      const answer = await h.call("GET", "/v1/health", { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toBe("Bearer");
      expect(answer.json.error).toMatch(/^wrong bearer token/);
    }
  });

  it("refuses other schemes", async () => {
    const answer = await h.call("GET", "/v1/health", { headers: { Authorization: `Basic ${h.server.token}` } });
    expect(answer.status).toBe(401);
  });

  it("accepts the scheme in any case", async () => {
    const answer = await h.call("GET", "/v1/health", { headers: { Authorization: `bearer ${h.server.token}` } });
    expect(answer.status).toBe(200);
  });

  it("guards every route, unknown ones included", async () => {
    for (const [method, path] of [
      ["POST", "/v1/blips"],
      ["POST", "/v1/blips/x/end"],
      ["DELETE", "/v1/blips/x"],
      ["POST", "/v1/hooks/com.example.ci"],
      ["GET", "/nowhere"],
    ]) {
      const answer = await h.call(method, path, {
        headers: { Authorization: "Bearer nope" },
        body: method === "GET" ? undefined : {},
      });
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
    expect(h.hooks.deliveries).toEqual([]);
  });
});

describe("OPTIONS and CORS", () => {
  it("answers every OPTIONS 405, token or not, with no Access-Control-* header", async () => {
    const preflight = await h.call("OPTIONS", "/v1/blips", {
      headers: {
        Authorization: "",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(preflight.status).toBe(405);
    const authed = await h.call("OPTIONS", "/v1/health");
    expect(authed.status).toBe(405);
    const star = await h.raw(
      request(`Host: 127.0.0.1:${h.server.port}\r\nOrigin: https://evil.example\r\n`, "OPTIONS", "*"),
    );
    expect(star.status).toBe(405);
    // `call` and `raw` assert that no response carries an Access-Control-* header.
  });
});

describe("Host header (DNS rebinding)", () => {
  it("accepts 127.0.0.1:<port> and localhost:<port>", async () => {
    for (const host of [`127.0.0.1:${h.server.port}`, `localhost:${h.server.port}`, `LOCALHOST:${h.server.port}`]) {
      const answer = await h.raw(request(`Host: ${host}\r\nAuthorization: Bearer ${h.server.token}\r\n`));
      expect(answer.status, host).toBe(200);
    }
  });

  it("refuses any other Host with 403, before the token is looked at", async () => {
    const hosts = [
      "evil.example",
      `evil.example:${h.server.port}`,
      "127.0.0.1",
      "localhost",
      `127.0.0.1:${h.server.port + 1}`,
      `[::1]:${h.server.port}`,
      `localhost.:${h.server.port}`,
    ];
    for (const host of hosts) {
      const answer = await h.raw(request(`Host: ${host}\r\nAuthorization: Bearer ${h.server.token}\r\n`));
      expect(answer.status, host).toBe(403);
      expect(answer.json.error).toContain(`send Host 127.0.0.1:${h.server.port} or localhost:${h.server.port}`);
    }
    const wrongToken = await h.raw(request("Host: evil.example\r\nAuthorization: Bearer nope\r\n"));
    expect(wrongToken.status).toBe(403);
  });

  it("refuses a request with no Host header (HTTP/1.0)", async () => {
    const answer = await h.raw(`GET /v1/health HTTP/1.0\r\nAuthorization: Bearer ${h.server.token}\r\n\r\n`);
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatch(/^no Host header/);
  });
});

describe("Origin header", () => {
  it("refuses any Origin with 403, even with the right token", async () => {
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1:" + h.server.port, ""]) {
      const answer = await h.raw(
        request(`Host: 127.0.0.1:${h.server.port}\r\nAuthorization: Bearer ${h.server.token}\r\nOrigin: ${origin}\r\n`),
      );
      expect(answer.status, origin).toBe(403);
      expect(answer.json).toEqual({ error: "requests from web pages (with an Origin header) are not allowed" });
    }
  });

  it("refuses a cross-origin-style push before anything is stored", async () => {
    const body = JSON.stringify({ title: "x", layout: "progress", data: { fraction: 0 } });
    const answer = await h.raw(
      `POST /v1/blips HTTP/1.1\r\nHost: localhost:${h.server.port}\r\nOrigin: https://evil.example\r\nAuthorization: Bearer ${h.server.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer.status).toBe(403);
    expect(h.store.list()).toEqual([]);
  });
});

describe("routing", () => {
  it("answers an unknown path 404 with a JSON error", async () => {
    for (const path of ["/", "/v1", "/v2/health", "/v1/hooks", "/v1/hooks/a/b", "/v1/blips-x"]) {
      const answer = await h.call("GET", path);
      expect(answer.status, path).toBe(404);
      expect(answer.json.error).toMatch(/^no route GET /);
    }
  });

  it("answers a wrong method on a known path 405", async () => {
    expect((await h.call("GET", "/v1/blips")).status).toBe(405);
    expect((await h.call("GET", "/v1/hooks/com.example.ci")).status).toBe(405);
    expect((await h.call("GET", "/v1/blips/x/end")).status).toBe(405);
    expect((await h.call("PUT", "/v1/blips/x")).status).toBe(405);
  });

  it("answers malformed HTTP 400 and keeps serving", async () => {
    const garbage = await h.raw("THIS IS NOT HTTP\r\n\r\n");
    expect(garbage.status).toBe(400);
    expect(garbage.json).toEqual({ error: "malformed HTTP request" });
    const badHeader = await h.raw(`GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${h.server.port}\r\nBad Header\r\n\r\n`);
    expect(badHeader.status).toBe(400);
    const hugeHeader = await h.raw(
      `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1:${h.server.port}\r\nX-Big: ${"x".repeat(20_000)}\r\n\r\n`,
    );
    expect(hugeHeader.status).toBe(431);
    expect(hugeHeader.json).toEqual({ error: "request headers are too large" });
    const badPercent = await h.call("POST", "/v1/hooks/%E0%A4%A", { body: {} });
    expect(badPercent.status).toBe(400);
    expect(badPercent.json.error).toBeTypeOf("string");
    expect((await h.call("GET", "/v1/health")).status).toBe(200);
  });
});

describe("binding", () => {
  it("listens on 127.0.0.1 only", async () => {
    expect(h.server.url).toBe(`http://127.0.0.1:${h.server.port}`);
    const reaches = (address: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect(h.server.port, address);
        socket.on("connect", () => (socket.destroy(), resolve(true)));
        socket.on("error", () => resolve(false));
      });
    expect(await reaches("127.0.0.1")).toBe(true);
    // Another loopback address (Linux answers all of 127/8) and every other interface: refused.
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && !i.internal)
      .map((i) => i!.address.split("%")[0]);
    for (const address of ["127.0.0.2", "::1", ...others]) expect(await reaches(address), address).toBe(false);
  });
});
