/**
 * Triage for work items (issues, reviews, alerts) shown in a list blip: a person marks an item
 * done or snoozes it from its buttons; the extension keeps those marks in storage (a "triage
 * book") and orders its list open first, then snoozed (soonest to wake first), then done.
 * A done item whose source changed after it was marked done is open again.
 *
 * The pure helpers take the book; `readTriage` and `applyTriage` keep it in `ctx.storage`.
 */
import type { Action, ListItem } from "../schemas/index.js";
import { type DateInput, toEpochMs } from "../builders/instant.js";
import type { ActionEvent, Storage } from "../types.js";
import { joinLine, timeLeft } from "./wording.js";
import { type SnoozeOptions, snoozeUntil } from "./snooze.js";

/** A mark on one item: done (since `at`), or snoozed until `until`. Times are ISO strings. */
export type TriageMark = { state: "done"; at: string } | { state: "snoozed"; at: string; until: string };

/** Item id → its mark. Items without a mark are open. */
export type TriageBook = Record<string, TriageMark>;

/** Where an item stands. */
export type TriageState = "open" | "snoozed" | "done";

/**
 * The triage vocabulary: the states, the storage key of the book, and ready-made buttons for
 * list items. `done` and `snooze` dismiss the item at once; `snooze` asks how long.
 *
 * @example
 * { id: pr.id, title: pr.title, actions: [TRIAGE.done, TRIAGE.snooze] }
 */
export const TRIAGE = Object.freeze({
  states: Object.freeze(["open", "snoozed", "done"] as const),
  /** The `ctx.storage` key `readTriage` and `applyTriage` use by default. */
  storageKey: "svc.triage",
  done: Object.freeze({ id: "triage.done", title: "Done", icon: "checkmark", dismisses: true }) as Action,
  snooze: Object.freeze({
    id: "triage.snooze",
    title: "Snooze",
    icon: "moon.zzz",
    input: Object.freeze({ placeholder: "3h, tomorrow, monday…" }),
    dismisses: true,
  }) as Action,
  /** On a snoozed item: back to open now. */
  wake: Object.freeze({ id: "triage.wake", title: "Wake", icon: "sun.max" }) as Action,
  /** On a done item: back to open. */
  reopen: Object.freeze({ id: "triage.reopen", title: "Reopen", icon: "arrow.uturn.backward" }) as Action,
});

const TRIAGE_ACTION_IDS = new Set([TRIAGE.done.id, TRIAGE.snooze.id, TRIAGE.wake.id, TRIAGE.reopen.id]);

/**
 * Where item `id` stands at `now`. A snooze that has run out is open; a done mark older than
 * the item's last change (`changedAt`) is open.
 *
 * @example
 * triageState(book, "pr-42", Date.now(), pr.updated_at) // "open" | "snoozed" | "done"
 */
export function triageState(
  book: TriageBook,
  id: string,
  now: number = Date.now(),
  changedAt?: DateInput,
): TriageState {
  const mark = Object.prototype.hasOwnProperty.call(book, id) ? book[id] : undefined;
  if (!mark) return "open";
  if (mark.state === "snoozed") return Date.parse(mark.until) > now ? "snoozed" : "open";
  if (changedAt !== undefined && toEpochMs(changedAt) > Date.parse(mark.at)) return "open";
  return "done";
}

/** Stable partition: items `isLast` keeps go after the others, in `order` (else as they came). */
function moveLast<T>(items: readonly T[], isLast: (item: T) => boolean, order?: (a: T, b: T) => number): T[] {
  const first = items.filter((item) => !isLast(item));
  const last = items.filter(isLast);
  return [...first, ...(order ? last.sort(order) : last)];
}

/**
 * Items snoozed at `now` moved last, the soonest to wake first; the rest keep their order.
 *
 * @example
 * sortSnoozed(items, book) // [open…, snoozed…]
 */
export function sortSnoozed<T extends { id: string }>(
  items: readonly T[],
  book: TriageBook,
  now: number = Date.now(),
): T[] {
  const wakes = (item: T) => Date.parse((book[item.id] as { until: string }).until);
  return moveLast(
    items,
    (item) => triageState(book, item.id, now) === "snoozed",
    (a, b) => wakes(a) - wakes(b),
  );
}

/**
 * Items marked done moved last, keeping their order. Give `changedAt` to reopen items that
 * changed after they were marked done.
 *
 * @example
 * sortDone(items, book, (item) => item.updatedAt)
 */
export function sortDone<T extends { id: string }>(
  items: readonly T[],
  book: TriageBook,
  changedAt?: (item: T) => DateInput | undefined,
): T[] {
  return moveLast(items, (item) => triageState(book, item.id, Date.now(), changedAt?.(item)) === "done");
}

