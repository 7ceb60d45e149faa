/**
 * `POST /v1/hooks/<extension-id>` (SPEC.md "Local HTTP server", "Held webhook request";
 * DESIGN.md: 202 without ?await, 404 unknown, 403 without triggers.webhook, ?await 0–600).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

/** Resolves once the hook target has been handed `count` deliveries. */
async function deliveries(count: number) {
  for (let i = 0; i < 200 && h.hooks.deliveries.length < count; i++) await new Promise((r) => setTimeout(r, 5));
  expect(h.hooks.deliveries.length).toBe(count);
  return h.hooks.deliveries;
}

describe("without ?await", () => {
  it("delivers the body and answers 202 {ok: true}", async () => {
    const before = Date.now();
    const answer = await h.call("POST", "/v1/hooks/com.example.ci", { body: { ref: "main", commits: [1, 2] } });
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ ok: true });
    const [delivery] = h.hooks.deliveries;
    expect(delivery).toEqual({
      extensionId: "com.example.ci",
      body: { ref: "main", commits: [1, 2] },
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Date.parse(delivery.receivedAt)).toBeGreaterThanOrEqual(before);
    expect(delivery.replyId).toBeUndefined();
  });

  it("answers 404 for an unknown extension and 403 for one without triggers.webhook", async () => {
    const unknown = await h.call("POST", "/v1/hooks/com.example.nobody", { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'no extension "com.example.nobody"' });
    const quiet = await h.call("POST", "/v1/hooks/com.example.quiet", { body: {} });
    expect(quiet.status).toBe(403);
    expect(quiet.json).toEqual({
      error: 'com.example.quiet does not take webhooks: its manifest needs "triggers": {"webhook": true}',
    });
    expect(h.hooks.deliveries).toEqual([]);
  });

  it("answers 503 when delivery throws, and still 202 when it rejects later", async () => {
    h.hooks.onDeliver = () => {
      throw new Error("runtime is restarting");
    };
    const thrown = await h.call("POST", "/v1/hooks/com.example.ci", { body: {} });
    expect(thrown.status).toBe(503);
    expect(thrown.json).toEqual({ error: "could not deliver to com.example.ci: runtime is restarting" });
    h.hooks.onDeliver = () => Promise.reject(new Error("crashed"));
    const rejected = await h.call("POST", "/v1/hooks/com.example.ci", { body: {} });
    expect(rejected.status).toBe(202);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.logs).toContain("warn: com.example.ci could not take the event: crashed");
  });
});

describe("?await", () => {
  it("refuses anything but a whole number 0–600: 400", async () => {
    for (const value of ["601", "-1", "1.5", "abc", "", "1e2", " 5", "0x10", "99999"]) {
      const answer = await h.call("POST", `/v1/hooks/com.example.ci?await=${encodeURIComponent(value)}`, { body: {} });
      expect(answer.status, value).toBe(400);
      expect(answer.json.error).toMatch(/^\?await should be a whole number of seconds from 0 to 600/);
    }
    const twice = await h.call("POST", "/v1/hooks/com.example.ci?await=1&await=2", { body: {} });
    expect(twice.status).toBe(400);
    expect(h.hooks.deliveries).toEqual([]);
  });

  it("accepts 600 (the limit) and holds the request until the extension responds", async () => {
    const pending = h.call("POST", "/v1/hooks/com.example.ci?await=600", { body: { q: 1 } });
    const [delivery] = await deliveries(1);
    expect(delivery.replyId).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.server.respond({ replyId: delivery.replyId!, status: 201, body: { answer: 42 } })).toBe(true);
    const answer = await pending;
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ answer: 42 });
    expect(h.server.respond({ replyId: delivery.replyId!, status: 200, body: {} })).toBe(false);
  });

  it("answers 204 with an empty body when the wait runs out", async () => {
    const started = Date.now();
    const answer = await h.call("POST", "/v1/hooks/com.example.ci?await=1", { body: {} });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe("");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    const [delivery] = h.hooks.deliveries;
    expect(h.server.respond({ replyId: delivery.replyId!, status: 200, body: {} })).toBe(false);
  });

  it("with ?await=0 answers 204 at once unless the extension answered during delivery", async () => {
    expect((await h.call("POST", "/v1/hooks/com.example.ci?await=0", { body: {} })).status).toBe(204);
    h.hooks.onDeliver = (d) => void h.server.respond({ replyId: d.replyId!, status: 200, body: "fast" });
    const fast = await h.call("POST", "/v1/hooks/com.example.ci?await=0", { body: {} });
    expect(fast.status).toBe(200);
    expect(fast.json).toBe("fast");
  });

  it("sends the extension's status without a body for 204, or when the body is undefined", async () => {
    const pending = h.call("POST", "/v1/hooks/com.example.ci?await=5", { body: {} });
    const [delivery] = await deliveries(1);
    h.server.respond({ replyId: delivery.replyId!, status: 202, body: undefined });
    const answer = await pending;
    expect(answer.status).toBe(202);
    expect(answer.text).toBe("");
  });

  it("answers 502 when the extension gives a status HTTP cannot carry", async () => {
    const pending = h.call("POST", "/v1/hooks/com.example.ci?await=5", { body: {} });
    const [delivery] = await deliveries(1);
    h.server.respond({ replyId: delivery.replyId!, status: 101, body: {} });
    const answer = await pending;
    expect(answer.status).toBe(502);
    expect(answer.json).toEqual({ error: "the extension answered with status 101; use 200–599" });
  });

  it("answers 502 at once when delivery to a waiting client fails", async () => {
    h.hooks.onDeliver = () => Promise.reject(new Error("extension crashed"));
    const answer = await h.call("POST", "/v1/hooks/com.example.ci?await=30", { body: {} });
    expect(answer.status).toBe(502);
    expect(answer.json).toEqual({ error: "com.example.ci could not take the event: extension crashed" });
  });

  it("checks the extension before holding: 404 and 403 come at once", async () => {
    expect((await h.call("POST", "/v1/hooks/com.example.nobody?await=30", { body: {} })).status).toBe(404);
    expect((await h.call("POST", "/v1/hooks/com.example.quiet?await=30", { body: {} })).status).toBe(403);
  });

  it("releases held requests with 503 when the server closes", async () => {
    const pending = [
      h.call("POST", "/v1/hooks/com.example.ci?await=600", { body: {} }),
      h.call("POST", "/v1/hooks/com.example.ci?await=600", { body: {} }),
    ];
    await deliveries(2);
    await h.server.close();
    for (const answer of await Promise.all(pending)) {
      expect(answer.status).toBe(503);
      expect(answer.json).toEqual({ error: "svc is shutting down; try again when it is back" });
    }
  });

  it("forgets a held request whose client went away", async () => {
    const controller = new AbortController();
    const pending = fetch(`${h.server.url}/v1/hooks/com.example.ci?await=600`, {
      method: "POST",
      headers: { Authorization: `Bearer ${h.server.token}`, "Content-Type": "application/json" },
      body: "{}",
      signal: controller.signal,
    }).catch((error: Error) => error.name);
    const [delivery] = await deliveries(1);
    controller.abort();
    expect(await pending).toBe("AbortError");
    await new Promise((r) => setTimeout(r, 50));
    expect(h.server.respond({ replyId: delivery.replyId!, status: 200, body: {} })).toBe(false);
  });
});
