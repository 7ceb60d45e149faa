/**
 * `POST /v1/blips`, `POST /v1/blips/<id>/end`, `DELETE /v1/blips/<id>` against a real server
 * and store (SPEC.md "Local HTTP server" rules 1–5, DESIGN.md HTTP table).
 */
import { LIMITS } from "@svc/api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { progressBlip, startHarness, type Harness } from "./harness.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

describe("POST /v1/blips", () => {
  it("stores one payload with source webhook and answers 200 {ok, blips: [{id, seq}]}", async () => {
    const answer = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "deploy" }) });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ ok: true, blips: [{ id: "webhook/deploy", seq: 1 }] });
    const stored = h.store.get("webhook/deploy")!;
    expect(stored.source).toEqual({ kind: "webhook" });
    expect(stored.payload).toMatchObject({
      id: "webhook/deploy",
      title: "Deploy api",
      seq: 1,
      v: 1,
      layout: "progress",
      data: { fraction: 0.4, step: "Migrating" },
    });
  });

  it("fills v and emittedAt when left out, keeps them when given", async () => {
    const before = Date.now();
    await h.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "a" }), progressBlip({ id: "b", v: 1, emittedAt: "2025-03-01T09:30:00.000Z" })],
    });
    const a = h.store.get("webhook/a")!.payload;
    expect(a.v).toBe(1);
    expect(Date.parse(a.emittedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(h.store.get("webhook/b")!.payload.emittedAt).toBe("2025-03-01T09:30:00.000Z");
  });

  it("keeps an id that has a / and prefixes one that has none", async () => {
    const answer = await h.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "ci/build" }), progressBlip({ id: "webhook/x" }), progressBlip({ id: "plain" })],
    });
    expect(answer.json.blips.map((b: { id: string }) => b.id)).toEqual(["ci/build", "webhook/x", "webhook/plain"]);
  });

  it("makes a missing id from the title, lower-cased and hyphenated, under webhook/", async () => {
    const answer = await h.call("POST", "/v1/blips", {
      body: [progressBlip({ title: "Deploy API: v2!" }), progressBlip({ title: "  Größe   Prüfen " })],
    });
    expect(answer.json.blips).toEqual([
      { id: "webhook/deploy-api-v2", seq: 1 },
      { id: "webhook/größe-prüfen", seq: 1 },
    ]);
  });

  it("answers in request order for an array, and all or nothing", async () => {
    const ok = await h.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "z" }), progressBlip({ id: "a" }), progressBlip({ id: "m" })],
    });
    expect(ok.json.blips.map((b: { id: string }) => b.id)).toEqual(["webhook/z", "webhook/a", "webhook/m"]);
    const bad = await h.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "new1" }), progressBlip({ id: "new2", title: 5 })],
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'invalid payload at [1]: "title" should be a string' });
    expect(h.store.get("webhook/new1")).toBeUndefined();
    expect(h.store.lastSeq("webhook/new1")).toBe(0);
  });

  it("names the first invalid index and the field path in SPEC's form", async () => {
    const cases: Array<[unknown, string]> = [
      [progressBlip({ data: { fraction: "half" } }), 'invalid payload at [0]: "data.fraction" should be a number'],
      [
        [progressBlip(), progressBlip(), progressBlip({ icon: 7 })],
        'invalid payload at [2]: "icon" should be a string',
      ],
      [{ layout: "progress", data: { fraction: 0.1 } }, 'invalid payload at [0]: "title" should be a string'],
      [{ id: "x", layout: "progress", data: { fraction: 0.1 } }, 'invalid payload at [0]: "title" should be a string'],
      [[progressBlip(), "nope"], "invalid payload at [1]: payload should be an object"],
      [progressBlip({ seq: "3" }), 'invalid payload at [0]: "seq" should be a number'],
      [progressBlip({ seq: 1.5 }), 'invalid payload at [0]: "seq" should be an integer'],
    ];
    for (const [body, error] of cases) {
      const answer = await h.call("POST", "/v1/blips", { body });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error });
    }
    expect(h.store.list()).toEqual([]);
  });

  it("requires a layout and that layout's data", async () => {
    const noLayout = await h.call("POST", "/v1/blips", { body: { title: "x", data: {} } });
    expect(noLayout.status).toBe(400);
    expect(noLayout.json.error).toMatch(/^invalid payload at \[0\]: "layout" should be/);
    const noData = await h.call("POST", "/v1/blips", { body: { title: "x", layout: "progress" } });
    expect(noData.status).toBe(400);
    expect(noData.json.error).toBe('invalid payload at [0]: "data" should be an object');
  });

  it("refuses a title with nothing to make an id from, and an empty array", async () => {
    const symbols = await h.call("POST", "/v1/blips", { body: progressBlip({ title: "!!!" }) });
    expect(symbols.status).toBe(400);
    expect(symbols.json.error).toBe(
      'invalid payload at [0]: "id" should be given: the title "!!!" has no letter or digit to make one from',
    );
    const empty = await h.call("POST", "/v1/blips", { body: [] });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe("the body is an empty array: send one payload or an array of payloads");
  });

  it("stamps a missing seq, increasing per id, and updates the same id", async () => {
    const first = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "d" }) });
    const second = await h.call("POST", "/v1/blips", {
      body: [
        progressBlip({ id: "d", data: { fraction: 0.9 } }),
        progressBlip({ id: "other" }),
        progressBlip({ id: "d", data: { fraction: 1 } }),
      ],
    });
    expect(first.json.blips).toEqual([{ id: "webhook/d", seq: 1 }]);
    expect(second.json.blips).toEqual([
      { id: "webhook/d", seq: 2 },
      { id: "webhook/other", seq: 1 },
      { id: "webhook/d", seq: 3 },
    ]);
    expect(h.store.list().map((b) => b.id)).toEqual(["webhook/d", "webhook/other"]);
    expect(h.store.get("webhook/d")!.payload.data).toEqual({ fraction: 1 });
  });

  it("keeps a client's seq, and never lets an older seq replace a newer blip", async () => {
    await h.call("POST", "/v1/blips", { body: progressBlip({ id: "s", seq: 10, data: { fraction: 0.5 } }) });
    const stale = await h.call("POST", "/v1/blips", {
      body: progressBlip({ id: "s", seq: 9, data: { fraction: 0.1 } }),
    });
    expect(stale.status).toBe(200);
    expect(stale.json.blips).toEqual([{ id: "webhook/s", seq: 10 }]);
    expect(h.store.get("webhook/s")!.payload.data).toEqual({ fraction: 0.5 });
    const same = await h.call("POST", "/v1/blips", {
      body: progressBlip({ id: "s", seq: 10, data: { fraction: 0.2 } }),
    });
    expect(same.json.blips).toEqual([{ id: "webhook/s", seq: 10 }]);
    expect(h.store.get("webhook/s")!.payload.data).toEqual({ fraction: 0.5 });
    const stamped = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "s" }) });
    expect(stamped.json.blips).toEqual([{ id: "webhook/s", seq: 11 }]);
  });

  it("cuts oversized parts as the runtime would (truncation rule)", async () => {
    const stages = Array.from({ length: 8 }, (_, i) => ({ title: `S${i}`, state: "pending" }));
    await h.call("POST", "/v1/blips", { body: progressBlip({ id: "cut", data: { fraction: 0, stages } }) });
    expect((h.store.get("webhook/cut")!.payload.data as { stages: unknown[] }).stages).toHaveLength(6);
  });

  it("refuses to overwrite an extension's blip", async () => {
    h.store.applyUpdate({
      extensionId: "com.example.ci",
      payload: {
        id: "com.example.ci/build",
        seq: 4,
        v: 1,
        emittedAt: "2025-03-01T09:30:00.000Z",
        title: "Build",
        layout: "progress",
        data: { fraction: 0.1 },
      },
    });
    const answer = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "com.example.ci/build" }) });
    expect(answer.status).toBe(400);
    // com.example.ci is a known extension here, so its namespace is refused outright.
    expect(answer.json.error).toBe(
      'invalid payload at [0]: "id" com.example.ci/build is in the namespace of the extension com.example.ci: pushed blips cannot take an extension\'s namespace; use an id without "/" (it goes under webhook/) or another prefix',
    );
    expect(h.store.get("com.example.ci/build")!.seq).toBe(4);
  });

  it("refuses text that would take over a terminal: a pushed \\u001b[2J step, an OSC title, a bidi override", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { data: { fraction: 0.4, step: "\u001b[2J" } },
        '"data.step" should not contain U+001B (a control or bidi character; found at 0)',
      ],
      [
        { title: "\u001b]0;pwned\u0007\u001b[1A\u001b[2K" },
        '"title" should not contain U+001B (a control or bidi character; found at 0)',
      ],
      [
        { subtitle: "invoice\u202eexe.pdf" },
        '"subtitle" should not contain U+202E (a control or bidi character; found at 7)',
      ],
    ];
    for (const [extra, error] of cases) {
      const answer = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "inert", ...extra }) });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toBe(`invalid payload at [0]: ${error}`);
    }
    expect(h.store.getPushed("webhook/inert")).toBeUndefined();
  });

  it("refuses an id in a known extension's namespace, live blip or not (dev.svc.focus/fake posed as a twin)", async () => {
    h.hooks.extensions.set("dev.svc.focus", "no-webhook");
    const answer = await h.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "ok" }), progressBlip({ id: "dev.svc.focus/fake" })],
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe(
      'invalid payload at [1]: "id" dev.svc.focus/fake is in the namespace of the extension dev.svc.focus: pushed blips cannot take an extension\'s namespace; use an id without "/" (it goes under webhook/) or another prefix',
    );
    // All or nothing: the valid one was not stored either.
    expect(h.store.getPushed("webhook/ok")).toBeUndefined();
    // An id of its own, even one that looks like an extension id, is fine while no such extension exists.
    expect((await h.call("POST", "/v1/blips", { body: progressBlip({ id: "com.unknown.ext/x" }) })).status).toBe(200);
  });
});

