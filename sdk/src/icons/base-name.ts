/** Alone in its file so the page can import it without the name list. */

/**
 * The name without a trailing `.fill` (svc draws outlines only, so `bell.fill` is `bell`).
 *
 * @example
 * baseIconName("bell.fill") // "bell"
 */
export function baseIconName(name: string): string {
  return name.endsWith(".fill") ? name.slice(0, -".fill".length) : name;
}
