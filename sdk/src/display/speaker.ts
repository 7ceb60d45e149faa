/**
 * Who is speaking: the name every display puts on a stranger's notify line and blip. It comes
 * from the app's own catalog (the manifest's `svc.title` as installed), never from anything the
 * extension sends at run time, and pushed blips (`POST /v1/blips`) say "pushed".
 *
 * A title can still be chosen to deceive: "svc", "Ѕvс" in Cyrillic, "Focus" while another
 * extension is Focus, "Focus: svc", or a hundred characters that push the rest away. Such a name
 * is shown **with its id** (`svc · com.evil.keychain`), so two speakers never read the same and
 * none reads as svc itself. The rule, `speakerOf`:
 *
 * - the title is escaped (display-text.ts) and clipped to `SPEAKER_NAME_MAX` characters;
 * - the id is added when the title was clipped, holds a character outside letters, digits,
 *   marks, spaces and `. - _ ' & +` (so no `:`, brackets or `·` that could fake a frame),
 *   looks like "svc", "pushed" or "unknown" once folded (`nameSkeleton`: case, width, accents, common
 *   look-alike letters and digits), or folds to the same skeleton as another extension's title.
 */

import { escapeForDisplay } from "./display-text.js";

/** What pushed blips are attributed to: they come over HTTP, not from an extension. */
export const PUSHED_SPEAKER = "pushed";
/** What a line whose sender is not known is attributed to (the host always names one). */
export const UNKNOWN_SPEAKER = "unknown";
/** Longest name shown before it is clipped (and the id added). */
export const SPEAKER_NAME_MAX = 32;

/** An extension as the catalog knows it: its id and its manifest's title. */
export interface CatalogName {
  id: string;
  title?: string;
}

/** The speaker of a line: its name, and its id when the name alone could mislead. */
export interface Speaker {
  name: string;
  /** Present when the name collides, mimics svc, "pushed" or "unknown", or was clipped. */
  id?: string;
}

/** Letters that look like Latin ones in common fonts (Cyrillic, Greek), and look-alike digits. */
const LOOK_ALIKES: Record<string, string> = {
  а: "a",
  в: "b",
  с: "c",
  ԁ: "d",
  е: "e",
  һ: "h",
  і: "i",
  ј: "j",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  ԛ: "q",
  ѕ: "s",
  т: "t",
  у: "y",
  ѵ: "v",
  х: "x",
  ԝ: "w",
  ϲ: "c",
  ν: "v",
  ο: "o",
  ρ: "p",
  α: "a",
  ε: "e",
  ι: "i",
  κ: "k",
  τ: "t",
  υ: "u",
  χ: "x",
  "0": "o",
  "1": "l",
  "3": "e",
  "5": "s",
  $: "s",
  "|": "l",
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join("").replace(/[$|]/g, "\\$&")}]`, "gu");

/** Names that are svc's own voice or the labels it gives lines itself. */
const RESERVED_SKELETONS = ["svc", PUSHED_SPEAKER, UNKNOWN_SPEAKER];

/** A plain name: letters, digits, marks, spaces and a little punctuation; nothing that frames. */
const PLAIN_NAME = /^[\p{L}\p{N}\p{M} .'&+_-]+$/u;

/**
 * A title folded for comparison: compatibility forms, lower case, accents dropped, look-alike
 * letters and digits mapped to Latin, then only letters and digits kept.
 *
 * @example
 * nameSkeleton("S V C")    // "svc"
 * nameSkeleton("Ѕvс")      // "svc" (Cyrillic Ѕ and с)
 * nameSkeleton("Fōcus")    // "focus"
 */
export function nameSkeleton(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(LOOK_ALIKE, (char) => LOOK_ALIKES[char] ?? char)
    .replace(/[^\p{L}\p{N}]/gu, "");
}

function misleads(skeleton: string): boolean {
  return skeleton === "" || RESERVED_SKELETONS.some((word) => skeleton.includes(word));
}

/**
 * The speaker of an extension's line (or of a pushed blip: `extensionId` undefined), from the
 * catalog's titles. An id the catalog does not hold (uninstalled since) is named by its id.
 *
 * @example
 * speakerOf("dev.svc.focus", [{ id: "dev.svc.focus", title: "Focus" }])   // { name: "Focus" }
 * speakerOf("com.evil.kc", [{ id: "com.evil.kc", title: "svc" }])        // { name: "svc", id: "com.evil.kc" }
 * speakerOf(undefined, [])                                               // { name: "pushed" }
 */
export function speakerOf(extensionId: string | undefined, catalog: Iterable<CatalogName>): Speaker {
  if (extensionId === undefined) return { name: PUSHED_SPEAKER };
  const entries = [...catalog];
  const title = entries.find((entry) => entry.id === extensionId)?.title;
  if (title === undefined) return { name: escapeForDisplay(extensionId, { max: 128 }) };
  const name = escapeForDisplay(title, { max: SPEAKER_NAME_MAX });
  const skeleton = nameSkeleton(title);
  const collides = entries.some(
    (entry) => entry.id !== extensionId && entry.title !== undefined && nameSkeleton(entry.title) === skeleton,
  );
  const withId = name !== title || !PLAIN_NAME.test(title) || misleads(skeleton) || collides;
  return withId ? { name, id: escapeForDisplay(extensionId, { max: 128 }) } : { name };
}

/**
 * The speaker as one piece of text, as the terminal frames it.
 *
 * @example
 * speakerText({ name: "Focus" })                   // "Focus"
 * speakerText({ name: "svc", id: "com.evil.kc" })  // "svc · com.evil.kc"
 */
export function speakerText(speaker: Speaker): string {
  return speaker.id === undefined ? speaker.name : `${speaker.name} · ${speaker.id}`;
}
