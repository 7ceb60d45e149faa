import { describe, expect, it } from "vitest";
import { countdown, list, meter, progress, score, session, stat } from "./blips.js";
import { currency, date, number, percent, text } from "./values.js";
import { processBlipInput } from "../processing/index.js";
import { LIMITS } from "../schemas/index.js";

/** What the runtime does with an emitted blip: validate, stamp, cut, size-check. */
function emitted(blip: unknown) {
  const result = processBlipInput(JSON.parse(JSON.stringify(blip)), {
    extensionId: "com.example.test",
    seq: 1,
    emittedAt: "2025-03-01T09:30:00.000Z",
  });
  if (!result.ok) throw new Error(result.error);
  return result;
}

const T = "2025-03-01T09:30:00.000Z";
const T_SECONDS = Date.parse(T) / 1000;

describe("stat", () => {
  it("builds the payload the runtime accepts", () => {
    const blip = stat("revenue", {
      title: "Revenue",
      icon: "eurosign",
      value: currency(1250, "EUR"),
      label: "Today",
      delta: percent(0.12),
      series: [3, 5, 4, 8],
    });
    expect(blip).toEqual({
      key: "revenue",
      title: "Revenue",
      icon: "eurosign",
      layout: "stat",
      data: {
        value: { type: "currency", value: { amount: 1250, currency: "EUR" } },
        label: "Today",
        delta: { type: "percent", value: 0.12 },
        series: [3, 5, 4, 8],
      },
    });
    expect(emitted(blip).payload).toMatchObject({ id: "com.example.test/revenue", v: 1, seq: 1 });
  });
  it("carries every common field, with staleAfter as an ISO time", () => {
    const blip = stat("open", {
      title: "Open issues",
      subtitle: "octo/web",
      state: "warning",
      url: "https://github.com/octo/web/issues",
      actions: [{ id: "refresh", title: "Refresh" }],
      choices: [{ id: "ack", title: "Seen" }],
      facts: [{ label: "Oldest", value: date(T_SECONDS) }],
      staleAfter: T_SECONDS,
      value: 12,
    });
    expect(blip.staleAfter).toBe(T);
    expect(Object.keys(blip)).toEqual([
      "key",
      "title",
      "subtitle",
      "state",
      "url",
      "actions",
      "choices",
      "facts",
      "staleAfter",
      "layout",
      "data",
    ]);
    expect(emitted(blip).truncated).toEqual([]);
  });
  it("reads a small staleAfter as seconds from now", () => {
    const before = Date.now();
    const blip = stat("s", { title: "S", value: 1, staleAfter: 600 });
    const at = Date.parse(blip.staleAfter!);
    expect(at).toBeGreaterThanOrEqual(before + 600_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 600_000);
  });
  it("leaves out what was not given, and the runtime keeps the newest 48 points", () => {
    const blip = stat("s", { title: "S", value: number(3, "ms"), series: Array.from({ length: 49 }, (_, i) => i) });
    expect(blip.data).not.toHaveProperty("label");
    const { payload, truncated } = emitted(blip);
    expect(truncated).toEqual(["data.series"]);
    expect((payload.data as { series: number[] }).series[0]).toBe(1);
  });
});

describe("progress", () => {
  it("builds a progress payload with stages", () => {
    const blip = progress("deploy-web", {
      title: "Deploying web",
      state: "running",
      fraction: 0.6,
      step: "Uploading assets",
      stages: [
        { title: "Build", state: "done" },
        { title: "Upload", state: "running" },
      ],
    });
    expect(blip).toEqual({
      key: "deploy-web",
      title: "Deploying web",
      state: "running",
      layout: "progress",
      data: {
        fraction: 0.6,
        step: "Uploading assets",
        stages: [
          { title: "Build", state: "done" },
          { title: "Upload", state: "running" },
        ],
      },
    });
    emitted(blip);
  });
  it("holds the fraction to 0–1", () => {
    expect(progress("p", { title: "P", fraction: 1.0000001 }).data.fraction).toBe(1);
    expect(progress("p", { title: "P", fraction: -0.2 }).data.fraction).toBe(0);
  });
});

describe("session", () => {
  it("turns startedAt into an ISO time", () => {
    const blip = session("agent", { title: "Claude is coding", startedAt: T_SECONDS * 1000, step: "Editing" });
    expect(blip).toEqual({
      key: "agent",
      title: "Claude is coding",
      layout: "session",
      data: { startedAt: T, step: "Editing" },
    });
    emitted(blip);
  });
});

