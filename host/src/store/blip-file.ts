/**
 * The store's file (`blips.json`): reading it back at launch, and writing it atomically a short
 * while after changes (many changes, one write), with a final write on close.
 *
 * Format: `{"version": 1, "blips": [StoredBlip, …], "seqs": {"<id>": {"seq": n, "owner": "<extensionId>" |
 * "webhook"}}}`.
 * `seqs` outlives removed blips so a late, older update stays refused after a restart.
 */
import { readFile, rename } from "node:fs/promises";
import { writeFileAtomic } from "../support/atomic-file.js";
import type { StoreLog, StoredBlip } from "./types.js";

/** The last seq seen for an id, and who wrote it (an extension id, or `webhook`). */
export interface SeqRecord {
  seq: number;
  owner: string;
}

export interface BlipFileContent {
  blips: StoredBlip[];
  seqs: Map<string, SeqRecord>;
}

const FORMAT_VERSION = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A stored blip read from disk; hand edits or old formats are skipped, not trusted. */
function isStoredBlip(value: unknown): value is StoredBlip {
  if (!isRecord(value) || typeof value.id !== "string" || !Number.isSafeInteger(value.seq)) return false;
  const { source, payload, ended } = value;
  if (
    !isRecord(source) ||
    !(source.kind === "webhook" || (source.kind === "extension" && typeof source.extensionId === "string"))
  )
    return false;
  if (!isRecord(payload) || payload.id !== value.id || typeof payload.layout !== "string") return false;
  return ended === undefined || (isRecord(ended) && typeof ended.at === "string");
}

function isSeqRecord(value: unknown): value is SeqRecord {
  return isRecord(value) && Number.isSafeInteger(value.seq) && typeof value.owner === "string";
}

/**
 * Reads the store file. A missing file is an empty store; an unreadable one is moved aside
 * (`blips.json.corrupt-<ms>`) with a warning, so one bad write never loses the app its launch.
 *
 * @example
 * const { blips, seqs } = await readBlipFile("/tmp/svc/blips.json", console.warn);
 */
export async function readBlipFile(path: string, log: StoreLog): Promise<BlipFileContent> {
  const empty: BlipFileContent = { blips: [], seqs: new Map() };
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return empty;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (
    !isRecord(parsed) ||
    parsed.version !== FORMAT_VERSION ||
    !Array.isArray(parsed.blips) ||
    !isRecord(parsed.seqs)
  ) {
    const aside = `${path}.corrupt-${Date.now()}`;
    await rename(path, aside).catch(() => undefined);
    log("warn", `blip store ${path} was unreadable; moved it to ${aside} and started empty`);
    return empty;
  }
  const blips = parsed.blips.filter(isStoredBlip);
  if (blips.length < parsed.blips.length)
    log("warn", `blip store: skipped ${parsed.blips.length - blips.length} malformed blip(s) in ${path}`);
  const seqs = new Map<string, SeqRecord>();
  for (const [id, record] of Object.entries(parsed.seqs)) if (isSeqRecord(record)) seqs.set(id, record);
  return { blips, seqs };
}

function serialize(content: BlipFileContent): string {
  return `${JSON.stringify({ version: FORMAT_VERSION, blips: content.blips, seqs: Object.fromEntries(content.seqs) })}\n`;
}

/**
 * Debounced atomic writer: `schedule()` after every change; at most one write in flight; the
 * snapshot is taken when the write starts, so it is always the newest state.
 *
 * @example
 * const saver = new BlipFileSaver(path, () => ({ blips, seqs }), 100, log);
 * saver.schedule(); … await saver.flush();
 */
export class BlipFileSaver {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => BlipFileContent,
    private readonly delayMs: number,
    private readonly log: StoreLog,
  ) {}

  /** Marks the store changed; writes after `delayMs` unless more changes come first… then still once. */
  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
    this.timer.unref();
  }

  /** Writes now if anything changed, and resolves once everything so far is on disk. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.writing = this.writing.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await writeFileAtomic(this.path, serialize(this.snapshot()));
      } catch (error) {
        this.dirty = true;
        this.log("error", `blip store: could not write ${this.path}: ${(error as Error).message}`);
      }
    });
    return this.writing;
  }
}
