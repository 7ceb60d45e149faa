/**
 * Remembering, between runs, what the extension has already seen: which entries are new since
 * last time (`news`), and since when each piece of work has been under way (`underWay`).
 * Both keep their memory in `ctx.storage`, under a key of the author's choosing.
 */
import type { Storage } from "../types.js";

/** Anything with an `id`, or an id itself. */
export type Identified = string | { id: string | number };

const idOf = (entry: Identified): string => (typeof entry === "string" ? entry : String(entry.id));

/** Ids `news` remembers per key, newest first. */
const NEWS_MEMORY = 500;

/**
 * The entries not seen on earlier calls with this `key` (payments, errors, messages …), in
 * their given order. The first call only learns what is there and returns nothing, so an
 * extension's first run does not announce everything that already existed. Remembers the
 * last 500 ids, under storage key `news.<key>`.
 *
 * @example
 * const fresh = await news(ctx.storage, "payments", payments);
 * if (fresh.length) await ctx.notify(`${fresh.length} new payments`);
 */
export async function news<T extends Identified>(storage: Storage, key: string, entries: readonly T[]): Promise<T[]> {
  const storageKey = `news.${key}`;
  const remembered = await storage.get<string[]>(storageKey);
  const ids = entries.map(idOf);
  const seen = new Set(Array.isArray(remembered) ? remembered : []);
  const fresh = Array.isArray(remembered) ? entries.filter((_, i) => !seen.has(ids[i])) : [];
  const memory = [...new Set([...ids, ...seen])].slice(0, NEWS_MEMORY);
  await storage.set(storageKey, memory);
  return fresh;
}

/** What changed among the work under way since the last call. */
export interface UnderWay<T> {
  /** Under way now and not last time. */
  started: T[];
  /** Under way now and last time too. */
  continuing: T[];
  /** Ids under way last time and not now: finished (end their blips). */
  finished: string[];
  /** Id → when it was first seen under way (ISO), for every entry under way now. */
  since: Record<string, string>;
}

/**
 * Compares the work under way now (deploys, builds, jobs) with the last call for `key`:
 * what started, what goes on (and since when, even when the service does not say), and what
 * finished. Kept under storage key `underway.<key>`.
 *
 * @example
 * const { started, finished, since } = await underWay(ctx.storage, "deploys", running);
 * for (const d of running) await ctx.emit(session(`deploy-${d.id}`, { title: d.name, startedAt: since[d.id] }));
 * for (const id of finished) await ctx.end(`deploy-${id}`, { state: "success", dismissAfter: 60 });
 */
export async function underWay<T extends Identified>(
  storage: Storage,
  key: string,
  entries: readonly T[],
  now: number = Date.now(),
): Promise<UnderWay<T>> {
  const storageKey = `underway.${key}`;
  const stored = await storage.get<Record<string, string>>(storageKey);
  const before: Record<string, string> = stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  const has = (id: string) => Object.prototype.hasOwnProperty.call(before, id);
  const result: UnderWay<T> = { started: [], continuing: [], finished: [], since: {} };
  const nowIso = new Date(now).toISOString();
  // A Map, then Object.fromEntries: an id such as "__proto__" stays a plain key.
  const since = new Map<string, string>();
  for (const entry of entries) {
    const id = idOf(entry);
    if (has(id)) result.continuing.push(entry);
    else result.started.push(entry);
    since.set(id, has(id) && typeof before[id] === "string" ? before[id] : nowIso);
  }
  result.since = Object.fromEntries(since);
  result.finished = Object.keys(before).filter((id) => !since.has(id));
  await storage.set(storageKey, result.since);
  return result;
}
