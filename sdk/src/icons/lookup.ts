/**
 * Is an icon name one svc draws, and which one was meant when it is not.
 */
import { ICON_NAMES, type IconName } from "./names.js";
import { nearestWord } from "./nearest.js";
import { baseIconName } from "./base-name.js";

const KNOWN: ReadonlySet<string> = new Set(ICON_NAMES);

/** Whether svc draws `name` (a listed name, with or without `.fill`). */
export function isKnownIcon(name: string): boolean {
  return KNOWN.has(baseIconName(name));
}

/**
 * The listed name `name` was most likely meant to be: the closest in spelling, else the longest
 * listed name it starts with (`person.crop.circle.badge.moon` → `person.crop.circle`).
 *
 * @example
 * suggestIcon("guage")                      // "gauge"
 * suggestIcon("cloud.sun.bolt")             // "cloud.sun"
 */
export function suggestIcon(name: string): IconName | undefined {
  const base = baseIconName(name);
  const close = nearestWord(base, ICON_NAMES);
  if (close) return close as IconName;
  let prefix: IconName | undefined;
  for (const known of ICON_NAMES) {
    if (base.startsWith(`${known}.`) && (!prefix || known.length > prefix.length)) prefix = known;
  }
  return prefix;
}

/**
 * A warning for an icon svc does not draw, naming where it is and the fix; undefined when it draws.
 *
 * @example
 * iconWarning('blip "cpu"', "guage")
 * // 'blip "cpu": icon "guage" is not one svc draws (it shows a placeholder); did you mean "gauge"? The names are listed in @svc/api\'s README, "Icons".'
 */
export function iconWarning(where: string, name: string): string | undefined {
  if (isKnownIcon(name)) return undefined;
  const meant = suggestIcon(name);
  return `${where}: icon ${JSON.stringify(name)} is not one svc draws (it shows a placeholder); ${meant ? `did you mean ${JSON.stringify(meant)}? ` : ""}The names are listed in @svc/api's README, "Icons".`;
}