describe("the cap on pushed blips (LIMITS.pushedBlips)", () => {
  const cap = LIMITS.pushedBlips;
  const full = `${cap} pushed blips are live, the most is ${cap}: end or remove one first (DELETE /v1/blips/<id>), or reuse an id`;
  const many = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => progressBlip({ id: `b${from + i}` }));

  it("stores up to the cap; one more new id is 409 with the reason, stores nothing and is logged", async () => {
    expect(cap).toBe(128);
    const first = await h.call("POST", "/v1/blips", { body: many(0, cap - 1) });
    expect(first.status).toBe(200);
    // One request that would end one past the cap: all or nothing.
    const past = await h.call("POST", "/v1/blips", { body: many(cap - 1, 2) });
    expect(past.status).toBe(409);
    expect(past.json).toEqual({
      error: `too many blips: ${cap - 1} pushed blips are live, the most is ${cap}: end or remove one first (DELETE /v1/blips/<id>), or reuse an id`,
    });
    expect(h.store.get(`webhook/b${cap - 1}`)).toBeUndefined();
    // At the cap exactly.
    expect((await h.call("POST", "/v1/blips", { body: many(cap - 1, 1) })).status).toBe(200);
    expect(h.store.list()).toHaveLength(cap);
    const over = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "one-more" }) });
    expect(over.status).toBe(409);
    expect(over.json).toEqual({ error: `too many blips: ${full}` });
    expect(h.store.get("webhook/one-more")).toBeUndefined();
    expect(h.logs).toContain(`warn: pushed blips not stored: ${full}`);
  });

  it("still updates, ends and removes live ones at the cap, and takes a new one once one is gone", async () => {
    expect((await h.call("POST", "/v1/blips", { body: many(0, cap) })).status).toBe(200);
    const update = await h.call("POST", "/v1/blips", { body: progressBlip({ id: "b3", title: "Again" }) });
    expect(update.json).toEqual({ ok: true, blips: [{ id: "webhook/b3", seq: 2 }] });
    expect((await h.call("POST", "/v1/blips/b4/end")).status).toBe(200);
    // An ended blip still shows: it counts until it is removed.
    expect((await h.call("POST", "/v1/blips", { body: progressBlip({ id: "new" }) })).status).toBe(409);
    expect((await h.call("DELETE", "/v1/blips/b4")).status).toBe(200);
    expect((await h.call("POST", "/v1/blips", { body: progressBlip({ id: "new" }) })).status).toBe(200);
    expect(h.store.list()).toHaveLength(cap);
  });
});

