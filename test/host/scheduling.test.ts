import { describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  counterCode,
  post,
  startHost,
  writeExtension,
  type HostEvent,
  type RunningHost,
  useHostWorld,
} from "./harness.js";

const scene = useHostWorld();

/** Run starts after event index `from`, as [id, trigger, ms since `t0`]. */
function runsSince(h: RunningHost, from: number, t0: number): [string, string, number][] {
  return h.events
    .slice(from)
    .filter((e) => e.type === "run.start")
    .map((e) => [e.id, e.trigger, e.at - t0]);
}

async function launched(h: RunningHost, ids: string[]): Promise<HostEvent[]> {
  return Promise.all(ids.map((id) => h.waitFor((e) => e.type === "run.end" && e.id === id && e.trigger === "launch")));
}

describe("scheduling (manual clock)", () => {
  it("coalesces runs due within the tolerance, pauses, and runs overdue ones once on resume", async () => {
    await writeExtension(join(scene.world.bundled, "a"), {
      svc: { id: "test.a", title: "A", interval: "100s" },
      code: counterCode(),
    });
    // b's launch run asks for 105 s: due 5 s after a, inside a's 10 s tolerance.
    await writeExtension(join(scene.world.bundled, "b"), {
      svc: { id: "test.b", title: "B", interval: "100s" },
      code: counterCode({ result: "runs === 1 ? { nextRunAfter: 105 } : {}" }),
    });
    scene.host = await startHost(scene.world);
    const [a, b] = await launched(scene.host, ["test.a", "test.b"]);
    expect(a!.nextRunAt - a!.endedAt).toBe(100_000);
    expect(b!.nextRunAt - b!.endedAt).toBe(105_000);
    const t0 = a!.endedAt;
    expect(b!.endedAt).toBe(t0);

    const from = scene.host.events.length;
    await scene.host.control({ command: "advance", ms: 100_000 });
    expect(runsSince(scene.host, from, t0)).toEqual([]); // a waits for b
    await scene.host.control({ command: "advance", ms: 4_999 });
    expect(runsSince(scene.host, from, t0)).toEqual([]);
    await scene.host.control({ command: "advance", ms: 1 });
    expect(runsSince(scene.host, from, t0)).toEqual([
      ["test.a", "interval", 105_000],
      ["test.b", "interval", 105_000],
    ]);
    await scene.host.waitFor((e) => e.type === "run.end" && e.id === "test.b" && e.trigger === "interval");
    await scene.host.waitFor((e) => e.type === "run.end" && e.id === "test.a" && e.trigger === "interval");

    // Screen locked for 5 minutes: nothing runs; unlocked: each overdue extension runs once,
    // the second 100 ms after the first (rule 9).
    const paused = scene.host.events.length;
    await scene.host.control({ command: "pause" });
    await scene.host.control({ command: "advance", ms: 300_000 });
    expect(runsSince(scene.host, paused, t0)).toEqual([]);
    await scene.host.control({ command: "resume" });
    expect(runsSince(scene.host, paused, t0)).toEqual([["test.a", "interval", 405_000]]);
    await scene.host.control({ command: "advance", ms: 100 });
    expect(runsSince(scene.host, paused, t0)).toEqual([
      ["test.a", "interval", 405_000],
      ["test.b", "interval", 405_100],
    ]);
  });

  it("honours nextRunAfter for one run, and a webhook cuts a longer wait back to the interval", async () => {
    await writeExtension(join(scene.world.bundled, "c"), {
      svc: { id: "test.c", title: "C", interval: "30s", triggers: { webhook: true } },
      code: counterCode({
        result: "{ nextRunAfter: 3600 }",
        extra: `async onEvent(ctx, event) {
          if (event.replyId) await ctx.respond(event.replyId, { got: event.body }, 201);
          else await ctx.emit({ key: "event", title: "Event", layout: "stat", data: { value: JSON.stringify(event.body) } });
        },`,
      }),
    });
    await writeExtension(join(scene.world.bundled, "d"), { svc: { id: "test.d", title: "D" }, code: counterCode() });
    scene.host = await startHost(scene.world);
    const [c] = await launched(scene.host, ["test.c", "test.d"]);
    const t0 = c!.endedAt;
    expect(c!.nextRunAt - t0).toBe(3_600_000);

    await scene.host.control({ command: "advance", ms: 10_000 });
    expect(await post(scene.world, "/v1/hooks/test.c", { hello: 1 })).toEqual({ status: 202, body: '{"ok":true}' });
    const shown = await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.c/event");
    expect(shown.blip.data.value).toBe('{"hello":1}');
    // A held request answered by the extension.
    expect(await post(scene.world, "/v1/hooks/test.c?await=5", { ping: true })).toEqual({
      status: 201,
      body: '{"got":{"ping":true}}',
    });
    // An extension without triggers.webhook is refused.
    expect((await post(scene.world, "/v1/hooks/test.d", {})).status).toBe(403);

    const from = scene.host.events.length;
    await scene.host.control({ command: "advance", ms: 19_999 });
    expect(runsSince(scene.host, from, t0)).toEqual([]);
    await scene.host.control({ command: "advance", ms: 1 });
    expect(runsSince(scene.host, from, t0)).toEqual([["test.c", "interval", 30_000]]);
    const end = await scene.host.waitFor((e) => e.type === "run.end" && e.id === "test.c" && e.trigger === "interval");
    // Its answer asks for an hour again: the cut-back was for one wait only.
    expect(end.nextRunAt - end.endedAt).toBe(3_600_000);

    // An extension without interval runs at launch and when asked.
    await scene.host.control({ command: "advance", ms: 3_000_000 });
    expect(runsSince(scene.host, from, t0).filter(([id]) => id === "test.d")).toEqual([]);
    await scene.host.control({ command: "run", id: "test.d" });
    const manual = await scene.host.waitFor(
      (e) => e.type === "blip" && e.id === "test.d/main" && e.blip.data.value === "manual 2",
    );
    expect(manual.seq).toBe(2);
  });

  it("gives up a run that has not settled after 30 s", async () => {
    await writeExtension(join(scene.world.bundled, "slow"), {
      svc: { id: "test.slow", title: "Slow", interval: "10m" },
      code: `module.exports = { default: { update() { return new Promise(() => {}); } } };`,
    });
    scene.host = await startHost(scene.world);
    const start = await scene.host.waitFor((e) => e.type === "run.start" && e.id === "test.slow");
    await scene.host.control({ command: "advance", ms: 29_999 });
    expect(scene.host.events.some((e) => e.type === "run.end")).toBe(false);
    await scene.host.control({ command: "advance", ms: 1 });
    const end = await scene.host.waitFor((e) => e.type === "run.end" && e.id === "test.slow");
    expect(end).toMatchObject({ result: "timeout", error: "did not settle within 30 s", trigger: "launch" });
    expect(end.endedAt - start.at).toBe(30_000);
    expect(end.nextRunAt - end.endedAt).toBe(600_000);
  });
});
