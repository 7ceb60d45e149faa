/**
 * Recently used tools, most recent first: the tray lists them before the categories. Kept in the
 * page's localStorage as tool ids only (never inputs), at most `RECENT_MAX`.
 */
export const RECENT_MAX = 5;
const KEY = "svc.recentTools";

/** `recent` with `id` moved to the front, capped. */
export function noteRecent(recent: readonly string[], id: string): string[] {
  return [id, ...recent.filter((r) => r !== id)].slice(0, RECENT_MAX);
}

/** The recent tools that still exist, in recent order. */
export function recentTools<T extends { id: string }>(tools: readonly T[], recent: readonly string[]): T[] {
  return recent.map((id) => tools.find((t) => t.id === id)).filter((t): t is T => t !== undefined);
}

export function loadRecent(storage: Pick<Storage, "getItem"> | undefined): string[] {
  try {
    const list = JSON.parse(storage?.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === "string").slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

export function saveRecent(storage: Pick<Storage, "setItem"> | undefined, recent: readonly string[]): void {
  try {
    storage?.setItem(KEY, JSON.stringify(recent));
  } catch {
    // Storage full or refused: the list lasts for this page only.
  }
}
