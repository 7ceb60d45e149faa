import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppSettingsFile, applySettings, DEFAULT_SETTINGS, MAX_POP_CHOICES } from "./app-settings.js";

describe("applySettings", () => {
  it("applies known fields and refuses a wrong one by name", () => {
    expect(applySettings(DEFAULT_SETTINGS, { openOn: "click", hoverDelayMs: 5000 })).toMatchObject({
      openOn: "click",
      hoverDelayMs: 5000,
    });
    expect(() => applySettings(DEFAULT_SETTINGS, { hoverDelayMs: 5001 })).toThrow(
      'settings: "hoverDelayMs" should be whole milliseconds, 0–5000',
    );
    expect(() => applySettings(DEFAULT_SETTINGS, { openOn: "hover", colour: "red" })).toThrow(
      'settings: "colour" should be left out: there is no such setting',
    );
    expect(() =>
      applySettings(DEFAULT_SETTINGS, { workingHours: { start: 540, end: 1441, weekdaysOnly: true } }),
    ).toThrow('settings: "workingHours.end" should be minutes after midnight, 0–1440');
    expect(() =>
      applySettings(DEFAULT_SETTINGS, { workingHours: { start: 600, end: 540, weekdaysOnly: true } }),
    ).toThrow('settings: "workingHours.end" should be after the start');
    expect(
      applySettings(DEFAULT_SETTINGS, { workingHours: { start: 0, end: 1440, weekdaysOnly: false } }).workingHours,
    ).toEqual({ start: 0, end: 1440, weekdaysOnly: false });
  });

  it("merges pop choices per extension, up to the limit", () => {
    const one = applySettings(DEFAULT_SETTINGS, { mayPop: { "com.a": true } });
    expect(applySettings(one, { mayPop: { "com.b": false } }).mayPop).toEqual({ "com.a": true, "com.b": false });
    expect(() => applySettings(DEFAULT_SETTINGS, { mayPop: { "com.a": "yes" } })).toThrow(
      'settings: "mayPop.com.a" should be true or false',
    );
    expect(() => applySettings(DEFAULT_SETTINGS, { mayPop: ["com.a"] })).toThrow(
      'settings: "mayPop" should be an object of extension id → true or false',
    );
    const full = Object.fromEntries(Array.from({ length: MAX_POP_CHOICES }, (_, i) => [`ext.${i}`, true]));
    expect(Object.keys(applySettings(DEFAULT_SETTINGS, { mayPop: full }).mayPop)).toHaveLength(MAX_POP_CHOICES);
    expect(() => applySettings(DEFAULT_SETTINGS, { mayPop: { ...full, "ext.one-more": true } })).toThrow(
      `settings: "mayPop" should be at most ${MAX_POP_CHOICES} extensions`,
    );
  });
});

describe("AppSettingsFile", () => {
  it("stores a change and keeps the old settings when a change is refused", async () => {
    const dir = await mkdtemp(join(tmpdir(), "svc-settings-"));
    try {
      const path = join(dir, "ui-settings.json");
      const file = await AppSettingsFile.open(path);
      expect(file.current).toEqual(DEFAULT_SETTINGS);
      await file.change({ reduceMotion: "on" });
      await expect(file.change({ reduceMotion: "sometimes" })).rejects.toThrow(
        '"reduceMotion" should be "system", "on" or "off"',
      );
      expect(JSON.parse(await readFile(path, "utf8")).reduceMotion).toBe("on");
      expect((await AppSettingsFile.open(path)).current.reduceMotion).toBe("on");
      await writeFile(path, "{ not json");
      const problems: string[] = [];
      expect((await AppSettingsFile.open(path, (m) => problems.push(m))).current).toEqual(DEFAULT_SETTINGS);
      expect(problems[0]).toContain("using the defaults until Settings saves again");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