describe("list", () => {
  const item = (i: number) => ({
    id: `pr-${i}`,
    title: `Pull request ${i}`,
    subtitle: undefined,
    actions: [
      { id: "approve", title: "Approve" },
      { id: "comment", title: "Comment", input: { placeholder: "Say something" } },
      { id: "snooze", title: "Snooze", dismisses: true },
    ],
  });
  it("builds a list payload without undefined holes", () => {
    const blip = list("reviews", { title: "Reviews", total: 12, items: [item(1)] });
    expect(blip.data.items[0]).not.toHaveProperty("subtitle");
    expect(blip.data.total).toBe(12);
    expect(blip.data.items[0]).toEqual({ id: "pr-1", title: "Pull request 1", actions: item(1).actions });
    emitted(blip);
  });
  it("keeps 5 items at the limit, and the runtime cuts the 6th", () => {
    expect(emitted(list("l", { title: "L", items: [1, 2, 3, 4, 5].map(item) })).truncated).toEqual([]);
    const { payload, truncated } = emitted(list("l", { title: "L", items: [1, 2, 3, 4, 5, 6].map(item) }));
    expect(truncated).toEqual(["data.items"]);
    expect((payload.data as { items: unknown[] }).items).toHaveLength(LIMITS.listItems);
  });
  it("is refused by the runtime with repeated item ids", () => {
    const result = processBlipInput(list("l", { title: "L", items: [item(1), item(1)] }), { extensionId: "x", seq: 1 });
    expect(result.ok).toBe(false);
  });
});

describe("score", () => {
  it("builds a score payload", () => {
    const blip = score("game", {
      title: "Lakers – Celtics",
      state: "running",
      period: "Q4 2:31",
      home: { name: "Lakers", score: 98 },
      away: { name: "Celtics", score: 101, icon: "leaf" },
    });
    expect(blip.data).toEqual({
      home: { name: "Lakers", score: 98 },
      away: { name: "Celtics", score: 101, icon: "leaf" },
      period: "Q4 2:31",
    });
    emitted(blip);
  });
});

describe("countdown", () => {
  it("takes any date form for both ends", () => {
    const blip = countdown("standup", {
      title: "Stand-up",
      endsAt: "2025-03-01T10:00:00+00:00",
      startedAt: new Date(T),
    });
    expect(blip.data).toEqual({ endsAt: "2025-03-01T10:00:00.000Z", startedAt: T });
    emitted(blip);
    expect(countdown("c", { title: "C", endsAt: T_SECONDS }).data).toEqual({ endsAt: T });
  });
});

describe("meter", () => {
  it("builds gauges with reset times", () => {
    const blip = meter("quota", {
      title: "GitHub API",
      meters: [{ label: "Core", fraction: 4150 / 5000, value: text("4,150 / 5,000"), resetsAt: T_SECONDS }],
    });
    expect(blip.data).toEqual({
      meters: [{ label: "Core", fraction: 0.83, value: { type: "text", value: "4,150 / 5,000" }, resetsAt: T }],
    });
    emitted(blip);
  });
  it("keeps 4 meters, and the runtime cuts the 5th", () => {
    const gauge = (i: number) => ({ label: `M${i}`, fraction: i / 10 });
    expect(emitted(meter("m", { title: "M", meters: [1, 2, 3, 4].map(gauge) })).truncated).toEqual([]);
    expect(emitted(meter("m", { title: "M", meters: [1, 2, 3, 4, 5].map(gauge) })).truncated).toEqual(["data.meters"]);
  });
});

describe("payload size", () => {
  it("passes at 4096 bytes and is dropped one byte past", () => {
    const stamp = { extensionId: "com.example.test", seq: 1, emittedAt: T };
    const base = stat("big", { title: "x", value: "" });
    const size = (blip: unknown) => {
      const { key, ...rest } = blip as { key: string };
      return new TextEncoder().encode(
        JSON.stringify({ ...rest, id: `com.example.test/${key}`, v: 1, seq: 1, emittedAt: T }),
      ).length;
    };
    const room = 4096 - size(base);
    const atLimit = stat("big", { title: "x", value: "a".repeat(room) });
    expect(processBlipInput(atLimit, stamp).ok).toBe(true);
    const pastLimit = stat("big", { title: "x", value: "a".repeat(room + 1) });
    const result = processBlipInput(pastLimit, stamp);
    expect(result).toMatchObject({
      ok: false,
      error: "payload is 4097 bytes after truncation, over the 4096-byte limit",
    });
  });
});
