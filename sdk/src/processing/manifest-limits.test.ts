/**
 * The manifest's size caps (LIMITS in schemas/limits.ts): each one at its limit (accepted) and
 * one past it (refused, with the field's path and the limit in the message).
 */
import { describe, expect, it } from "vitest";
import { LIMITS } from "../schemas/limits.js";
import { parseManifest } from "./manifest.js";

const pkg = (svc: object) => ({
  name: "many",
  version: "1.0.0",
  svc: { id: "com.example.many", title: "Many", ...svc },
});
const text = (n: number) => "a".repeat(n);
const list = <T>(n: number, item: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => item(i));
const option = (extra: object = {}) => ({ name: "o", title: "Option", type: "textfield", ...extra });
const dropdown = (choices: number, choice: (i: number) => object = (i) => ({ title: `C${i}`, value: `c${i}` })) =>
  option({ type: "dropdown", data: list(choices, choice) });

/** A manifest with `n` of the thing, and the error one past the cap gives. */
const CASES: { what: string; cap: number; manifest: (n: number) => object; error: string }[] = [
  {
    what: "options",
    cap: LIMITS.manifestPreferences,
    manifest: (n) => ({ preferences: list(n, (i) => option({ name: `o${i}` })) }),
    error: `"svc.preferences" should have at most ${LIMITS.manifestPreferences} options`,
  },
  {
    what: "dropdown choices",
    cap: LIMITS.manifestDropdownChoices,
    manifest: (n) => ({ preferences: [dropdown(n)] }),
    error: `"svc.preferences.0.data" should have at most ${LIMITS.manifestDropdownChoices} choices`,
  },
  {
    what: "dropdown choices in all",
    cap: LIMITS.manifestChoicesInAll,
    manifest: (n) => ({
      preferences: [
        dropdown(LIMITS.manifestDropdownChoices),
        { ...dropdown(LIMITS.manifestDropdownChoices - 1), name: "p" },
        { ...dropdown(n - 2 * LIMITS.manifestDropdownChoices + 1), name: "q" },
      ],
    }),
    error: `"svc.preferences" should have at most ${LIMITS.manifestChoicesInAll} dropdown choices in all (it has ${LIMITS.manifestChoicesInAll + 1})`,
  },
  {
    what: "characters of an option's name",
    cap: LIMITS.manifestNameChars,
    manifest: (n) => ({ preferences: [option({ name: text(n) })] }),
    error: `"svc.preferences.0.name" should be at most ${LIMITS.manifestNameChars} characters`,
  },
  {
    what: "characters of an option's title",
    cap: LIMITS.manifestTitleChars,
    manifest: (n) => ({ preferences: [option({ title: text(n) })] }),
    error: `"svc.preferences.0.title" should be at most ${LIMITS.manifestTitleChars} characters`,
  },
  {
    what: "characters of an option's placeholder",
    cap: LIMITS.manifestTitleChars,
    manifest: (n) => ({ preferences: [option({ placeholder: text(n) })] }),
    error: `"svc.preferences.0.placeholder" should be at most ${LIMITS.manifestTitleChars} characters`,
  },
  {
    what: "characters of an option's description",
    cap: LIMITS.manifestDescriptionChars,
    manifest: (n) => ({ preferences: [option({ description: text(n) })] }),
    error: `"svc.preferences.0.description" should be at most ${LIMITS.manifestDescriptionChars} characters`,
  },
  {
    what: "blip keys of an option",
    cap: LIMITS.manifestListEntries,
    manifest: (n) => ({ preferences: [option({ blips: list(n, (i) => `k${i}`) })] }),
    error: `"svc.preferences.0.blips" should have at most ${LIMITS.manifestListEntries} blip keys`,
  },
  {
    what: "characters of an option's blip key",
    cap: LIMITS.manifestNameChars,
    manifest: (n) => ({ preferences: [option({ blips: [text(n)] })] }),
    error: `"svc.preferences.0.blips.0" should be at most ${LIMITS.manifestNameChars} characters`,
  },
  {
    what: "characters of a choice's title",
    cap: LIMITS.manifestTitleChars,
    manifest: (n) => ({ preferences: [dropdown(1, () => ({ title: text(n), value: "v" }))] }),
    error: `"svc.preferences.0.data.0.title" should be at most ${LIMITS.manifestTitleChars} characters`,
  },
  {
    what: "characters of a choice's value",
    cap: LIMITS.manifestValueChars,
    manifest: (n) => ({ preferences: [dropdown(1, () => ({ title: "T", value: text(n) }))] }),
    error: `"svc.preferences.0.data.0.value" should be at most ${LIMITS.manifestValueChars} characters`,
  },
  {
    what: "categories",
    cap: LIMITS.manifestListEntries,
    manifest: (n) => ({ categories: list(n, (i) => `c${i}`) }),
    error: `"svc.categories" should have at most ${LIMITS.manifestListEntries} categories`,
  },
  {
    what: "watched paths",
    cap: LIMITS.manifestListEntries,
    manifest: (n) => ({
      permissions: { files: ["~/Projects"] },
      triggers: { watch: list(n, (i) => `~/Projects/p${i}`) },
    }),
    error: `"svc.triggers.watch" should have at most ${LIMITS.manifestListEntries} paths`,
  },
  {
    what: "characters of the icon",
    cap: LIMITS.manifestValueChars,
    manifest: (n) => ({ icon: text(n) }),
    error: `"svc.icon" should be at most ${LIMITS.manifestValueChars} characters`,
  },
  {
    what: "characters of the title",
    cap: LIMITS.manifestTitleChars,
    manifest: (n) => ({ title: text(n) }),
    error: `"svc.title" should be at most ${LIMITS.manifestTitleChars} characters`,
  },
  {
    what: "characters of the description",
    cap: LIMITS.manifestDescriptionChars,
    manifest: (n) => ({ description: text(n) }),
    error: `"svc.description" should be at most ${LIMITS.manifestDescriptionChars} characters`,
  },
];

describe("manifest size caps", () => {
  it("are the documented numbers", () => {
    expect({
      preferences: LIMITS.manifestPreferences,
      choices: LIMITS.manifestDropdownChoices,
      choicesInAll: LIMITS.manifestChoicesInAll,
      names: LIMITS.manifestNameChars,
      values: LIMITS.manifestValueChars,
      lists: LIMITS.manifestListEntries,
      titles: LIMITS.manifestTitleChars,
      descriptions: LIMITS.manifestDescriptionChars,
    }).toEqual({
      preferences: 32,
      choices: 256,
      choicesInAll: 512,
      names: 64,
      values: 256,
      lists: 32,
      titles: 100,
      descriptions: 1000,
    });
  });

  it.each(CASES)("$what: $cap is accepted, one more is refused by path", ({ cap, manifest, error }) => {
    const atCap = parseManifest(pkg(manifest(cap)));
    expect(atCap.ok ? "ok" : atCap.error).toBe("ok");
    const past = parseManifest(pkg(manifest(cap + 1)));
    expect(past.ok ? "ok" : past.errors).toEqual([error]);
  });

  it("refuses the 8,000-choice dropdown of the issue with one short line", () => {
    const result = parseManifest(pkg({ preferences: [dropdown(8000)] }));
    expect(result.ok ? "ok" : result.errors).toEqual([
      `"svc.preferences.0.data" should have at most ${LIMITS.manifestDropdownChoices} choices`,
    ]);
  });
});
