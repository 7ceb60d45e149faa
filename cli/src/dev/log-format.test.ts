import { describe, expect, it } from "vitest";
import type { LogLevel } from "@svc/api";
import { formatBytes, formatEvent, painter, type StreamEvent } from "./log-format.js";

const at = new Date(2026, 0, 1, 9, 0, 1).toISOString();
const plain = painter(false);
const log = (level: LogLevel, message: string): StreamEvent => ({
  type: "log",
  at,
  extensionId: "com.x",
  level,
  message,
});

describe("formatEvent", () => {
  it("shows a denial on two lines: what was refused, then the manifest fix", () => {
    const denial = log(
      "warn",
      'denied: exec sh: "sh" is not in permissions.exec; to allow it, add "sh" to svc.permissions.exec in package.json',
    );
    expect(formatEvent(denial, plain)).toEqual([
      '09:00:01 denied  exec sh: "sh" is not in permissions.exec',
      '         fix     add "sh" to svc.permissions.exec in package.json',
    ]);
  });

  it("tags dropped payloads, interrupted slices and memory-limit hits", () => {
    expect(formatEvent(log("error", 'dropped blip com.x/a: "data.fraction" should be at most 1'), plain)).toEqual([
      '09:00:01 dropped blip com.x/a: "data.fraction" should be at most 1',
    ]);
    expect(formatEvent(log("warn", "interrupted: guest code ran longer than 1000 ms without yielding"), plain)).toEqual(
      ["09:00:01 slice   interrupted: guest code ran longer than 1000 ms without yielding"],
    );
    expect(formatEvent(log("warn", "hit the memory limit (67108864 bytes in use)"), plain)).toEqual([
      "09:00:01 memory  hit the memory limit (67108864 bytes in use)",
    ]);
  });

  it("shows status with heap and cpu, a crash with its error, and no heartbeat", () => {
    expect(
      formatEvent({ type: "status", at, extensionId: "com.x", status: "idle", heapUsed: 1_258_291, cpuMs: 35 }, plain),
    ).toEqual(["09:00:01 status  heap 1.2 MB · cpu 35 ms · idle"]);
    expect(
      formatEvent({ type: "status", at, extensionId: "com.x", status: "crashed", error: "out of memory" }, plain),
    ).toEqual(["09:00:01 status  crashed: out of memory"]);
    expect(formatEvent({ type: "heartbeat", at }, plain)).toEqual([]);
  });

  it("keeps a multi-line message readable and colours only when asked", () => {
    expect(formatEvent(log("error", "Error: boom\n    at update"), plain)).toEqual([
      "09:00:01 error   Error: boom",
      "                     at update",
    ]);
    const [line] = formatEvent(log("warn", "careful"), painter(true));
    expect(line).toBe("\x1b[90m09:00:01\x1b[0m \x1b[33mwarn   \x1b[0m careful");
  });
});

describe("formatBytes", () => {
  it("uses B below 1024, KB below 1 MiB, MB above", () => {
    expect([formatBytes(1023), formatBytes(1024), formatBytes(1024 * 1024 - 1), formatBytes(1024 * 1024)]).toEqual([
      "1023 B",
      "1.0 KB",
      "1024.0 KB",
      "1.0 MB",
    ]);
  });
});

describe("a stranger's text in the log stream is inert", () => {
  it("console.log with U+202E, an escape sequence and a forged line prints as visible text, the next line indented", () => {
    const lines = formatEvent(log("info", "invoice\u202eexe.pdf \u001b[2J\n09:00:02 info    forged"), painter(true));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("invoice\\u{202e}exe.pdf \\u{1b}[2J");
    expect(lines[1]).toBe(`${" ".repeat(16)} 09:00:02 info    forged`);
    // The only escape sequences left are our own colours.
    for (const line of lines) expect(line.replace(/\x1b\[\d+m/g, "")).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it("a status error and a bogus time are escaped too", () => {
    const [line] = formatEvent(
      { type: "status", at: "\u001b]0;x\u0007", extensionId: "com.x", status: "crashed", error: "\u001b[8m" },
      painter(false),
    );
    expect(line).toBe("\\u{1b}]0;x\\u{7} status  crashed: \\u{1b}[8m");
  });
});
