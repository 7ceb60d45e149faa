/**
 * The shell's own settings: `<support folder>/Desktop/settings.json`. Every key is optional; a
 * missing file means the defaults. A file that does not parse, or a value that does not fit,
 * keeps the default for that key and is reported once with what to fix; the file is never
 * rewritten by the shell (it is the person's).
 */
import { watch, type FSWatcher } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { defaultShortcut } from "./platform.js";

export const NOTCH_STYLES = ["auto", "notch", "floating"] as const;

export interface DesktopSettings {
  /** `primary`, `built-in` (the laptop's own display, else the primary), `pointer` (where the pointer is, when the notch opens), or a display id. */
  display: "primary" | "built-in" | "pointer" | number;
  /** `auto`: notch style on a display with a notch, floating elsewhere. */
  style: (typeof NOTCH_STYLES)[number];
  /** Hidden over fullscreen apps (macOS spaces). */
  hideInFullscreen: boolean;
  /** Left out of screenshots, recordings and screen sharing. */
  excludeFromCapture: boolean;
  /** Opens the notch and focuses the first blip; an Electron accelerator. */
  shortcut: string;
  /** Starts with the session (macOS and Windows login items). */
  openAtLogin: boolean;
}

/** The defaults on `platform`: only the shortcut differs (Ctrl+Shift+Space is an editor's key off macOS). */
export function defaultSettings(platform: NodeJS.Platform): DesktopSettings {
  return {
    display: "primary",
    style: "auto",
    hideInFullscreen: true,
    excludeFromCapture: false,
    shortcut: defaultShortcut(platform),
    openAtLogin: false,
  };
}

/** The defaults on this machine. */
export const DEFAULT_SETTINGS: Readonly<DesktopSettings> = Object.freeze(defaultSettings(process.platform));

const FIELDS = {
  display: z.union([z.enum(["primary", "built-in", "pointer"]), z.number().int().nonnegative()]),
  style: z.enum(NOTCH_STYLES),
  hideInFullscreen: z.boolean(),
  excludeFromCapture: z.boolean(),
  shortcut: z.string().trim().min(1).max(100),
  openAtLogin: z.boolean(),
} satisfies { [K in keyof DesktopSettings]: z.ZodType };

const WHAT_FITS: { [K in keyof DesktopSettings]: string } = {
  display: '"primary", "built-in", "pointer" or a display id (a whole number)',
  style: '"auto", "notch" or "floating"',
  hideInFullscreen: "true or false",
  excludeFromCapture: "true or false",
  shortcut: 'an accelerator such as "Control+Alt+Space"',
  openAtLogin: "true or false",
};

export interface LoadedSettings {
  settings: DesktopSettings;
  /** One line per problem, each naming the key and what fits; empty when the file is fine. */
  problems: string[];
}

export function settingsFile(supportFolder: string): string {
  return join(supportFolder, "Desktop", "settings.json");
}

/** Checks a parsed file key by key: what fits is kept, the rest falls back to its default. */
export function resolveSettings(
  raw: unknown,
  where = "settings.json",
  platform: NodeJS.Platform = process.platform,
): LoadedSettings {
  const defaults = defaultSettings(platform);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { settings: defaults, problems: [`${where} should hold a JSON object; using the defaults`] };
  }
  const settings: DesktopSettings = { ...defaults };
  const problems: string[] = [];
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(FIELDS) as (keyof DesktopSettings)[]) {
    if (input[key] === undefined) continue;
    const parsed = FIELDS[key].safeParse(input[key]);
    if (parsed.success) (settings as unknown as Record<string, unknown>)[key] = parsed.data;
    else problems.push(`${where}: "${key}" should be ${WHAT_FITS[key]}; using ${JSON.stringify(defaults[key])}`);
  }
  const unknown = Object.keys(input).filter((key) => !(key in FIELDS));
  if (unknown.length > 0)
    problems.push(
      `${where}: unknown ${unknown.length === 1 ? "key" : "keys"} ${unknown.map((k) => JSON.stringify(k.slice(0, 40))).join(", ")} ignored; the keys are ${Object.keys(FIELDS).join(", ")}`,
    );
  return { settings, problems };
}

/** Reads the file; a missing one is the defaults, a broken one the defaults and a problem. */
export async function loadSettings(
  file: string,
  platform: NodeJS.Platform = process.platform,
): Promise<LoadedSettings> {
  const defaults = defaultSettings(platform);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { settings: defaults, problems: [] };
    return {
      settings: defaults,
      problems: [`could not read ${file}: ${(error as Error).message}; using the defaults`],
    };
  }
  try {
    return resolveSettings(JSON.parse(text) as unknown, file, platform);
  } catch (error) {
    return {
      settings: defaults,
      problems: [`${file} is not JSON (${(error as Error).message}); using the defaults`],
    };
  }
}

/** Settles a burst of file events (editors write in several steps) before reading again. */
export const SETTINGS_QUIET_MS = 200;

/**
 * Calls `onChange` with the file's settings each time it changes (written, replaced or removed).
 * Returns the function that stops watching.
 */
export function watchSettings(
  file: string,
  onChange: (loaded: LoadedSettings) => void,
  platform: NodeJS.Platform = process.platform,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  try {
    // The folder, not the file: editors and atomic writes replace the file.
    watcher = watch(dirname(file), (_event, name) => {
      if (name !== null && name !== basename(file)) return;
      clearTimeout(timer);
      timer = setTimeout(() => void loadSettings(file, platform).then(onChange), SETTINGS_QUIET_MS);
    });
    watcher.on("error", () => watcher?.close());
  } catch {
    // No folder to watch: the settings are read at start only.
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
