import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LogGate, droppedLinesNotice, type LogLine } from "./log-gate.js";
import { LOG_BURST_CHARS, LOG_CHARS_PER_SECOND, LOG_DROP_NOTICE_MS, LOG_LINE_COST_CHARS } from "../limits.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup() {
  const sent: LogLine[] = [];
  const gate = new LogGate(
    async (line) => void sent.push(line),
    () => Date.now(),
  );
  /** A line whose cost (text plus the per-line cost) is `cost` characters. */
  const line = (cost: number): LogLine => ({ level: "info", message: "x".repeat(cost - LOG_LINE_COST_CHARS) });
  return { gate, sent, line };
}

describe("LogGate", () => {
  it(`lines costing exactly ${LOG_BURST_CHARS} characters at once all go; one more character is dropped`, async () => {
    const { gate, sent, line } = setup();
    for (let i = 0; i < LOG_BURST_CHARS / 8192; i++) await expect(gate.send(line(8192))).resolves.toBeUndefined();
    expect(sent).toHaveLength(LOG_BURST_CHARS / 8192);
    await expect(gate.send(line(LOG_LINE_COST_CHARS + 1))).resolves.toBeNull();
    expect(sent).toHaveLength(LOG_BURST_CHARS / 8192);
    expect(gate.dropped).toBe(1);
  });

  it(`refills at ${LOG_CHARS_PER_SECOND} characters a second: exactly that much goes a second later, not one more`, () => {
    const { gate, sent, line } = setup();
    void gate.send(line(LOG_BURST_CHARS));
    vi.advanceTimersByTime(1000);
    void gate.send(line(LOG_CHARS_PER_SECOND / 2));
    void gate.send(line(LOG_CHARS_PER_SECOND / 2));
    void gate.send(line(LOG_LINE_COST_CHARS));
    expect(sent.map((l) => l.message.length + LOG_LINE_COST_CHARS)).toEqual([
      LOG_BURST_CHARS,
      LOG_CHARS_PER_SECOND / 2,
      LOG_CHARS_PER_SECOND / 2,
    ]);
    expect(gate.dropped).toBe(1);
  });

  it("an empty line still costs its envelope: a flood of them is paced too", () => {
    const { gate, sent } = setup();
    for (let i = 0; i < 10_000; i++) void gate.send({ level: "info", message: "" });
    expect(sent).toHaveLength(Math.floor(LOG_BURST_CHARS / LOG_LINE_COST_CHARS));
  });

  it(`one warning ${LOG_DROP_NOTICE_MS} ms after the first drop says how many lines were dropped and why`, () => {
    const { gate, sent, line } = setup();
    void gate.send(line(LOG_BURST_CHARS));
    for (let i = 0; i < 500; i++) void gate.send(line(1000));
    vi.advanceTimersByTime(LOG_DROP_NOTICE_MS - 1);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent.slice(1)).toEqual([{ level: "warn", message: droppedLinesNotice(500) }]);
    expect(sent[1].message).toBe(
      "500 log lines dropped (logs are limited to 64 KB a second, in bursts of up to 256 KB): log less often or less at a time",
    );
    // Nothing dropped since: no second warning.
    vi.advanceTimersByTime(10 * LOG_DROP_NOTICE_MS);
    expect(sent).toHaveLength(2);
  });

  it("a flood lasting 3 s gets one warning a second, never one per line", () => {
    const { gate, sent } = setup();
    for (let ms = 0; ms < 3000; ms++) {
      for (let i = 0; i < 10; i++) void gate.send({ level: "info", message: "y".repeat(1000) });
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(LOG_DROP_NOTICE_MS);
    const warnings = sent.filter((l) => l.level === "warn");
    expect(warnings).toHaveLength(3);
    const delivered = sent.length - warnings.length;
    const dropped = warnings.reduce((sum, w) => sum + Number(/^(\d+) log lines/.exec(w.message)![1]), 0);
    expect(delivered + dropped).toBe(30_000);
    expect(dropped).toBe(gate.dropped);
    // The burst plus the 2.999 s from the first batch to the last at the rate, in whole lines.
    expect(delivered).toBe(Math.floor((LOG_BURST_CHARS + 2.999 * LOG_CHARS_PER_SECOND) / 1100));
  });

  it("a disposed gate sends no pending warning", () => {
    const { gate, sent, line } = setup();
    void gate.send(line(LOG_BURST_CHARS));
    void gate.send(line(1000));
    gate.dispose();
    vi.advanceTimersByTime(10 * LOG_DROP_NOTICE_MS);
    expect(sent).toHaveLength(1);
  });

  it("says 1 log line, not 1 log lines", () => {
    expect(droppedLinesNotice(1)).toMatch(/^1 log line dropped \(/);
  });
});
