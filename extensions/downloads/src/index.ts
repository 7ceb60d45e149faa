/**
 * Downloads: the browser downloads under way in ~/Downloads as one list, each with how much has
 * arrived and how fast (sizes from `stat`: the sandbox's file calls give names, not sizes), then
 * as done for an hour. Runs when the folder changes (a watch) and every 5 s while something
 * downloads. A browser does not write a download's total size beside it, so there is no
 * percentage to show, and none is made up.
 */
import { age, bytesText, defineExtension, joinLine, list, runProgram, stat, type Ctx, type ListItem } from "@svc/api";
import { idFor, parseStat, partials, STAT_FORMAT, type Partial } from "./downloads.js";

const DIR = "~/Downloads";
const STATE = "downloads";
/** How long a finished download stays in the list. */
const DONE_FOR = 3600 * 1000;
/** While something downloads, how soon to look again (seconds). */
const ACTIVE_EVERY = 5;

interface Tracked {
  id: string;
  browser: string;
  firstSeen: number;
  /** Bytes arrived at the last look, and when. */
  size?: number;
  at?: number;
  /** Bytes a second between the last two looks. */
  rate?: number;
  doneAt?: number;
}

type Book = Record<string, Tracked>;

async function sizes(ctx: Ctx, active: Partial[]): Promise<Map<string, number>> {
  if (active.length === 0) return new Map();
  const run = await runProgram(ctx, "stat", ["-c", STAT_FORMAT, "--", ...active.map((p) => p.measure)], {
    cwd: DIR,
    timeoutMs: 5_000,
  });
  // stat exits 1 when one file vanished meanwhile; the others' lines are still good.
  if (run.ran) return parseStat(run.stdout);
  ctx.log.warn(`stat: ${run.message}`);
  return new Map();
}

function track(book: Book, entries: string[], active: Partial[], measured: Map<string, number>, now: number): Book {
  const next: Book = {};
  for (const partial of active) {
    const old = book[partial.name];
    const size = measured.get(partial.measure);
    const seconds = old?.at === undefined ? 0 : (now - old.at) / 1000;
    const rate =
      size !== undefined && old?.size !== undefined && seconds > 0 && size >= old.size
        ? (size - old.size) / seconds
        : old?.rate;
    next[partial.name] = {
      id: idFor(partial.name),
      browser: partial.browser,
      firstSeen: old?.firstSeen ?? now,
      ...(size === undefined ? {} : { size, at: now }),
      ...(rate === undefined ? {} : { rate }),
    };
  }
  const present = new Set(entries);
  for (const [name, old] of Object.entries(book)) {
    if (next[name] || !present.has(name)) continue; // still partial, or cancelled and gone
    const doneAt = old.doneAt ?? now;
    if (now - doneAt < DONE_FOR) next[name] = { ...old, doneAt };
  }
  return next;
}

function items(book: Book, now: number): ListItem[] {
  const entries = Object.entries(book);
  const active = entries.filter(([, t]) => t.doneAt === undefined).sort((a, b) => a[1].firstSeen - b[1].firstSeen);
  const done = entries.filter(([, t]) => t.doneAt !== undefined).sort((a, b) => b[1].doneAt! - a[1].doneAt!);
  return [
    ...active.map(([name, t]) => ({
      id: t.id,
      title: name,
      subtitle: joinLine([
        t.browser,
        t.size === undefined ? null : `${bytesText(t.size)} so far`,
        t.rate ? `${bytesText(t.rate)}/s` : null,
      ]),
      icon: "arrow.down.circle",
      state: "running" as const,
    })),
    ...done.map(([name, t]) => ({
      id: t.id,
      title: name,
      subtitle: joinLine(["Done", age(t.doneAt!, now), t.size === undefined ? null : bytesText(t.size)]),
      icon: "checkmark.circle",
      state: "success" as const,
      actions: [{ id: "clear", title: "Clear", icon: "xmark", dismisses: true }],
    })),
  ];
}

async function refresh(ctx: Ctx): Promise<{ nextRunAfter?: number }> {
  // A folder that does not exist is outside every listed folder, so the fence refuses even the question.
  if (!(await ctx.files.exists(DIR).catch(() => false))) {
    await ctx.emit(
      stat("downloads", {
        title: "Downloads",
        icon: "folder",
        state: "warning",
        value: "No Downloads folder",
        label: "Create ~/Downloads, or have your browser save there",
      }),
    );
    return {};
  }
  const now = Date.now();
  const entries = await ctx.files.list(DIR);
  const active = partials(entries);
  const book = track((await ctx.storage.get<Book>(STATE)) ?? {}, entries, active, await sizes(ctx, active), now);
  await ctx.storage.set(STATE, book);
  const rows = items(book, now);
  if (rows.length === 0) {
    await ctx.emit(
      stat("downloads", {
        title: "Downloads",
        icon: "arrow.down.circle",
        state: "idle",
        value: "Nothing downloading",
        label: "Watching ~/Downloads",
      }),
    );
    return {};
  }
  await ctx.emit(
    list("downloads", {
      title: active.length > 0 ? `Downloading ${active.length}` : "Downloads",
      icon: "arrow.down.circle",
      state: active.length > 0 ? "running" : "success",
      items: rows,
      ...(rows.length > 5 ? { total: rows.length } : {}),
      // A speed from before a sleep would mislead.
      ...(active.length > 0 ? { staleAfter: 3 * ACTIVE_EVERY } : {}),
    }),
  );
  return active.length > 0 ? { nextRunAfter: ACTIVE_EVERY } : {};
}

export default defineExtension({
  update: refresh,
  async onEvent(ctx, event) {
    if (event.type === "file") await refresh(ctx);
  },
  async onAction(ctx, action) {
    if (action.actionId !== "clear" || !action.itemId) return;
    const book = (await ctx.storage.get<Book>(STATE)) ?? {};
    const name = Object.keys(book).find((n) => book[n]!.id === action.itemId);
    if (name) delete book[name];
    await ctx.storage.set(STATE, book);
    await refresh(ctx);
  },
});