describe("POST /v1/blips/<id>/end", () => {
  beforeEach(async () => {
    await h.call("POST", "/v1/blips", { body: progressBlip({ id: "deploy" }) });
  });

  it("ends with or without the webhook/ prefix: 200 {ok, id, seq} with a new seq", async () => {
    const bare = await h.call("POST", "/v1/blips/deploy/end", { body: { state: "success" } });
    expect(bare.status).toBe(200);
    expect(bare.json).toEqual({ ok: true, id: "webhook/deploy", seq: 2 });
    expect(h.store.get("webhook/deploy")!.payload.state).toBe("success");
    expect(h.store.get("webhook/deploy")!.ended).toBeDefined();
    const prefixed = await h.call("POST", "/v1/blips/webhook/deploy/end", { body: { state: "failure" } });
    expect(prefixed.json).toEqual({ ok: true, id: "webhook/deploy", seq: 3 });
    const encoded = await h.call("POST", "/v1/blips/webhook%2Fdeploy/end", { body: {} });
    expect(encoded.json).toEqual({ ok: true, id: "webhook/deploy", seq: 4 });
    expect(h.store.get("webhook/deploy")!.payload.state).toBe("failure");
  });

  it("takes no body at all (no Content-Type needed) and keeps the state", async () => {
    const answer = await h.call("POST", "/v1/blips/deploy/end");
    expect(answer.status).toBe(200);
    expect(h.store.get("webhook/deploy")!.payload.state).toBe("running");
  });

  it("removes the blip dismissAfter seconds later", async () => {
    const answer = await h.call("POST", "/v1/blips/deploy/end", { body: { state: "success", dismissAfter: 0.2 } });
    expect(answer.status).toBe(200);
    expect(h.store.get("webhook/deploy")).toBeDefined();
    await expect.poll(() => h.store.get("webhook/deploy"), { timeout: 10_000 }).toBeUndefined();
  });

  it("checks state and dismissAfter: 400", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { state: "done" },
        /^invalid end: "state" should be one of idle, running, waiting, success, warning, failure, cancelled$/,
      ],
      [{ dismissAfter: -1 }, /^invalid end: "dismissAfter" should be a number of seconds, 0 or more$/],
      [{ dismissAfter: "30" }, /"dismissAfter" should be a number/],
      [[1], /should be an object/],
    ];
    for (const [body, error] of cases) {
      const answer = await h.call("POST", "/v1/blips/deploy/end", { body });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatch(error);
    }
    expect(h.store.get("webhook/deploy")!.seq).toBe(1);
  });

  it("answers 404 for an unknown id and for an extension's blip", async () => {
    const unknown = await h.call("POST", "/v1/blips/nope/end", { body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe('no pushed blip "nope"');
    h.store.applyUpdate({
      extensionId: "com.example.ci",
      payload: {
        id: "com.example.ci/build",
        seq: 1,
        v: 1,
        emittedAt: "2025-03-01T09:30:00.000Z",
        title: "Build",
        layout: "progress",
        data: { fraction: 0.1 },
      },
    });
    expect((await h.call("POST", "/v1/blips/com.example.ci/build/end", { body: {} })).status).toBe(404);
  });
});

