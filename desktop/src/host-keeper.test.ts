import { describe, expect, it } from "vitest";
import { HostKeeper, JOINED_CHECK_MS, RESTART_FIRST_MS, RESTART_MAX_MS } from "./host-keeper.js";
import type { HostLink, StartHostOptions } from "./host-link.js";

function keeperWorld(failures: number[] = [], joined: number[] = [], live: () => boolean = () => true) {
  const connects: StartHostOptions[] = [];
  const stops: number[] = [];
  const restarted: number[] = [];
  const log: string[] = [];
  const timers: { callback: () => void; ms: number; cancelled: boolean }[] = [];
  const keeper = new HostKeeper({
    connect: async (options) => {
      const n = connects.push(options);
      if (failures.includes(n)) throw new Error(`start ${n} failed`);
      return {
        client: { isLive: async () => live() } as never,
        joined: joined.includes(n),
        child: undefined,
        stop: async () => void stops.push(n),
        n,
      } as HostLink & { n: number };
    },
    connectOptions: { supportFolder: "/s" },
    onRestarted: (link) => void restarted.push((link as HostLink & { n: number }).n),
    log: (m) => void log.push(m),
    setTimeout: (callback, ms) => {
      const timer = { callback, ms, cancelled: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => timer && (timer.cancelled = true),
  });
  const fire = async () => {
    const timer = timers.shift()!;
    if (!timer.cancelled) timer.callback();
    await new Promise((resolve) => setTimeout(resolve, 0));
    return timer.ms;
  };
  return { keeper, connects, stops, restarted, log, timers, fire };
}

describe("keeping a host running", () => {
  it("starts or joins again after a host it started exits on its own, and hands the new one on", async () => {
    const w = keeperWorld();
    await w.keeper.start();
    w.connects[0]!.onExit!(null, "SIGKILL");
    expect(w.log).toEqual(["svc-host stopped on its own (SIGKILL); starting it again in 1 s"]);
    expect(await w.fire()).toBe(RESTART_FIRST_MS);
    expect(w.connects).toHaveLength(2);
    expect(w.restarted).toEqual([2]);
    expect((w.keeper.link as HostLink & { n: number }).n).toBe(2);
    expect(w.connects[1]!.supportFolder).toBe("/s");
  });

  it("waits longer after each failed start, at most 30 s, and from 1 s again once one is up", async () => {
    const w = keeperWorld([2, 3, 4, 5, 6, 7]);
    await w.keeper.start();
    w.connects[0]!.onExit!(1, null);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) waits.push(await w.fire());
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, RESTART_MAX_MS, RESTART_MAX_MS]);
    expect(w.restarted).toEqual([8]);
    expect(w.log[1]).toBe("could not start svc-host again: start 2 failed; trying again in 2 s");
    w.connects[7]!.onExit!(1, null);
    expect(await w.fire()).toBe(RESTART_FIRST_MS);
  });

  it("restarts nothing once stopped, and stops a host that came up while stopping", async () => {
    const w = keeperWorld();
    await w.keeper.start();
    w.connects[0]!.onExit!(1, null);
    await w.keeper.stop();
    expect(w.stops).toEqual([1]);
    await w.fire();
    expect(w.connects).toHaveLength(1);
  });

  it("leaves the first start's failure to the caller", async () => {
    const w = keeperWorld([1]);
    await expect(w.keeper.start()).rejects.toThrow("start 1 failed");
    expect(() => w.keeper.link).toThrow("HostKeeper: start() first");
  });

  it("asks a joined host every 5 s whether it is there, and starts one when it is gone", async () => {
    let alive = true;
    const w = keeperWorld([], [1], () => alive);
    const first = await w.keeper.start();
    expect(first.joined).toBe(true);
    expect(await w.fire()).toBe(JOINED_CHECK_MS); // there
    expect(w.connects).toHaveLength(1);
    alive = false;
    expect(await w.fire()).toBe(JOINED_CHECK_MS); // gone
    expect(w.log).toEqual(["the svc-host this app joined is gone; starting one in 1 s"]);
    expect(await w.fire()).toBe(RESTART_FIRST_MS);
    expect(w.restarted).toEqual([2]);
    expect(w.keeper.link.joined).toBe(false);
    expect(w.timers).toEqual([]); // a started host is watched through its exit, not asked
    await w.keeper.stop();
    expect(w.stops).toEqual([2]); // the joined one was never ours to stop
  });
});
