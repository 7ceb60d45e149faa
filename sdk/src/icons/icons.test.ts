import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ICON_NAMES, baseIconName, iconWarning, isKnownIcon, suggestIcon } from "./index.js";
import { DOC_END, DOC_START, iconNamesMarkdown, withIconNames } from "./doc.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Every file under `dir` (skipping tests, build output and dependencies). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (["node_modules", "dist", "test", "fixtures"].includes(name) || name.includes(".test.")) return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js|mjs|json|md)$/.test(name) ? [path] : [];
  });
}

/** `icon: "name"`, `"icon": "name"`, and the kit's `icon: … ? "a" : "b"`. */
function iconNamesIn(text: string): string[] {
  const names = [...text.matchAll(/\bicon"?\s*:\s*"([^"]+)"/g)].map((m) => m[1]!);
  for (const m of text.matchAll(/\bicon\b[^\n]*\?\s*"([^"]+)"\s*:\s*"([^"]+)"/g)) names.push(m[1]!, m[2]!);
  return names;
}

describe("icon names", () => {
  it("are unique, sorted, and free of a .fill twin", () => {
    expect(new Set(ICON_NAMES).size).toBe(ICON_NAMES.length);
    expect([...ICON_NAMES]).toEqual([...ICON_NAMES].sort());
    expect(ICON_NAMES.filter((name) => name.endsWith(".fill"))).toEqual([]);
    expect(ICON_NAMES.length).toBeGreaterThanOrEqual(500);
  });

  it("cover every icon svc's SDK, kit, templates, bundled extensions and docs use", () => {
    const places = [
      "sdk/src",
      "sdk/README.md",
      "cli/src/scaffold/templates",
      "extensions",
      "README.md",
      "ARCHITECTURE.md",
      "docs",
      "host/README.md",
      "ui/README.md",
      "cli/README.md",
    ];
    const unknown: string[] = [];
    let seen = 0;
    for (const place of places) {
      const path = join(ROOT, place);
      for (const file of statSync(path).isDirectory() ? sources(path) : [path]) {
        for (const name of iconNamesIn(readFileSync(file, "utf8"))) {
          seen++;
          if (!isKnownIcon(name)) unknown.push(`${relative(ROOT, file)}: ${name}`);
        }
      }
    }
    expect(unknown).toEqual([]);
    expect(seen).toBeGreaterThan(40);
  });

  it("include the names of the issue that asked for them", () => {
    for (const name of [
      "gauge",
      "checklist",
      "wifi.slash",
      "gauge.with.dots.needle.67percent",
      "eurosign",
      "eye",
      "person.3",
    ])
      expect(isKnownIcon(name), name).toBe(true);
  });

  it("draw with .fill after them, and only then", () => {
    expect(baseIconName("bell.fill")).toBe("bell");
    expect(baseIconName("fillet")).toBe("fillet");
    expect(isKnownIcon("bell.fill")).toBe(true);
    expect(isKnownIcon("bell.fill.fill")).toBe(false);
    expect(isKnownIcon("Bell")).toBe(false);
  });

  it("suggest the nearest listed name, or the longest listed name the unknown one starts with", () => {
    expect(suggestIcon("guage")).toBe("gauge");
    expect(suggestIcon("checkmark.circl.fill")).toBe("checkmark.circle");
    expect(suggestIcon("cloud.sun.bolt.rain.wind")).toBe("cloud.sun");
    expect(suggestIcon("qqqqqq")).toBeUndefined();
  });

  it("warn with where, the name, the nearest one and where the list is", () => {
    expect(iconWarning('blip "cpu"', "gauge")).toBeUndefined();
    expect(iconWarning('blip "cpu"', "guage")).toBe(
      `blip "cpu": icon "guage" is not one svc draws (it shows a placeholder); did you mean "gauge"? The names are listed in @svc/api's README, "Icons".`,
    );
    expect(iconWarning("tool", "qqqqqq")).toBe(
      `tool: icon "qqqqqq" is not one svc draws (it shows a placeholder); The names are listed in @svc/api's README, "Icons".`,
    );
  });

  it("are listed in sdk/README.md exactly as ICON_NAMES has them", () => {
    const readme = readFileSync(join(ROOT, "sdk/README.md"), "utf8");
    expect(withIconNames(readme), "run `npm run icons:doc -w sdk`").toBe(readme);
    const listed = readme.slice(readme.indexOf(DOC_START), readme.indexOf(DOC_END));
    expect([...listed.matchAll(/`([^`]+)`/g)].map((m) => m[1]).slice(1)).toEqual([...ICON_NAMES]);
    expect(iconNamesMarkdown()).toContain("`wifi.slash`");
    expect(withIconNames("no markers here")).toBeUndefined();
  });
});
