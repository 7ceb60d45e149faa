/**
 * The last `seq` of every blip id of one extension, persisted in `Data/<id>/seq.json` so it
 * never goes backwards: not across restarts, not across a kill -9.
 *
 * A number is handed out only after the file holding it is on disk (`next` resolves after the
 * write), so the host never sees a seq the file does not yet cover. Writes are atomic (temp file
 * + rename) and coalesced: a write starts at the end of the event loop's turn (`setImmediate`),
 * so every `next` of that turn (a batch of emits from a sandbox thread) shares it, and every
 * `next` made while it runs shares the one after. Starting at the first `next` instead gave the
 * first blip of each turn a write of its own: in a flood from 30 extensions ~2 blips a write.
 *
 * File: `{"floor": <n>, "last": {"<blipId>": <n>, …}}`. A blip's next seq is
 * `max(last[id] ?? 0, floor) + 1`. A corrupt file is moved aside (`seq.json.corrupt-<ms>`) and the
 * floor restarts at the current time in ms: larger than any seq a sane history produced.
 */
import { mkdirSync, readFileSync, renameSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const SEQ_FILE = "seq.json";

interface SeqFile {
  floor: number;
  last: Record<string, number>;
}

function isSeqFile(value: unknown): value is SeqFile {
  if (typeof value !== "object" || value === null) return false;
  const { floor, last } = value as Partial<SeqFile>;
  if (!Number.isSafeInteger(floor) || (floor as number) < 0) return false;
  if (typeof last !== "object" || last === null || Array.isArray(last)) return false;
  return Object.values(last).every((n) => Number.isSafeInteger(n) && n > 0);
}

/**
 * @example
 * const store = SeqStore.open("/…/Data/com.example.ci", (m) => console.error(m));
 * const seq = await store.next("com.example.ci/build"); // 1, then 2, …
 */
export class SeqStore {
  private state: SeqFile;
  private writing: Promise<void> | null = null;
  private dirty = false;
  private waiters: Array<{ resolve(): void; reject(error: Error): void }> = [];
  private tempCounter = 0;

  private constructor(
    private readonly file: string,
    state: SeqFile,
  ) {
    this.state = state;
  }

  /** Reads the file (creating the folder when missing); recovers from a corrupt one. */
  static open(dir: string, note: (message: string) => void = () => {}, now: () => number = Date.now): SeqStore {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, SEQ_FILE);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new SeqStore(file, { floor: 0, last: {} });
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (isSeqFile(parsed)) return new SeqStore(file, { floor: parsed.floor, last: { ...parsed.last } });
    } catch {
      // fall through to recovery
    }
    const floor = now();
    const aside = `${file}.corrupt-${floor}`;
    renameSync(file, aside);
    note(`${file} was corrupt: moved it to ${aside}; seq restarts above ${floor} so it never goes backwards`);
    return new SeqStore(file, { floor, last: {} });
  }

  /** Writes of the file so far (each covers every `next` before it started). */
  get writes(): number {
    return this.tempCounter;
  }

  /** The last seq handed out for this blip id, or undefined. */
  last(blipId: string): number | undefined {
    return Object.hasOwn(this.state.last, blipId) ? this.state.last[blipId] : undefined;
  }

  /** The seq `next` would hand out now, without taking it (to validate a payload at its real size first). */
  peekNext(blipId: string): number {
    return Math.max(this.last(blipId) ?? 0, this.state.floor) + 1;
  }

  /** Takes the next seq for this blip id; resolves once it is persisted. */
  next(blipId: string): Promise<number> {
    const seq = this.peekNext(blipId);
    this.state.last[blipId] = seq;
    return this.persist().then(() => seq);
  }

  /** Resolves when everything handed out so far is on disk. */
  flush(): Promise<void> {
    return this.dirty || this.writing ? this.persist() : Promise.resolve();
  }

  private persist(): Promise<void> {
    this.dirty = true;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.writing) {
      this.writing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.writeLoop());
    }
    return done;
  }

  /** Writes until no change is left unwritten; each pass settles the waiters it covered. */
  private async writeLoop(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      const covered = this.waiters;
      this.waiters = [];
      const temp = `${this.file}.${process.pid}.${this.tempCounter++}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(this.state));
        await rename(temp, this.file);
        for (const waiter of covered) waiter.resolve();
      } catch (error) {
        for (const waiter of covered) waiter.reject(error as Error);
      }
    }
    this.writing = null;
  }
}
