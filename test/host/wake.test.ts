/**
 * Fresh after wake, end to end: the desktop shell's power wiring (its sleep and lock signals,
 * through `PauseReasons` and the `/v1` client it uses) pauses and resumes the real host running
 * the real runtime on a manual clock. At wake every overdue extension runs, 100 ms apart in the
 * order they fell due; what went quiet while asleep is stale until its next update.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HostClient } from "../../desktop/src/host-link.js";
import { PauseReasons, wirePower } from "../../desktop/src/power.js";
import { FakePowerMonitor } from "../../desktop/src/testing/electron-double.js";
import { startHost, useHostWorld, writeExtension, type HostEvent, type RunningHost } from "./harness.js";

const scene = useHostWorld();

/** A blip that goes stale `staleSeconds` after each run (by the guest's own clock). */
function quietingCode(staleSeconds: number): string {
  return `
let runs = 0;
module.exports = { default: {
  async update(ctx) {
    runs++;
    await ctx.emit({ key: "main", title: "Run " + runs, layout: "stat", data: { value: runs },
      staleAfter: new Date(Date.now() + ${staleSeconds} * 1000).toISOString() });
    return {};
  },
} };
`;
}

const IDS = ["test.w1", "test.w2", "test.w3"];

const starts = (h: RunningHost, from: number): [string, string, number][] =>
  h.events.slice(from).flatMap((e) => (e.type === "run.start" ? [[e.id, e.trigger, e.at]] : []));

describe("fresh after wake (manual clock, the shell's power signals)", () => {
  it("runs each overdue extension at wake 100 ms apart, and shows what went quiet as stale until it updates", async () => {
    for (const id of IDS)
      await writeExtension(join(scene.world.bundled, id), {
        svc: { id, title: id, interval: "5m" },
        code: quietingCode(600),
      });
    // Not overdue at wake (hourly), and its blip stays fresh for a day.
    await writeExtension(join(scene.world.bundled, "slow"), {
      svc: { id: "test.slow", title: "Slow", interval: "2h" },
      code: quietingCode(86_400),
    });
    const host = (scene.host = await startHost(scene.world));
    for (const id of [...IDS, "test.slow"])
      await host.waitFor((e) => e.type === "run.end" && e.id === id && e.trigger === "launch");

    // The shell as it runs: Electron's power events → PauseReasons → POST /v1/scheduler/pause|resume.
    const powerMonitor = new FakePowerMonitor();
    const problems: string[] = [];
    const reasons = new PauseReasons(new HostClient(scene.world.home), (message) => problems.push(message));
    const unwire = wirePower({ powerMonitor, reasons, setInterval: () => ({}), clearInterval: () => {} });

    const asleep = host.events.length;
    powerMonitor.emit("suspend");
    await host.waitFor((e) => e.type === "paused", { from: asleep });
    // An hour asleep: every 5-minute extension is overdue, their blips' 10 minutes have passed.
    await host.control({ command: "advance", ms: 3_600_000 });
    expect(starts(host, asleep)).toEqual([]);
    expect(host.events.slice(asleep).filter((e) => e.type === "blip")).toEqual([]);

    // Waking into the lock screen stays paused; unlocking resumes.
    powerMonitor.emit("lock-screen");
    powerMonitor.emit("resume");
    const locked = host.events.length;
    powerMonitor.emit("unlock-screen");
    const resumed = await host.waitFor((e) => e.type === "resumed", { from: locked });
    expect(host.events.slice(asleep, locked).filter((e) => e.type === "resumed")).toEqual([]);
    const wake = resumed.at as number;

    // Marked stale first, before any run: the three quiet ones, not the slow one's fresh blip.
    const marked = await Promise.all(
      IDS.map((id) =>
        host.waitFor((e) => e.type === "blip" && e.id === `${id}/main` && e.blip?.stale === true, { from: locked }),
      ),
    );
    expect(marked.map((e) => [e.blip.title, e.seq])).toEqual([
      ["Run 1", 1],
      ["Run 1", 1],
      ["Run 1", 1],
    ]);
    expect(host.events.slice(locked).some((e) => e.type === "blip" && e.id === "test.slow/main")).toBe(false);
    const firstRun = host.events.findIndex((e, i) => i >= locked && e.type === "run.start");
    for (const event of marked) expect(host.events.indexOf(event)).toBeLessThan(firstRun < 0 ? Infinity : firstRun);

    // The first at once, then one every 100 ms of the host's clock, by id (all fell due together).
    await host.waitFor((e) => e.type === "run.start" && e.id === "test.w1", { from: locked });
    expect(starts(host, locked)).toEqual([["test.w1", "interval", wake]]);
    await host.control({ command: "advance", ms: 99 });
    expect(starts(host, locked)).toHaveLength(1);
    await host.control({ command: "advance", ms: 1 });
    await host.waitFor((e) => e.type === "run.start" && e.id === "test.w2", { from: locked });
    await host.control({ command: "advance", ms: 100 });
    await host.waitFor((e) => e.type === "run.start" && e.id === "test.w3", { from: locked });
    expect(starts(host, locked)).toEqual([
      ["test.w1", "interval", wake],
      ["test.w2", "interval", wake + 100],
      ["test.w3", "interval", wake + 200],
    ]);

    // Each one's next update replaces the stale blip with a fresh one.
    const fresh: HostEvent[] = await Promise.all(
      IDS.map((id) =>
        host.waitFor((e) => e.type === "blip" && e.id === `${id}/main` && e.blip?.title === "Run 2", { from: locked }),
      ),
    );
    expect(fresh.map((e) => "stale" in e.blip)).toEqual([false, false, false]);
    expect(problems).toEqual([]);
    unwire();
  });
});
