/**
 * `ctx.storage`: one JSON object per extension in `Data/<id>/storage.json`. Kept in memory once
 * read. A change is applied in memory at once, in call order, and resolves once a write holding
 * it is on disk. The file is written whole and atomically (temp + rename), so it is always a
 * complete state, and its cost is bounded: each change costs only its own value's size (the
 * total is kept per key, not re-measured), and writes are paced by `storageWriteBytesPerSecond`
 * (after writing N bytes the next write waits N / rate, at least 10 ms); the changes made
 * meanwhile are written together. A file that does not parse is moved aside
 * (`storage.json.corrupt-<time>`), logged, and storage starts empty.
 */
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import type { ArgsCheck, CapabilityContext, OpHandler } from "./context.js";
import { readArgs } from "./args.js";
import { writeAtomic } from "./files.js";
import { describeBytes } from "./limits.js";
import type { ResolvedOptions } from "./options.js";

export const STORAGE_FILE = "storage.json";

/** Shortest pause between two writes of one storage file, ms. */
const MIN_WRITE_GAP_MS = 10;

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
}

interface Store {
  data: Record<string, unknown>;
  /** UTF-8 bytes of each `"key":value` member. */
  sizes: Map<string, number>;
  /** Sum of `sizes`. */
  memberBytes: number;
  /** Changes applied in memory, waiting for a write. */
  waiting: Waiter[];
  /** A write is scheduled or under way. */
  busy: boolean;
  /** Earliest time (Date.now()) the next write may start. */
  nextWriteAt: number;
}

function memberSize(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify(key)) + 1 + Buffer.byteLength(JSON.stringify(value));
}

/** The arguments of a storage op, with its key checked: a non-empty string of at most `maxChars`. */
function storageKey(op: string, raw: unknown, maxChars: number): ReturnType<typeof readArgs> & { key: string } {
  const args = readArgs(op, raw);
  const k = args.string("key", { maxLength: maxChars });
  if (k.length === 0) throw new TypeError(`${op}: "key" should not be empty`);
  return Object.assign(args, { key: k });
}

/**
 * The storage ops' checks of their arguments, run at the call (op-router.ts): a bad key is
 * refused there, with the caller's stack, before the op starts.
 *
 * @example createStorageChecks(resolveOptions())["storage.get"]({ key: "" }); // throws: storage.get: "key" should not be empty
 */
export function createStorageChecks({ limits }: ResolvedOptions): Record<string, ArgsCheck> {
  const check = (op: string) => (raw: unknown) => void storageKey(op, raw, limits.storageKeyChars);
  return {
    "storage.get": check("storage.get"),
    "storage.set": check("storage.set"),
    "storage.delete": check("storage.delete"),
  };
}

/**
 * Builds the storage ops bound to the given options.
 * @example const ops = createStorageOps(resolveOptions()); await ops["storage.set"]({ key: "a", value: 1 }, cx);
 */
export function createStorageOps(options: ResolvedOptions): Record<string, OpHandler> {
  const { limits } = options;
  const key = (op: string, raw: unknown) => storageKey(op, raw, limits.storageKeyChars);
  const stores = new WeakMap<CapabilityContext, Promise<Store>>();

  async function load(cx: CapabilityContext): Promise<Record<string, unknown>> {
    const file = join(cx.dataDir, STORAGE_FILE);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return Object.create(null);
      throw error;
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
        return Object.assign(Object.create(null), parsed);
      }
    } catch {
      // Falls through to recovery below.
    }
    const aside = `${file}.corrupt-${Date.now()}`;
    await rename(file, aside);
    const message = `storage: ${file} was not a JSON object; moved it to ${aside} and started empty`;
    if (cx.log) cx.log("warn", message);
    else console.warn(message);
    return Object.create(null);
  }

  /** The sandbox's store, read once; a failed read is tried again on the next call. */
  function storeOf(cx: CapabilityContext): Promise<Store> {
    let store = stores.get(cx);
    if (!store) {
      store = load(cx).then((data) => {
        const sizes = new Map(Object.entries(data).map(([k, v]) => [k, memberSize(k, v)]));
        let memberBytes = 0;
        for (const size of sizes.values()) memberBytes += size;
        return { data, sizes, memberBytes, waiting: [], busy: false, nextWriteAt: 0 };
      });
      store.catch(() => stores.delete(cx));
      stores.set(cx, store);
    }
    return store;
  }

  /** Writes the store (whole), paced; every change made before the write starts is in it. */
  function scheduleWrite(cx: CapabilityContext, store: Store): void {
    if (store.busy) return;
    store.busy = true;
    setTimeout(
      async () => {
        const waiters = store.waiting.splice(0);
        const text = JSON.stringify(store.data);
        try {
          await writeAtomic(join(cx.dataDir, STORAGE_FILE), text);
          waiters.forEach((w) => w.resolve());
        } catch (error) {
          const failed = new Error(
            `storage: could not write ${STORAGE_FILE} (${(error as NodeJS.ErrnoException).code ?? "error"}); the change is kept in memory and written with the next one`,
          );
          waiters.forEach((w) => w.reject(failed));
        }
        const gap = Math.max(MIN_WRITE_GAP_MS, (Buffer.byteLength(text) / limits.storageWriteBytesPerSecond) * 1000);
        store.nextWriteAt = Date.now() + gap;
        store.busy = false;
        if (store.waiting.length > 0) scheduleWrite(cx, store);
      },
      Math.max(0, store.nextWriteAt - Date.now()),
    );
  }

  /** Applies a change to `key` (`undefined` deletes it) if it fits, then waits for its write. */
  async function change(cx: CapabilityContext, key: string, value: unknown): Promise<null> {
    const store = await storeOf(cx);
    const had = store.sizes.get(key);
    if (value === undefined && had === undefined) return null;
    const size = value === undefined ? 0 : memberSize(key, value);
    const members = store.sizes.size + (had === undefined ? 1 : 0) - (value === undefined ? 1 : 0);
    const memberBytes = store.memberBytes - (had ?? 0) + size;
    // The object's JSON text: braces, members, and the commas between them.
    const bytes = 2 + memberBytes + Math.max(0, members - 1);
    if (bytes > limits.storageBytes) {
      throw new RangeError(
        `storage: this change would make storage ${bytes} bytes, over the limit of ${describeBytes(limits.storageBytes)}`,
      );
    }
    if (value === undefined) {
      delete store.data[key];
      store.sizes.delete(key);
    } else {
      store.data[key] = value;
      store.sizes.set(key, size);
    }
    store.memberBytes = memberBytes;
    const written = new Promise<null>((resolve, reject) =>
      store.waiting.push({ resolve: () => resolve(null), reject }),
    );
    scheduleWrite(cx, store);
    return written;
  }

  return {
    "storage.get": async (raw, cx) => {
      const { key: k } = key("storage.get", raw);
      const { data } = await storeOf(cx);
      return k in data ? data[k] : null;
    },
    "storage.set": async (raw, cx) => {
      const args = key("storage.set", raw);
      const value = args.any("value");
      if (value === undefined)
        throw new TypeError(`storage.set: "value" is missing; use storage.delete to remove a key`);
      return change(cx, args.key, value);
    },
    "storage.delete": async (raw, cx) => change(cx, key("storage.delete", raw).key, undefined),
  };
}
