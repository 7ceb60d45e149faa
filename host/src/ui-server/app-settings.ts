/**
 * The app's own settings (hover or click, display, fullscreen, motion, working hours), kept in
 * `<support>/ui-settings.json`, written atomically. A change is checked whole before it is
 * stored: a wrong field is refused with its name and what it should be, and nothing is lost.
 */
import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../support/atomic-file.js";
import type { AppSettings, WorkingHours } from "./wire.js";

export const DEFAULT_SETTINGS: AppSettings = {
  openOn: "hover",
  hoverDelayMs: 300,
  display: "primary",
  hideInFullscreen: true,
  reduceMotion: "system",
  workingHours: null,
  mayPop: {},
};

const MAX_HOVER_DELAY_MS = 5000;
/** Extensions with a pop choice of their own; more would only grow the file. */
export const MAX_POP_CHOICES = 500;

/** `mayPop` changes merge: `{ "<extension id>": true | false }` sets those, keeps the others. */
function mergePopChoices(current: Record<string, boolean>, value: unknown): Record<string, boolean> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    wrong("mayPop", "an object of extension id → true or false");
  const next = { ...current };
  for (const [id, allowed] of Object.entries(value)) {
    if (id.length === 0 || id.length > 200) wrong("mayPop", "keyed by extension ids of 1–200 characters");
    if (typeof allowed !== "boolean") wrong(`mayPop.${id.slice(0, 60)}`, "true or false");
    next[id] = allowed;
  }
  if (Object.keys(next).length > MAX_POP_CHOICES) wrong("mayPop", `at most ${MAX_POP_CHOICES} extensions`);
  return next;
}

function wrong(field: string, should: string): never {
  throw new Error(`settings: "${field}" should be ${should}`);
}

function checkWorkingHours(value: unknown): WorkingHours | null {
  if (value === null) return null;
  const hours = value as Partial<WorkingHours>;
  if (typeof value !== "object" || Array.isArray(value)) wrong("workingHours", "null or {start, end, weekdaysOnly}");
  for (const key of ["start", "end"] as const) {
    const minutes = hours[key];
    if (typeof minutes !== "number" || !Number.isInteger(minutes) || minutes < 0 || minutes > 1440) {
      wrong(`workingHours.${key}`, "minutes after midnight, 0–1440");
    }
  }
  if (typeof hours.weekdaysOnly !== "boolean") wrong("workingHours.weekdaysOnly", "true or false");
  if (hours.end! <= hours.start!) wrong("workingHours.end", "after the start");
  return { start: hours.start!, end: hours.end!, weekdaysOnly: hours.weekdaysOnly! };
}

/**
 * `current` with the fields of `change` applied, checked; throws an Error naming the first wrong field.
 *
 * @example
 * applySettings(DEFAULT_SETTINGS, { openOn: "click" }).openOn // "click"
 */
export function applySettings(current: AppSettings, change: unknown): AppSettings {
  if (typeof change !== "object" || change === null || Array.isArray(change)) wrong("(body)", "an object of settings");
  const next = { ...current };
  for (const [key, value] of Object.entries(change)) {
    switch (key) {
      case "openOn":
        if (value !== "hover" && value !== "click") wrong(key, '"hover" or "click"');
        next.openOn = value;
        break;
      case "hoverDelayMs":
        if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_HOVER_DELAY_MS)
          wrong(key, `whole milliseconds, 0–${MAX_HOVER_DELAY_MS}`);
        next.hoverDelayMs = value;
        break;
      case "display":
        if (typeof value !== "string" || value.length === 0 || value.length > 200)
          wrong(key, "a display name, 1–200 characters");
        next.display = value;
        break;
      case "hideInFullscreen":
        if (typeof value !== "boolean") wrong(key, "true or false");
        next.hideInFullscreen = value;
        break;
      case "reduceMotion":
        if (value !== "system" && value !== "on" && value !== "off") wrong(key, '"system", "on" or "off"');
        next.reduceMotion = value;
        break;
      case "workingHours":
        next.workingHours = checkWorkingHours(value);
        break;
      case "mayPop":
        next.mayPop = mergePopChoices(current.mayPop ?? {}, value);
        break;
      default:
        wrong(key.slice(0, 60), "left out: there is no such setting");
    }
  }
  return next;
}

export class AppSettingsFile {
  private constructor(
    private readonly path: string,
    private settings: AppSettings,
  ) {}

  /** Reads the file; a missing or unreadable one gives the defaults (and `problem` says why). */
  static async open(path: string, problem: (message: string) => void = () => {}): Promise<AppSettingsFile> {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch {
      return new AppSettingsFile(path, DEFAULT_SETTINGS);
    }
    try {
      return new AppSettingsFile(path, applySettings(DEFAULT_SETTINGS, JSON.parse(text)));
    } catch (error) {
      problem(`${path}: ${(error as Error).message}; using the defaults until Settings saves again`);
      return new AppSettingsFile(path, DEFAULT_SETTINGS);
    }
  }

  get current(): AppSettings {
    return this.settings;
  }

  /** Applies and stores a change; throws (storing nothing) when a field is wrong. */
  async change(change: unknown): Promise<AppSettings> {
    const next = applySettings(this.settings, change);
    await writeFileAtomic(this.path, `${JSON.stringify(next, null, 2)}\n`);
    this.settings = next;
    return next;
  }
}
