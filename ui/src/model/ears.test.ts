import { describe, expect, it } from "vitest";
import { earsParts, mattersMost, progressFinished, type EarsBlip } from "./ears.js";

const NOW = Date.parse("2026-11-27T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();
const blip = (id: string, layout: string, data: object, extra: Partial<EarsBlip> = {}): EarsBlip => ({
  id,
  ended: false,
  layout,
  data,
  ...extra,
});
const format = { value: (v: unknown) => `v:${JSON.stringify(v)}`, time: (ms: number) => `t:${ms}` };

describe("mattersMost", () => {
  const stat = blip("stat", "stat", { value: 1 });
  const countdown = blip("countdown", "countdown", { endsAt: iso(NOW + 60_000) });
  const over = blip("over", "countdown", { endsAt: iso(NOW - 1) });
  const warning = blip("warn", "stat", { value: 2 }, { state: "warning" });
  const running = blip("run", "progress", { fraction: 0.5 }, { state: "running" });
  const done = blip("done", "progress", { fraction: 0.5 }, { state: "success" });

  it("puts a running countdown, session or progress before a stat, even one changed later", () => {
    const changed = (id: string) => ({ stat: 9, countdown: 1 })[id] ?? 0;
    expect(mattersMost([stat, countdown], changed, NOW)?.id).toBe("countdown");
    expect(mattersMost([stat, blip("s", "session", { startedAt: iso(NOW) })], changed, NOW)?.id).toBe("s");
    expect(mattersMost([stat, running], changed, NOW)?.id).toBe("run");
  });

  it("puts a blip in trouble before one at rest, and a finished countdown or progress back at rest", () => {
    expect(mattersMost([stat, warning], () => 0, NOW)?.id).toBe("warn");
    expect(mattersMost([warning, over, done], () => 0, NOW)?.id).toBe("warn");
  });

  it("breaks a tie by the most recent change, then by the panel's order; skips ended blips", () => {
    const a = blip("a", "stat", { value: 1 });
    const b = blip("b", "stat", { value: 2 });
    expect(mattersMost([a, b], (id) => (id === "a" ? 5 : 4), NOW)?.id).toBe("a");
    expect(mattersMost([a, b], (id) => (id === "a" ? 4 : 5), NOW)?.id).toBe("b");
    expect(mattersMost([a, b], () => 3, NOW)?.id).toBe("a");
    expect(mattersMost([{ ...countdown, ended: true }, a], () => 0, NOW)?.id).toBe("a");
    expect(mattersMost([{ ...a, ended: true }], () => 0, NOW)).toBeUndefined();
  });
});

describe("earsParts", () => {
  it("a meter shows its fullest meter's figure with that meter's own label, never the blip's state", () => {
    const system = blip(
      "sys",
      "meter",
      {
        meters: [
          { label: "Memory", fraction: 0.24, value: "24 GB of 101 GB" },
          { label: "Disk", fraction: 0.93, value: "465 GB of 500 GB" },
        ],
      },
      { state: "warning" },
    );
    expect(earsParts(system, NOW, format)).toEqual({ figure: "93%", side: "Disk", sideKind: "label", bar: 0.93 });
  });

  it("a finished progress shows its outcome, not the percent it stopped at", () => {
    const pushed = blip("p", "progress", { fraction: 0.5, step: "Migrating" }, { state: "success" });
    expect(progressFinished(pushed)).toBe(true);
    expect(earsParts(pushed, NOW, format)).toEqual({ outcome: "success", side: "success", sideKind: "state" });
    expect(earsParts({ ...pushed, state: "failure" }, NOW, format).outcome).toBe("failure");
    // Full bar without a final state, or ended: finished too.
    expect(progressFinished(blip("f", "progress", { fraction: 1 }, { state: "running" }))).toBe(true);
    expect(progressFinished(blip("e", "progress", { fraction: 0.2 }, { ended: true }))).toBe(true);
    // Still going: the percent, the bar and the state.
    expect(earsParts(blip("r", "progress", { fraction: 0.4 }, { state: "running" }), NOW, format)).toEqual({
      figure: "40%",
      bar: 0.4,
      side: "running",
      sideKind: "state",
    });
  });

  it("a countdown ticks on the left, its end time on the right, the time passed as the bar", () => {
    const end = NOW + 25 * 60_000;
    const parts = earsParts(
      blip("c", "countdown", { endsAt: iso(end), startedAt: iso(NOW - 25 * 60_000) }),
      NOW,
      format,
    );
    expect(parts).toEqual({ figure: { ticks: "to", at: end }, side: `t:${end}`, sideKind: "time", bar: 0.5 });
  });

  it("a stat shows its value and its own label; a score its two scores and period", () => {
    expect(earsParts(blip("s", "stat", { value: 17, label: "hits" }, { state: "idle" }), NOW, format)).toEqual({
      figure: "v:17",
      side: "hits",
      sideKind: "label",
    });
    expect(
      earsParts(blip("g", "score", { home: { score: 98 }, away: { score: 101 }, period: "Q4" }), NOW, format),
    ).toEqual({ figure: "98–101", side: "Q4", sideKind: "label" });
  });
});
