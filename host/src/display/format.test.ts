import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { speakerOf } from "@svc/api";
import { formatBlip, summarizeLayout } from "./format-blip.js";
import { clockTime, formatValue, shortDuration } from "./format-value.js";
import { LineDisplay } from "./line-display.js";
import { LiveDisplay, NOTIFY_SHOWN_MS, PANEL_AFTER_LINES_MS } from "./live-display.js";
import { describeEvent } from "./describe-event.js";
import type { ExtensionSummary, HostEvent } from "../events/index.js";
import { LINUX_SECRET_SERVICE_FIX } from "../app/trust.js";
import { JsonDisplay } from "./json-display.js";

const NOW = Date.parse("2030-01-01T12:00:00Z");
const FOCUS = { name: "Focus" };

describe("values", () => {
  it("formats each typed value", () => {
    expect(formatValue({ type: "number", value: 1234.5, unit: "req" })).toBe("1,234.5 req");
    expect(formatValue({ type: "percent", value: 0.42 })).toBe("42%");
    expect(formatValue({ type: "currency", value: { amount: 12.5, currency: "EUR" } })).toBe("€12.50");
    expect(formatValue({ type: "duration", value: 3_900 })).toBe("1h 05m");
    expect(formatValue({ type: "date", value: "2030-01-01T12:05:00Z" }, NOW)).toBe("in 5m");
    expect(formatValue({ type: "date", value: "2030-01-01T11:00:00Z" }, NOW)).toBe("1h 00m ago");
    expect(formatValue({ type: "text", value: "hi" })).toBe("hi");
    expect(formatValue("bare")).toBe("bare");
    expect(formatValue(7)).toBe("7");
    expect(formatValue({ type: "mystery" })).toBe("");
  });

  it("writes durations and clocks compactly", () => {
    expect(shortDuration(59)).toBe("59s");
    expect(shortDuration(61)).toBe("1m 01s");
    expect(shortDuration(90_000)).toBe("1d 1h");
    expect(clockTime(1499)).toBe("24:59");
    expect(clockTime(3723)).toBe("1:02:03");
  });
});

describe("blips", () => {
  it("summarizes every layout in a few words", () => {
    expect(summarizeLayout("progress", { fraction: 0.6, step: "Upload" }, NOW)).toBe("▓▓▓▓▓▓░░░░ 60% Upload");
    expect(summarizeLayout("session", { startedAt: "2030-01-01T11:48:00Z", step: "Editing" }, NOW)).toBe(
      "for 12m · Editing",
    );
    expect(summarizeLayout("list", { items: [{ id: "1", title: "Fix" }], total: 12 }, NOW)).toBe("12 items · Fix");
    expect(
      summarizeLayout("score", { home: { name: "A", score: 1 }, away: { name: "B", score: 2 }, period: "Q4" }, NOW),
    ).toBe("A 1 – 2 B · Q4");
    expect(summarizeLayout("countdown", { endsAt: "2030-01-01T12:25:00Z" }, NOW)).toBe("25:00 left");
    expect(summarizeLayout("countdown", { endsAt: "2030-01-01T11:00:00Z" }, NOW)).toBe("time's up");
    expect(summarizeLayout("meter", { meters: [{ label: "Disk", fraction: 0.71 }] }, NOW)).toBe("Disk ▓▓▓▓░ 71%");
    expect(summarizeLayout("stat", { value: { type: "percent", value: 0.5 }, label: "CPU" }, NOW)).toBe("50% CPU");
    expect(summarizeLayout("stat", "not an object", NOW)).toBe("");
  });

  it("puts the state mark, title and summary on one line", () => {
    const blip = {
      id: "x.y/k",
      title: "Focus",
      layout: "countdown",
      state: "running",
      data: { endsAt: "2030-01-01T12:25:00Z" },
      from: FOCUS,
    };
    expect(formatBlip(blip, NOW)).toBe("▶ [Focus] Focus  25:00 left");
    expect(formatBlip({ id: "x.y/k", ended: true, state: "success", from: { name: "x.y" } }, NOW)).toBe(
      "✔ [x.y] x.y/k (ended)",
    );
  });

  it("marks a blip stale when woken stale or past its staleAfter (ended wins)", () => {
    const from = { name: "System" };
    const quiet = { id: "x.y/k", title: "CPU", from, staleAfter: new Date(NOW - 1).toISOString() };
    expect(formatBlip(quiet, NOW)).toBe("• [System] CPU (stale)");
    expect(formatBlip({ ...quiet, staleAfter: new Date(NOW).toISOString() }, NOW)).toBe("• [System] CPU");
    expect(formatBlip({ id: "x.y/k", title: "CPU", from, stale: true }, NOW)).toBe("• [System] CPU (stale)");
    expect(formatBlip({ ...quiet, ended: true }, NOW)).toBe("• [System] CPU (ended)");
  });
});

