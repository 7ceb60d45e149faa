/**
 * The store of live blips: every blip by id with its source, in arrival order (a new blip goes
 * to the end of the panel). It applies the runtime's `blip.update` / `blip.end` / `blip.remove`
 * and the HTTP server's pushes, refuses any write whose `seq` is not newer than the last one
 * for that id, removes ended blips after their `dismissAfter`, persists itself and announces
 * every change.
 *
 * Caps (`LIMITS.blipsPerExtension`, `LIMITS.pushedBlips` in `@svc/api`): a write that would
 * add a blip past its source's cap is refused with a warning; updates of live blips always go.
 * Every page gets every blip, so one source must not be able to bury the others.
 *
 * Seq ownership: each id's last seq is kept with who wrote it (an extension id or `webhook`).
 * An extension's write is compared only with its own earlier seqs: the runtime numbers them in
 * its own `seq.json`, so a pushed blip squatting an extension's id can never mute that extension.
 */
import type { Disposable } from "@svc/api";
import type { ParamsOf, BlipEnd, BlipRemove, BlipUpdate } from "@svc/runtime";
import { LIMITS, type BlipPayload } from "@svc/api";
import { BlipFileSaver, readBlipFile, type SeqRecord } from "./blip-file.js";
import type {
  BlipChange,
  BlipChangeListener,
  BlipSource,
  PushedPayload,
  PushResult,
  StoreLog,
  StoredBlip,
} from "./types.js";

export interface BlipStoreOptions {
  /** Quiet time before changes are written. Default 200 ms. */
  saveDelayMs?: number;
  log?: StoreLog;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * A refusal at the cap is logged at most once a second per extension, the next line saying how
 * many were left unsaid: an extension emitting new keys in a loop must not flood the log.
 */
const CAP_LOG_INTERVAL_MS = 1000;

/** Ids of removed blips whose seq is still remembered; the oldest are forgotten past this. */
const REMEMBERED_SEQS = 5000;

const WEBHOOK_OWNER = "webhook";

const MAX_TIMER_MS = 2 ** 31 - 1;

function ownerOf(source: BlipSource): string {
  return source.kind === "webhook" ? WEBHOOK_OWNER : source.extensionId;
}

/**
 * @example
 * const store = await BlipStore.open(support.blipsFile, { log });
 * store.onChange((change) => display.render(change));
 * connection.onNotification(BlipUpdate, (p) => store.applyUpdate(p));
 * connection.onNotification(BlipEnd, (p) => store.applyEnd(p));
 * connection.onNotification(BlipRemove, (p) => store.applyRemove(p));
 * await store.dispose(); // at quit: timers stopped, file written
 */
export class BlipStore implements Disposable {
  private readonly blips = new Map<string, StoredBlip>();
  private readonly seqs = new Map<string, SeqRecord>();
  private readonly dismissTimers = new Map<string, NodeJS.Timeout>();
  private readonly listeners = new Set<BlipChangeListener>();
  /** Per extension: when its last cap refusal was logged, and how many went unlogged since. */
  private readonly capLogs = new Map<string, { at: number; unsaid: number }>();
  private readonly saver: BlipFileSaver;
  private readonly log: StoreLog;
  private readonly now: () => number;
  private closed = false;

  private constructor(path: string, options: BlipStoreOptions) {
    this.log = options.log ?? ((level, message) => console.error(`[${level}] ${message}`));
    this.now = options.now ?? Date.now;
    this.saver = new BlipFileSaver(
      path,
      () => ({ blips: this.list(), seqs: this.seqs }),
      options.saveDelayMs ?? 200,
      this.log,
    );
  }

  /** Opens the store at `path` (e.g. `<support>/blips.json`), reading back what it held. */
  static async open(path: string, options: BlipStoreOptions = {}): Promise<BlipStore> {
    const store = new BlipStore(path, options);
    const content = await readBlipFile(path, store.log);
    for (const [id, record] of content.seqs) store.seqs.set(id, record);
    for (const blip of content.blips) {
      store.blips.set(blip.id, blip);
      const known = store.seqs.get(blip.id);
      if (!known || known.seq < blip.seq) store.seqs.set(blip.id, { seq: blip.seq, owner: ownerOf(blip.source) });
      if (blip.ended?.dismissAt) store.scheduleDismiss(blip.id, Date.parse(blip.ended.dismissAt) - store.now());
    }
    return store;
  }

  /** Every live blip, oldest first. */
  list(): StoredBlip[] {
    return [...this.blips.values()];
  }

  get(id: string): StoredBlip | undefined {
    return this.blips.get(id);
  }

  /** The last seq written for `id` (kept after removal), or 0. */
  lastSeq(id: string): number {
    return this.seqs.get(id)?.seq ?? 0;
  }

