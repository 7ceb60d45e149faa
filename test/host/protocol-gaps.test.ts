/**
 * Held webhooks and events around reloads, through the real host and runtime: an event sent
 * while the extension reloads (a changed option, a host start, a runtime restart) waits for the
 * new load and gets the extension's answer, never a 502 or a 404; `ctx.setPreference(name,
 * null)` clears; `ctx.respond(replyId, null)` answers `null`; `receivedAt` is ISO 8601.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHost, useHostWorld, webhookInfo, writeExtension, type World } from "./harness.js";

const scene = useHostWorld();

const CODE = `
module.exports = { default: {
  async update(ctx) {},
  async onEvent(ctx, event) {
    const op = event.body.op;
    if (op === "set") await ctx.setPreference("count", event.body.value);
    if (op === "clear") await ctx.setPreference("count", null);
    if (!event.replyId) return;
    if (op === "null") return ctx.respond(event.replyId, null);
    await ctx.respond(event.replyId, { op, count: ctx.preferences.count, receivedAt: event.receivedAt }, 200);
  },
} };
`;

const SVC = {
  id: "test.gaps",
  title: "Gaps",
  triggers: { webhook: true },
  preferences: [{ name: "count", title: "Count", type: "number", default: 0 }],
};

async function hook(world: World, body: unknown, wait = 10): Promise<{ status: number; json: any }> {
  const { port, token } = await webhookInfo(world);
  const response = await fetch(`http://127.0.0.1:${port}/v1/hooks/test.gaps?await=${wait}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

describe("events around reloads", () => {
  it("a held webhook sent right after ctx.setPreference gets the answer of the new load, every time", async () => {
    await writeExtension(join(scene.world.user, "gaps"), { svc: SVC, code: CODE });
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "test.gaps");
    for (let value = 1; value <= 10; value++) {
      expect(await hook(scene.world, { op: "set", value })).toMatchObject({ status: 200, json: { op: "set" } });
      // The option was saved before that answer: this event waits for the load with it.
      expect(await hook(scene.world, { op: "get" })).toMatchObject({ status: 200, json: { op: "get", count: value } });
    }
    expect(scene.host.events.filter((e) => e.type === "extension.loaded" && e.reason === "preferences")).toHaveLength(
      10,
    );
  });

  it("takes null: setPreference(name, null) clears the option, respond(replyId, null) answers null", async () => {
    await writeExtension(join(scene.world.user, "gaps"), { svc: SVC, code: CODE });
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "test.gaps");
    await hook(scene.world, { op: "set", value: 7 });
    expect((await hook(scene.world, { op: "get" })).json.count).toBe(7);
    expect(await hook(scene.world, { op: "clear" })).toMatchObject({ status: 200 });
    const after = await hook(scene.world, { op: "get" });
    expect(after.json.count).toBe(0);
    expect(after.json.receivedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await hook(scene.world, { op: "null" })).toEqual({ status: 200, json: null });
  });

  it("a hook sent while the host starts waits for the extension's load instead of 404", async () => {
    // Slow to load (its top level spins), so the HTTP server is up well before it is.
    await writeExtension(join(scene.world.user, "gaps"), {
      svc: SVC,
      code: `{ const end = Date.now() + 700; while (Date.now() < end) {} }\n${CODE}`,
    });
    const starting = startHost(scene.world);
    // As soon as webhook.json exists, the server answers.
    let info;
    for (;;) {
      info = await webhookInfo(scene.world).catch(() => undefined);
      if (info) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const early = hook(scene.world, { op: "get" });
    scene.host = await starting;
    expect(await early).toMatchObject({ status: 200, json: { op: "get", count: 0 } });
    // The event went to the extension after its load, not before.
    await scene.host.waitFor((e) => e.type === "event.sent" && e.id === "test.gaps");
    const loaded = scene.host.events.findIndex((e) => e.type === "extension.loaded" && e.id === "test.gaps");
    const sent = scene.host.events.findIndex((e) => e.type === "event.sent" && e.id === "test.gaps");
    expect(loaded).toBeGreaterThan(-1);
    expect(sent).toBeGreaterThan(loaded);
  });

  it(
    "a hook sent just after the runtime died waits for the restored load instead of 502",
    { timeout: 60_000 },
    async () => {
      await writeExtension(join(scene.world.user, "gaps"), { svc: SVC, code: CODE });
      scene.host = await startHost(scene.world);
      const started = await scene.host.waitFor((e) => e.type === "runtime" && e.state === "started");
      await scene.host.waitFor((e) => e.type === "extension.loaded" && e.id === "test.gaps");
      const from = scene.host.events.length;
      process.kill(started.pid, "SIGKILL");
      await scene.host.waitFor((e) => e.type === "runtime" && e.state === "exited", { from });
      // However long the restart takes (the first try waits 100 ms here), the answer comes from the restored load.
      expect(await hook(scene.world, { op: "get" }, 120)).toMatchObject({ status: 200, json: { op: "get", count: 0 } });
      await scene.host.waitFor(
        (e) => e.type === "extension.loaded" && e.id === "test.gaps" && e.reason === "restored",
        { from },
      );
    },
  );
});