describe("displays", () => {
  it("prints a device-flow sign-in's address and code each on its own line, a stranger's code inert", () => {
    let out = "";
    const display = new LineDisplay({ write: (text) => (out += text), now: () => NOW, logLevel: "warn" });
    const code = {
      type: "sign-in.code" as const,
      extensionId: "x.y",
      from: FOCUS,
      title: "GitHub",
      expiresAt: NOW + 900_000,
    };
    display.show({ ...code, userCode: "WDJB-MJHT", verificationUri: "https://github.com/login/device" });
    const lines = out.trimEnd().split("\n");
    expect(lines).toEqual([
      "12:00:00 🔑 [Focus] To sign in to GitHub, open",
      "12:00:00 https://github.com/login/device",
      "12:00:00 and type the code",
      "12:00:00 WDJB-MJHT",
    ]);
    out = "";
    display.show({ ...code, userCode: "\u001b]0;pwned\u0007", verificationUri: "https://x.example/\u202e" });
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });

  it("writes one timed line per change when not on a terminal", () => {
    let out = "";
    const display = new LineDisplay({ write: (text) => (out += text), now: () => NOW, logLevel: "warn" });
    display.show({ type: "notify", extensionId: "x.y", from: FOCUS, title: "Done", body: "Break" });
    display.show({ type: "log", level: "info", message: "quiet" });
    display.show({
      type: "run.end",
      id: "a.b",
      trigger: "interval",
      result: "timeout",
      error: "did not settle within 30 s",
      startedAt: 0,
      endedAt: 0,
    });
    expect(out.split("\n").map((line) => line.slice(9))).toEqual([
      "🔔 [Focus] Done — Break",
      "✘ a.b: interval run timed out: did not settle within 30 s",
      "",
    ]);
  });

  it("redraws the panel in place and shows a notification for a few seconds", () => {
    let out = "";
    let now = NOW;
    const display = new LiveDisplay({
      terminal: { write: (text) => (out += text), columns: 60 },
      now: () => now,
      tickMs: 0,
    });
    display.blips([{ id: "x.y/k", title: "Focus", layout: "stat", data: { value: "Ready" }, from: FOCUS }]);
    expect(out).toBe("\r\x1b[Jsvc · 1 blip\n  • [Focus] Focus  Ready\n");
    out = "";
    display.show({ type: "notify", extensionId: "x.y", from: FOCUS, title: "Hi" });
    expect(out).toBe("\x1b[2F\x1b[Jsvc · 1 blip\n  • [Focus] Focus  Ready\n  🔔 [Focus] Hi\n");
    out = "";
    now += NOTIFY_SHOWN_MS;
    display.blips([]);
    expect(out).toBe("\x1b[3F\x1b[Jsvc · 0 blips\n");
    out = "";
    // A line above the panel scrolls away and is never redrawn: never cut at the width.
    display.show({ type: "extension.error", id: "x.y", error: "x".repeat(100) });
    expect(out.split("\n")[0]).toBe(`\x1b[1F\x1b[J✘ x.y: ${"x".repeat(100)}`);
    out = "";
    display.show({ type: "secret-store", available: false, error: "no secret store", fix: LINUX_SECRET_SERVICE_FIX });
    expect(out.split("\n")[1]).toBe(`  to give this session one: ${LINUX_SECRET_SERVICE_FIX}`);
  });

  it("puts an error's stack frames on lines of their own, and keeps any other line break escaped", () => {
    let out = "";
    const display = new LiveDisplay({
      terminal: { write: (text) => (out += text), columns: 60 },
      now: () => NOW,
      tickMs: 0,
    });
    out = "";
    display.show({
      type: "log",
      level: "error",
      extensionId: "x.y",
      message:
        "update() threw: no route\n✔ forged\n    at explode (src/index.ts:4:9)\n    at update (src/index.ts:10:5)",
    });
    expect(out.split("\n").slice(0, 3)).toEqual([
      "\r\x1b[J[error] x.y: update() threw: no route\\u{a}✔ forged",
      "    at explode (src/index.ts:4:9)",
      "    at update (src/index.ts:10:5)",
    ]);
    expect(out).not.toContain("\\u{a}    at");
  });

  it("lists the extensions once, then a reload is its one line and a change only what changed", () => {
    let out = "";
    const display = new LineDisplay({ write: (text) => (out += text), now: () => NOW });
    const one: ExtensionSummary = { id: "a.b", source: "user", folder: "/x/ab", tools: [] };
    const two: ExtensionSummary = { id: "c.d", source: "bundled", folder: "/b/cd", tools: ["hash"] };
    const list = (active: ExtensionSummary[], broken: ExtensionSummary[] = []): HostEvent => ({
      type: "extensions",
      active,
      broken,
      overridden: [],
    });
    const lines = () => out.split("\n").map((line) => line.slice(9));
    display.show(list([one, two]));
    expect(lines()).toEqual(["extensions: 2 active", "  a.b (user)", "  c.d (bundled) tools: hash", ""]);
    out = "";
    display.show({ type: "extension.loaded", id: "a.b", reason: "reloaded" });
    display.show(list([one, two]));
    expect(lines()).toEqual(["a.b: reloaded", ""]);
    out = "";
    display.show(list([two], [{ ...one, error: "package.json is not JSON" }]));
    expect(lines()).toEqual(["  ✘ a.b (user, /x/ab): package.json is not JSON", ""]);
    out = "";
    display.show(list([two]));
    expect(lines()).toEqual(["  a.b: gone", ""]);
  });

  describe("the panel after printed lines (fake timers)", () => {
    let out = "";
    let display: LiveDisplay;
    beforeEach(() => {
      vi.useFakeTimers();
      out = "";
      display = new LiveDisplay({
        terminal: { write: (text) => (out += text), columns: 80 },
        now: () => NOW,
        tickMs: 0,
      });
    });
    afterEach(() => vi.useRealTimers());

    it("marks the blips of an extension whose last run failed, until a run succeeds", () => {
      display.blips([{ id: "x.y/k", title: "Count", layout: "stat", data: { value: 3 }, from: FOCUS }]);
      // A failed run prints a line, and the panel is drawn again once the lines pause.
      const run = (result: "ok" | "failed") => {
        display.show({ type: "run.end", id: "x.y", trigger: "interval", result, startedAt: 0, endedAt: 0 });
        vi.advanceTimersByTime(PANEL_AFTER_LINES_MS);
      };
      out = "";
      run("failed");
      expect(out).toContain("  • [Focus] Count  3 · ⚠ last run failed\n");
      out = "";
      run("ok");
      expect(out).toContain("  • [Focus] Count  3\n");
      expect(out).not.toContain("last run failed");
    });

    it("draws the panel once after a burst of printed lines, not once per line", () => {
      display.blips([{ id: "x.y/k", title: "Focus", layout: "stat", data: { value: "Ready" }, from: FOCUS }]);
      out = "";
      for (let i = 0; i < 100; i++)
        display.show({ type: "log", level: "warn", extensionId: "x.y", message: `line ${i}` });
      expect(out.match(/svc · 1 blip/g)).toBeNull();
      expect(out.match(/line \d+/g)).toHaveLength(100);
      vi.advanceTimersByTime(PANEL_AFTER_LINES_MS);
      expect(out.match(/svc · 1 blip/g)).toHaveLength(1);
      expect(out.endsWith("svc · 1 blip\n  • [Focus] Focus  Ready\n")).toBe(true);
    });
  });

  it("leaves quiet events without a line", () => {
    expect(describeEvent({ type: "run.start", id: "a.b", trigger: "launch", at: 0 }, NOW, "info")).toBeUndefined();
    expect(describeEvent({ type: "log", level: "debug", message: "x" }, NOW, "info")).toBeUndefined();
    // A denial is said once, by the runtime's warn line made from the same record.
    const denial = { kind: "fetch" as const, target: "x.example.com", reason: "not listed", at: 0 };
    expect(describeEvent({ type: "denied", extensionId: "a.b", denial }, NOW, "debug")).toBeUndefined();
  });
});