  /**
   * Calls `listener` after every change. Returns the function that stops it.
   *
   * @example
   * const stop = store.onChange((c) => console.log(c.type, c.type === "remove" ? c.id : c.blip.id));
   */
  onChange(listener: BlipChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `blip.update` from the runtime. False when ignored (stale seq, or an id not the extension's). */
  applyUpdate(params: ParamsOf<typeof BlipUpdate>): boolean {
    const payload = params.payload as unknown as BlipPayload;
    const { extensionId } = params;
    if (!this.ownsId(extensionId, payload.id, "blip.update")) return false;
    if (this.isStale(payload.id, extensionId, payload.seq)) return false;
    const full = this.capRefusal([payload.id], { kind: "extension", extensionId });
    if (full) {
      this.logCapRefusal(extensionId, `dropped blip ${payload.id}: ${full}`);
      return false;
    }
    this.write({ id: payload.id, seq: payload.seq, source: { kind: "extension", extensionId }, payload });
    return true;
  }

  /** `blip.end` from the runtime. False when ignored (unknown blip, stale seq, not the extension's). */
  applyEnd(params: ParamsOf<typeof BlipEnd>): boolean {
    const { extensionId, id, seq } = params;
    if (!this.ownsId(extensionId, id, "blip.end")) return false;
    if (this.isStale(id, extensionId, seq)) return false;
    const blip = this.blips.get(id);
    if (!blip) {
      // Remembered so an update older than this end, arriving later, stays refused.
      this.remember(id, seq, extensionId);
      return false;
    }
    if (ownerOf(blip.source) !== extensionId) return false;
    this.end(blip, seq, params.state, params.dismissAfter);
    return true;
  }

  /** `blip.remove` from the runtime. False when there was no such blip of that extension. */
  applyRemove(params: ParamsOf<typeof BlipRemove>): boolean {
    const blip = this.blips.get(params.id);
    if (!blip || ownerOf(blip.source) !== params.extensionId) return false;
    this.removeBlip(params.id);
    return true;
  }

  /**
   * Why writing `ids` from `source` would pass its cap, or undefined when it would not. Ids it
   * already holds live do not count: an update never adds a blip.
   *
   * @example
   * store.capRefusal(["webhook/deploy"], { kind: "webhook" }) // undefined, or why not
   */
  capRefusal(ids: readonly string[], source: BlipSource): string | undefined {
    const owner = ownerOf(source);
    const added = new Set(ids.filter((id) => !this.isLiveOf(id, owner))).size;
    if (added === 0) return undefined;
    let held = 0;
    for (const blip of this.blips.values()) if (ownerOf(blip.source) === owner) held++;
    const cap = owner === WEBHOOK_OWNER ? LIMITS.pushedBlips : LIMITS.blipsPerExtension;
    if (held + added <= cap) return undefined;
    return owner === WEBHOOK_OWNER
      ? `${held} pushed blips are live, the most is ${cap}: end or remove one first (DELETE /v1/blips/<id>), or reuse an id`
      : `${owner} already has ${held} blips, the most one extension may have is ${cap}: remove one first (ctx.remove), or reuse a key`;
  }

  /**
   * Stores validated pushed payloads in order, in one go (the HTTP server checked them all
   * first). A payload whose seq is not newer than the stored one is skipped (`applied: false`,
   * reporting the stored seq); one without a client seq gets the id's next seq.
   *
   * @example
   * store.push([{ payload, stampSeq: true }]) // [{ id: "webhook/deploy", seq: 1, applied: true }]
   */
  push(items: PushedPayload[]): PushResult[] {
    return items.map(({ payload, stampSeq }) => {
      const id = payload.id;
      const seq = stampSeq ? this.lastSeq(id) + 1 : payload.seq;
      if (!stampSeq && this.isStale(id, WEBHOOK_OWNER, seq)) return { id, seq: this.lastSeq(id), applied: false };
      this.write({ id, seq, source: { kind: "webhook" }, payload: { ...payload, seq } });
      return { id, seq, applied: true };
    });
  }

  /**
   * Ends a pushed blip (HTTP `end` route): stamps the id's next seq. Undefined when no pushed
   * blip has that id.
   *
   * @example
   * store.endPushed("webhook/deploy", { state: "success", dismissAfter: 30 }) // { id, seq: 3 }
   */
  endPushed(id: string, options: { state?: string; dismissAfter?: number }): { id: string; seq: number } | undefined {
    const blip = this.blips.get(id);
    if (!blip || blip.source.kind !== "webhook") return undefined;
    const seq = this.lastSeq(id) + 1;
    this.end(blip, seq, options.state, options.dismissAfter);
    return { id, seq };
  }

  /** The pushed blip with this id, if there is one (extension blips are not the HTTP API's). */
  getPushed(id: string): StoredBlip | undefined {
    const blip = this.blips.get(id);
    return blip?.source.kind === "webhook" ? blip : undefined;
  }

  /** Removes a blip whatever its source. False when there was none. */
  removeBlip(id: string): boolean {
    const blip = this.blips.get(id);
    if (!blip) return false;
    this.clearDismiss(id);
    this.blips.delete(id);
    this.changed({ type: "remove", id, blip });
    return true;
  }

  /** Removes every blip of an extension (disabled or uninstalled). Returns how many. */
  removeExtension(extensionId: string): number {
    const ids = this.list()
      .filter((b) => b.source.kind === "extension" && b.source.extensionId === extensionId)
      .map((b) => b.id);
    for (const id of ids) this.removeBlip(id);
    return ids.length;
  }

  /**
   * At resume: every live blip whose `staleAfter` is before `now` is marked stale (and
   * announced) until its next update replaces it. Returns the ids marked.
   *
   * @example
   * store.markStaleAtWake(clock.now()) // ["dev.svc.system/cpu"]
   */
  markStaleAtWake(now: number): string[] {
    const marked: string[] = [];
    for (const blip of this.list()) {
      const at = typeof blip.payload.staleAfter === "string" ? Date.parse(blip.payload.staleAfter) : NaN;
      if (blip.ended || blip.stale || Number.isNaN(at) || at >= now) continue;
      const next: StoredBlip = { ...blip, stale: true };
      this.blips.set(blip.id, next);
      this.changed({ type: "update", blip: next });
      marked.push(blip.id);
    }
    return marked;
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.saver.flush();
  }

  /** Stops dismiss timers and writes the file. Changes after close are not saved. */
  async dispose(): Promise<void> {
    if (this.closed) return this.saver.flush();
    this.closed = true;
    for (const timer of this.dismissTimers.values()) clearTimeout(timer);
    this.dismissTimers.clear();
    this.listeners.clear();
    await this.saver.flush();
  }

  private logCapRefusal(extensionId: string, message: string): void {
    const now = this.now();
    const last = this.capLogs.get(extensionId);
    if (last && now - last.at < CAP_LOG_INTERVAL_MS) {
      last.unsaid++;
      return;
    }
    const unsaid = last?.unsaid ? ` (${last.unsaid} more dropped before this, not logged)` : "";
    this.capLogs.set(extensionId, { at: now, unsaid: 0 });
    this.log("warn", `${message}${unsaid}`, extensionId);
  }

  private isLiveOf(id: string, owner: string): boolean {
    const blip = this.blips.get(id);
    return blip !== undefined && ownerOf(blip.source) === owner;
  }

  private ownsId(extensionId: string, id: string, method: string): boolean {
    if (id.startsWith(`${extensionId}/`)) return true;
    this.log("warn", `${method} from ${extensionId} for ${id} ignored: an extension may only touch its own blips`);
    return false;
  }

  /** True when `owner` already wrote a seq at least this high for `id`. */
  private isStale(id: string, owner: string, seq: number): boolean {
    const known = this.seqs.get(id);
    return known !== undefined && known.owner === owner && seq <= known.seq;
  }

  private remember(id: string, seq: number, owner: string): void {
    // Re-inserting keeps the Map in least-recently-written order for pruning.
    this.seqs.delete(id);
    this.seqs.set(id, { seq, owner });
    if (this.seqs.size <= REMEMBERED_SEQS + this.blips.size) return;
    for (const oldId of this.seqs.keys()) {
      if (this.seqs.size <= REMEMBERED_SEQS + this.blips.size) break;
      if (!this.blips.has(oldId)) this.seqs.delete(oldId);
    }
  }

  private write(blip: StoredBlip): void {
    this.clearDismiss(blip.id);
    this.remember(blip.id, blip.seq, ownerOf(blip.source));
    // A blip that changes hands goes to the end, like a new one; an update keeps its place.
    const previous = this.blips.get(blip.id);
    if (previous && ownerOf(previous.source) !== ownerOf(blip.source)) this.blips.delete(blip.id);
    this.blips.set(blip.id, blip);
    this.changed({ type: "update", blip });
  }

  private end(blip: StoredBlip, seq: number, state: string | undefined, dismissAfter: number | undefined): void {
    const now = this.now();
    const payload = { ...blip.payload, seq, ...(state === undefined ? {} : { state }) } as BlipPayload;
    const ended = {
      at: new Date(now).toISOString(),
      ...(dismissAfter === undefined ? {} : { dismissAt: new Date(now + dismissAfter * 1000).toISOString() }),
    };
    const next: StoredBlip = { ...blip, seq, payload, ended };
    this.clearDismiss(blip.id);
    this.remember(blip.id, seq, ownerOf(blip.source));
    this.blips.set(blip.id, next);
    this.changed({ type: "end", blip: next });
    if (dismissAfter !== undefined) this.scheduleDismiss(blip.id, dismissAfter * 1000);
  }

  private scheduleDismiss(id: string, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(
      () => {
        this.dismissTimers.delete(id);
        const dismissAt = Date.parse(this.blips.get(id)?.ended?.dismissAt ?? "");
        // Timers top out near 24.8 days; a longer wait takes more than one.
        if (dismissAt > this.now()) this.scheduleDismiss(id, dismissAt - this.now());
        else this.removeBlip(id);
      },
      Math.max(0, Math.min(delayMs, MAX_TIMER_MS)),
    );
    timer.unref();
    this.dismissTimers.set(id, timer);
  }

  private clearDismiss(id: string): void {
    const timer = this.dismissTimers.get(id);
    if (timer) clearTimeout(timer);
    this.dismissTimers.delete(id);
  }

  private changed(change: BlipChange): void {
    if (!this.closed) this.saver.schedule();
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.log("error", `blip store listener failed: ${(error as Error).message}`);
      }
    }
  }
}
