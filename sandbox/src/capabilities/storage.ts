/**
 * `ctx.storage`: one JSON object per extension in `Data/<id>/storage.json`. Kept in memory once
 * read; every change is written whole and atomically (temp + rename), one write at a time per
 * sandbox, so the file on disk is always a complete earlier or later state. A file that does
 * not parse is moved aside (`storage.json.corrupt-<time>`), logged, and storage starts empty.
 */
import { readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import type { CapabilityContext, OpHandler } from "./index.js";
import { readArgs } from "./args.js";
import { writeAtomic } from "./files.js";
import { describeBytes } from "./limits.js";
import type { ResolvedOptions } from "./options.js";

export const STORAGE_FILE = "storage.json";

interface Store {
  /** Settles with the current contents once every earlier operation has finished. */
  queue: Promise<Record<string, unknown>>;
}

/**
 * Builds the storage ops bound to the given options.
 * @example const ops = createStorageOps(resolveOptions()); await ops["storage.set"]({ key: "a", value: 1 }, cx);
 */
export function createStorageOps(options: ResolvedOptions): Record<string, OpHandler> {
  const { limits } = options;
  const stores = new WeakMap<CapabilityContext, Store>();

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

  /** Runs `change` after every earlier operation of this sandbox, on the current contents. */
  function serialized<T>(
    cx: CapabilityContext,
    change: (data: Record<string, unknown>) => Promise<{ data: Record<string, unknown>; result: T }>,
  ): Promise<T> {
    let store = stores.get(cx);
    if (!store) stores.set(cx, (store = { queue: load(cx) }));
    const before = store.queue;
    const run = before.then(change);
    // A failed change leaves the contents as they were; a failed load is tried again next time.
    store.queue = run.then((r) => r.data, () => before.catch(() => load(cx)));
    return run.then((r) => r.result);
  }

  async function persist(cx: CapabilityContext, data: Record<string, unknown>): Promise<void> {
    const text = JSON.stringify(data);
    const bytes = Buffer.byteLength(text);
    if (bytes > limits.storageBytes) {
      throw new RangeError(`storage: this change would make storage ${bytes} bytes, over the limit of ${describeBytes(limits.storageBytes)}`);
    }
    await writeAtomic(join(cx.dataDir, STORAGE_FILE), text);
  }

  function key(op: string, raw: unknown): ReturnType<typeof readArgs> & { key: string } {
    const args = readArgs(op, raw);
    const k = args.string("key", { maxLength: limits.storageKeyChars });
    if (k.length === 0) throw new TypeError(`${op}: "key" should not be empty`);
    return Object.assign(args, { key: k });
  }

  return {
    "storage.get": async (raw, cx) => {
      const { key: k } = key("storage.get", raw);
      return serialized(cx, async (data) => ({ data, result: k in data ? data[k] : null }));
    },
    "storage.set": async (raw, cx) => {
      const args = key("storage.set", raw);
      const value = args.any("value");
      if (value === undefined) throw new TypeError(`storage.set: "value" is missing; use storage.delete to remove a key`);
      return serialized(cx, async (data) => {
        const next = Object.assign(Object.create(null), data, { [args.key]: value });
        await persist(cx, next);
        return { data: next, result: null };
      });
    },
    "storage.delete": async (raw, cx) => {
      const { key: k } = key("storage.delete", raw);
      return serialized(cx, async (data) => {
        if (!(k in data)) return { data, result: null };
        const next = Object.assign(Object.create(null), data);
        delete next[k];
        await persist(cx, next);
        return { data: next, result: null };
      });
    },
  };
}
