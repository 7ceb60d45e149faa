import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEFAULT_SETTINGS,
  defaultSettings,
  loadSettings,
  resolveSettings,
  settingsFile,
  watchSettings,
  type LoadedSettings,
} from "./settings.js";

describe("settings", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "svc-desktop-settings-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("lives in the support folder's Desktop folder", () => {
    expect(settingsFile("/s/Svc")).toBe(join("/s/Svc", "Desktop", "settings.json"));
  });

  it("is the defaults without a file", async () => {
    expect(await loadSettings(join(root, "settings.json"))).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
    expect(await loadSettings(join(root, "settings.json"), "darwin")).toEqual({
      settings: {
        display: "primary",
        style: "auto",
        hideInFullscreen: true,
        excludeFromCapture: false,
        shortcut: "Command+Shift+Space",
        openAtLogin: false,
      },
      problems: [],
    });
    // Off macOS, Ctrl+Shift+Space is an editor's own key (code completion, parameter hints).
    for (const platform of ["linux", "win32"] as const)
      expect((await loadSettings(join(root, "settings.json"), platform)).settings.shortcut).toBe("Control+Alt+Space");
  });

  it("keeps what fits and names what does not, key by key", () => {
    expect(
      resolveSettings({
        display: 2,
        style: "floating",
        excludeFromCapture: true,
        shortcut: "Alt+Space",
        openAtLogin: true,
        hideInFullscreen: false,
      }),
    ).toEqual({
      settings: {
        display: 2,
        style: "floating",
        excludeFromCapture: true,
        shortcut: "Alt+Space",
        openAtLogin: true,
        hideInFullscreen: false,
      },
      problems: [],
    });
    expect(
      resolveSettings(
        { display: "left", style: "round", hideInFullscreen: "yes", shortcut: "", colour: "red" },
        "settings.json",
        "linux",
      ),
    ).toEqual({
      settings: defaultSettings("linux"),
      problems: [
        'settings.json: "display" should be "primary", "built-in", "pointer" or a display id (a whole number); using "primary"',
        'settings.json: "style" should be "auto", "notch" or "floating"; using "auto"',
        'settings.json: "hideInFullscreen" should be true or false; using true',
        'settings.json: "shortcut" should be an accelerator such as "Control+Alt+Space"; using "Control+Alt+Space"',
        'settings.json: unknown key "colour" ignored; the keys are display, style, hideInFullscreen, excludeFromCapture, shortcut, openAtLogin',
      ],
    });
    expect(resolveSettings({ display: "built-in" }).settings.display).toBe("built-in");
    expect(resolveSettings({ display: "pointer" }).settings.display).toBe("pointer");
    expect(resolveSettings({ display: -1 }).problems).toHaveLength(1);
    expect(resolveSettings([1]).problems).toEqual(["settings.json should hold a JSON object; using the defaults"]);
  });

  it("takes a shortcut up to 100 characters, not 101", () => {
    expect(resolveSettings({ shortcut: "A".repeat(100) }).problems).toEqual([]);
    expect(resolveSettings({ shortcut: "A".repeat(101) }).problems).toHaveLength(1);
  });

  it("reads a broken file as the defaults and says where", async () => {
    const file = join(root, "settings.json");
    await writeFile(file, "{ not json");
    const loaded = await loadSettings(file);
    expect(loaded.settings).toEqual(DEFAULT_SETTINGS);
    expect(loaded.problems[0]).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not JSON \\(.+\\); using the defaults$`),
    );
  });

  it("is read again when the file is written, replaced or removed", async () => {
    const folder = join(root, "Desktop");
    await mkdir(folder);
    const file = join(folder, "settings.json");
    const seen: LoadedSettings[] = [];
    let check = () => {};
    const stop = watchSettings(file, (loaded) => {
      seen.push(loaded);
      check();
    });
    // Resolves once the latest reading matches (a file event may come more than once per write).
    const until = (match: (loaded: LoadedSettings) => boolean) =>
      new Promise<void>((resolve) => {
        check = () => seen.length > 0 && match(seen.at(-1)!) && resolve();
        check();
      });
    try {
      await writeFile(file, JSON.stringify({ excludeFromCapture: true }));
      await until((loaded) => loaded.settings.excludeFromCapture);
      await writeFile(join(folder, "other.json"), "{}"); // not ours: no reload
      await writeFile(file, JSON.stringify({ style: "floating" }));
      await until((loaded) => loaded.settings.style === "floating");
      expect(seen.at(-1)!.settings).toEqual({ ...DEFAULT_SETTINGS, style: "floating" });
      await rm(file);
      await until((loaded) => loaded.settings.style === "auto");
      expect(seen.at(-1)).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
    } finally {
      stop();
    }
  });
});