describe("strangers' text is inert on every display (red-team strings)", () => {
  const TITLE = "\u001b]0;pwned\u0007\u001b[1A\u001b[2K";
  /** Our own cursor moves only: `ESC [ <n> F`, `ESC [ J` and `\r` (a stranger's are escaped). */
  const withoutOwnCodes = (text: string) => text.replace(/\x1b\[\d*F|\x1b\[J|\r/g, "");

  it("the live panel shows a blip title that renames the terminal and erases a line as plain text", () => {
    let out = "";
    const display = new LiveDisplay({
      terminal: { write: (text) => (out += text), columns: 200 },
      now: () => NOW,
      tickMs: 0,
    });
    display.blips([{ id: "x.y/k", title: TITLE, layout: "stat", data: { value: "Ready" }, from: FOCUS }]);
    expect(out).toBe("\r\x1b[Jsvc · 1 blip\n  • [Focus] \\u{1b}]0;pwned\\u{7}\\u{1b}[1A\\u{1b}[2K  Ready\n");
    out = "";
    display.show({ type: "notify", extensionId: "x.y", from: FOCUS, title: "\u001b[2J", body: "\u202eexe.pdf" });
    expect(withoutOwnCodes(out)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    expect(out).toContain("🔔 [Focus] \\u{1b}[2J — \\u{202e}exe.pdf");
    out = "";
    display.show({ type: "log", level: "warn", extensionId: "x.y", message: "a\u202eb\nfake line" });
    expect(withoutOwnCodes(out)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
  });

  it("a line display escapes console.log text with U+202E and a forged newline", () => {
    let out = "";
    const display = new LineDisplay({ write: (text) => (out += text), now: () => NOW });
    display.show({
      type: "log",
      level: "warn",
      extensionId: "x.y",
      message: "invoice\u202eexe.pdf\n12:00:00 ✔ forged",
    });
    expect(out.split("\n")).toHaveLength(2);
    expect(out).toContain("invoice\\u{202e}exe.pdf\\u{a}12:00:00 ✔ forged");
  });

  it("the JSON display writes bidi and C1 characters as \\u escapes, still valid JSON", () => {
    let out = "";
    new JsonDisplay((text) => (out += text)).show({
      type: "notify",
      extensionId: "x.y",
      from: FOCUS,
      title: "a\u202eb\u0085",
    });
    expect(out).toBe('{"type":"notify","extensionId":"x.y","from":{"name":"Focus"},"title":"a\\u202eb\\u0085"}\n');
    expect(JSON.parse(out)).toEqual({ type: "notify", extensionId: "x.y", from: FOCUS, title: "a\u202eb\u0085" });
  });
});

describe("who is speaking is on every notify line and blip line", () => {
  const catalog = [
    { id: "dev.svc.focus", title: "Focus" },
    { id: "com.evil.focus", title: "Focus" },
    { id: "com.evil.kc", title: "svc" },
    { id: "com.example.deploys", title: "Deploys" },
  ];
  const from = (id?: string) => speakerOf(id, catalog);

  it("a line display frames the sender before the text: svc's own voice cannot be borrowed", () => {
    let out = "";
    const display = new LineDisplay({ write: (text) => (out += text), now: () => NOW });
    display.show({
      type: "notify",
      extensionId: "com.evil.kc",
      from: from("com.evil.kc"),
      title: "svc: your keychain is locked — type your login password",
      body: "ok\nsvc: it is safe",
    });
    display.show({ type: "notify", extensionId: "com.evil.focus", from: from("com.evil.focus"), title: "Break over" });
    display.show({
      type: "notify",
      extensionId: "com.example.deploys",
      from: from("com.example.deploys"),
      title: "Up",
    });
    display.show({
      type: "blip",
      change: "update",
      id: "dev.svc.focus/session",
      seq: 3,
      blip: { id: "dev.svc.focus/session", title: "Focus", state: "running", from: from("dev.svc.focus") },
    });
    display.show({
      type: "blip",
      change: "update",
      id: "webhook/ci",
      seq: 1,
      blip: { id: "webhook/ci", title: "svc: update ready", from: from(undefined) },
    });
    expect(out.split("\n").map((line) => line.slice(9))).toEqual([
      "🔔 [svc · com.evil.kc] svc: your keychain is locked — type your login password — ok\\u{a}svc: it is safe",
      "🔔 [Focus · com.evil.focus] Break over",
      "🔔 [Deploys] Up",
      "▶ [Focus · dev.svc.focus] Focus  [dev.svc.focus/session #3]",
      "• [pushed] svc: update ready  [webhook/ci #1]",
      "",
    ]);
  });

  it("the live panel names the sender of each blip and of the notify line", () => {
    let out = "";
    const display = new LiveDisplay({
      terminal: { write: (text) => (out += text), columns: 80 },
      now: () => NOW,
      tickMs: 0,
    });
    display.blips([
      { id: "com.example.deploys/api", title: "api", state: "success", from: from("com.example.deploys") },
      { id: "webhook/ci", title: "CI", from: from(undefined) },
    ]);
    out = "";
    display.show({ type: "notify", extensionId: "com.evil.kc", from: from("com.evil.kc"), title: "svc: locked" });
    expect(out).toBe(
      "\x1b[3F\x1b[Jsvc · 2 blips\n  ✔ [Deploys] api\n  • [pushed] CI\n  🔔 [svc · com.evil.kc] svc: locked\n",
    );
  });
});