/** The item's own buttons without the triage ones, then `extra`. */
function withTriageButton(item: ListItem, extra: Action): Action[] {
  return [...(item.actions ?? []).filter((action) => !TRIAGE_ACTION_IDS.has(action.id)), extra];
}

/**
 * A list item dressed as snoozed: idle, "wakes in 2h" after its subtitle, and a Wake button
 * in place of the triage ones.
 *
 * @example
 * snoozedItem({ id: "pr-42", title: "Fix login" }, "2025-03-01T12:00:00Z", now)
 * // { id: "pr-42", title: "Fix login", subtitle: "wakes in 2h", state: "idle", actions: [TRIAGE.wake] }
 */
export function snoozedItem(item: ListItem, until: DateInput, now: number = Date.now()): ListItem {
  return {
    ...item,
    subtitle: joinLine([item.subtitle, `wakes ${timeLeft(until, now)}`]),
    state: "idle",
    actions: withTriageButton(item, TRIAGE.wake),
  };
}

/**
 * A list item dressed as done: state `success` and a Reopen button in place of the triage ones.
 *
 * @example
 * doneItem({ id: "pr-42", title: "Fix login" }) // { …, state: "success", actions: [TRIAGE.reopen] }
 */
export function doneItem(item: ListItem): ListItem {
  return { ...item, state: "success", actions: withTriageButton(item, TRIAGE.reopen) };
}

/**
 * The whole triage pass for a list: open items as they are, then snoozed ones dressed with
 * {@link snoozedItem} (soonest to wake first), then done ones dressed with {@link doneItem}.
 *
 * @example
 * const book = await readTriage(ctx.storage);
 * await ctx.emit(list("reviews", { title: "Reviews", items: triaged(items, book).slice(0, 5) }));
 */
export function triaged(
  items: readonly ListItem[],
  book: TriageBook,
  options: { now?: number; changedAt?: (item: ListItem) => DateInput | undefined } = {},
): ListItem[] {
  const now = options.now ?? Date.now();
  const stateOf = (item: ListItem) => triageState(book, item.id, now, options.changedAt?.(item));
  const open = items.filter((item) => stateOf(item) === "open");
  const snoozed = sortSnoozed(
    items.filter((item) => stateOf(item) === "snoozed"),
    book,
    now,
  );
  const done = items.filter((item) => stateOf(item) === "done");
  return [
    ...open,
    ...snoozed.map((item) => snoozedItem(item, (book[item.id] as { until: string }).until, now)),
    ...done.map(doneItem),
  ];
}

/** Marks kept at most: the oldest go first. */
const MAX_MARKS = 1000;

/**
 * The triage book in storage, without snoozes that have run out.
 *
 * @example
 * const book = await readTriage(ctx.storage);
 */
export async function readTriage(
  storage: Storage,
  key: string = TRIAGE.storageKey,
  now: number = Date.now(),
): Promise<TriageBook> {
  const stored = await storage.get<TriageBook>(key);
  const book: TriageBook = {};
  if (!stored || typeof stored !== "object") return book;
  for (const [id, mark] of Object.entries(stored)) {
    if (mark?.state === "done" && typeof mark.at === "string") book[id] = mark;
    if (mark?.state === "snoozed" && typeof mark.until === "string" && Date.parse(mark.until) > now) book[id] = mark;
  }
  return book;
}

/**
 * Applies a pressed triage button (`TRIAGE.done`, `snooze`, `wake`, `reopen`) to the stored
 * book, for the list item it was on (or the blip itself). Returns false, changing nothing, for
 * any other action. A snooze reads `action.input` with {@link snoozeUntil}.
 *
 * @example
 * async onAction(ctx, action) {
 *   if (await applyTriage(ctx.storage, action)) return ctx.emit(await reviewsBlip(ctx));
 * }
 */
export async function applyTriage(
  storage: Storage,
  action: Pick<ActionEvent, "actionId" | "itemId" | "key" | "input">,
  options: SnoozeOptions & { now?: number; key?: string } = {},
): Promise<boolean> {
  if (!TRIAGE_ACTION_IDS.has(action.actionId)) return false;
  const now = options.now ?? Date.now();
  const key = options.key ?? TRIAGE.storageKey;
  const id = action.itemId ?? action.key;
  const book = await readTriage(storage, key, now);
  const at = new Date(now).toISOString();
  delete book[id];
  if (action.actionId === TRIAGE.done.id) book[id] = { state: "done", at };
  if (action.actionId === TRIAGE.snooze.id)
    book[id] = { state: "snoozed", at, until: snoozeUntil(action.input, now, options) };
  const newestFirst = Object.entries(book).sort(([, a], [, b]) => Date.parse(b.at) - Date.parse(a.at));
  await storage.set(key, Object.fromEntries(newestFirst.slice(0, MAX_MARKS)));
  return true;
}