describe("DELETE /v1/blips/<id>", () => {
  it("removes with or without the prefix: 200 {ok, id}", async () => {
    await h.call("POST", "/v1/blips", {
      body: [progressBlip({ id: "a" }), progressBlip({ id: "b" }), progressBlip({ id: "c/d" })],
    });
    expect((await h.call("DELETE", "/v1/blips/a")).json).toEqual({ ok: true, id: "webhook/a" });
    expect((await h.call("DELETE", "/v1/blips/webhook/b")).json).toEqual({ ok: true, id: "webhook/b" });
    expect((await h.call("DELETE", "/v1/blips/c%2Fd")).json).toEqual({ ok: true, id: "c/d" });
    expect(h.store.list()).toEqual([]);
  });

  it("answers 404 for an unknown id, and for one already removed", async () => {
    await h.call("POST", "/v1/blips", { body: progressBlip({ id: "a" }) });
    expect((await h.call("DELETE", "/v1/blips/a")).status).toBe(200);
    const again = await h.call("DELETE", "/v1/blips/a");
    expect(again.status).toBe(404);
    expect(again.json.error).toBe('no pushed blip "a"');
  });

  it("keeps the seq after removal, so a re-push continues from it", async () => {
    await h.call("POST", "/v1/blips", { body: progressBlip({ id: "a" }) });
    await h.call("DELETE", "/v1/blips/a");
    expect((await h.call("POST", "/v1/blips", { body: progressBlip({ id: "a" }) })).json.blips).toEqual([
      { id: "webhook/a", seq: 2 },
    ]);
  });
});
