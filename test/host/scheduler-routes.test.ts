/** `/v1/scheduler` through the real host: what the desktop shell calls on sleep, lock and wake. */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  counterCode,
  startHost,
  useHostWorld,
  webhookInfo,
  writeExtension,
  type RunningHost,
  type World,
} from "./harness.js";

const scene = useHostWorld();

async function call(
  world: World,
  method: string,
  path: string,
  token?: string,
): Promise<{ status: number; body: unknown; allow: string | null }> {
  const info = await webhookInfo(world);
  const response = await fetch(`http://127.0.0.1:${info.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${token ?? info.token}` },
  });
  return { status: response.status, body: await response.json(), allow: response.headers.get("allow") };
}

/** A host with one extension every 100 s, once its launch run ended (`t0`, that moment). */
async function startWithA(): Promise<{ host: RunningHost; t0: number }> {
  await writeExtension(join(scene.world.bundled, "a"), {
    svc: { id: "test.a", title: "A", interval: "100s" },
    code: counterCode(),
  });
  const host = (scene.host = await startHost(scene.world));
  const launched = await host.waitFor((e) => e.type === "run.end" && e.id === "test.a" && e.trigger === "launch");
  return { host, t0: launched.endedAt as number };
}

describe("/v1/scheduler", () => {
  it("pauses scheduled runs and, on resume, runs each overdue extension once", async () => {
    const { host, t0 } = await startWithA();

    expect(await call(scene.world, "GET", "/v1/scheduler")).toEqual({
      status: 200,
      body: { paused: false, onBattery: false },
      allow: null,
    });
    const from = host.events.length;
    expect(await call(scene.world, "POST", "/v1/scheduler/pause")).toEqual({
      status: 200,
      body: { ok: true, paused: true },
      allow: null,
    });
    expect(await call(scene.world, "POST", "/v1/scheduler/pause")).toEqual({
      status: 200,
      body: { ok: true, paused: true },
      allow: null,
    });
    expect(await call(scene.world, "GET", "/v1/scheduler")).toEqual({
      status: 200,
      body: { paused: true, onBattery: false },
      allow: null,
    });

    // Locked for five minutes: three interval runs are missed, none starts.
    await host.control({ command: "advance", ms: 300_000 });
    const starts = () =>
      host.events
        .slice(from)
        .filter((e) => e.type === "run.start")
        .map((e) => [e.trigger, (e.at as number) - t0]);
    expect(starts()).toEqual([]);

    expect(await call(scene.world, "POST", "/v1/scheduler/resume")).toEqual({
      status: 200,
      body: { ok: true, paused: false },
      allow: null,
    });
    await host.waitFor((e) => e.type === "run.end" && e.id === "test.a" && e.trigger === "interval", { from });
    expect(starts()).toEqual([["interval", 300_000]]);
    // A second resume changes nothing; each state change is one event.
    expect(await call(scene.world, "POST", "/v1/scheduler/resume")).toEqual({
      status: 200,
      body: { ok: true, paused: false },
      allow: null,
    });
    expect(
      host.events
        .slice(from)
        .filter((e) => e.type === "paused" || e.type === "resumed")
        .map((e) => e.type),
    ).toEqual(["paused", "resumed"]);
    expect(starts()).toEqual([["interval", 300_000]]);
  });

  it("on battery waits three times the interval, and the usual again back on power", async () => {
    const { host, t0 } = await startWithA();
    const from = host.events.length;
    for (let i = 0; i < 2; i++)
      expect(await call(scene.world, "POST", "/v1/scheduler/on-battery")).toEqual({
        status: 200,
        body: { ok: true, onBattery: true },
        allow: null,
      });
    expect((await call(scene.world, "GET", "/v1/scheduler")).body).toEqual({ paused: false, onBattery: true });
    const starts = () =>
      host.events
        .slice(from)
        .filter((e) => e.type === "run.start")
        .map((e) => (e.at as number) - t0);
    // 299 s on: the usual 100 s interval has passed twice, the stretched 300 s wait has not.
    await host.control({ command: "advance", ms: 299_000 });
    expect(starts()).toEqual([]);
    await host.control({ command: "advance", ms: 1_000 });
    await host.waitFor((e) => e.type === "run.end" && e.trigger === "interval", { from });
    expect(starts()).toEqual([300_000]);
    const t1 = host.events.findLast((e) => e.type === "run.end")!.endedAt as number;
    expect(await call(scene.world, "POST", "/v1/scheduler/on-power")).toEqual({
      status: 200,
      body: { ok: true, onBattery: false },
      allow: null,
    });
    await host.control({ command: "advance", ms: 100_000 });
    await host.waitFor((e) => e.type === "run.end" && (e.endedAt as number) > t1, { from });
    expect(starts()).toEqual([300_000, t1 - t0 + 100_000]);
    expect((await call(scene.world, "GET", "/v1/scheduler/on-power")).status).toBe(405);
    // One event per change (the second on-battery changed nothing).
    expect(
      host.events
        .slice(from)
        .filter((e) => e.type === "power")
        .map((e) => e.onBattery),
    ).toEqual([true, false]);
  });

  it("needs the token and the right method", async () => {
    scene.host = await startHost(scene.world);
    const unauthorized = await call(scene.world, "POST", "/v1/scheduler/pause", "wrong-token");
    expect(unauthorized.status).toBe(401);
    expect(await call(scene.world, "GET", "/v1/scheduler")).toEqual({
      status: 200,
      body: { paused: false, onBattery: false },
      allow: null,
    });
    expect(await call(scene.world, "GET", "/v1/scheduler/pause")).toEqual({
      status: 405,
      body: { error: "GET is not allowed on /v1/scheduler/pause: use POST" },
      allow: "POST",
    });
    expect(await call(scene.world, "DELETE", "/v1/scheduler")).toEqual({
      status: 405,
      body: { error: "DELETE is not allowed on /v1/scheduler: use GET" },
      allow: "GET",
    });
  });
});
