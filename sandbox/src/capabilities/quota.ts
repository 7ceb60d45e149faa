/**
 * The data folder's quota: at most `dataFolderBytes` in regular files and `dataFolderEntries`
 * files, folders and symlinks together. The folder is measured once (a walk that never follows
 * symlinks) and then kept up to date by each write; the measure is taken again after a removal
 * and when it is older than 5 s (a program the extension ran may have written there too).
 * Writes are checked before they touch the disk: one past the limit is refused, nothing changes.
 */
import { lstat, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { CapabilityContext } from "./context.js";
import { describeBytes, type CapabilityLimits } from "./limits.js";

interface Usage {
  bytes: number;
  entries: number;
}

/** How long a measure is trusted, ms. */
const MEASURE_TTL_MS = 5000;

/** Walks `root` without following symlinks; stops early once well past the entry limit. */
async function measure(root: string, stopAfter: number): Promise<Usage> {
  const usage: Usage = { bytes: 0, entries: 0 };
  const folders = [root];
  while (folders.length > 0 && usage.entries <= stopAfter) {
    const folder = folders.pop()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      usage.entries++;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile()) usage.bytes += (await lstat(path).catch(() => undefined))?.size ?? 0;
    }
  }
  return usage;
}

/** How many of `path` and its ancestors do not exist yet (each will be a new entry). */
async function missingEntries(path: string): Promise<number> {
  let count = 0;
  for (let current = path; ; current = dirname(current)) {
    if (
      await lstat(current).then(
        () => true,
        () => false,
      )
    )
      return count;
    count++;
    if (dirname(current) === current) return count;
  }
}

export interface Quota {
  /**
   * Checks that writing `bytes` to `real` (replacing `oldBytes`) fits, and counts it. Throws a
   * RangeError naming the limit otherwise. `cancel()` the grant if the write then fails.
   */
  reserve(
    cx: CapabilityContext,
    op: string,
    real: string,
    bytes: number,
    oldBytes: number,
  ): Promise<{ cancel(): void }>;
  /** Forgets the measure (after a removal). */
  forget(cx: CapabilityContext): void;
}

export function createQuota(limits: Pick<CapabilityLimits, "dataFolderBytes" | "dataFolderEntries">): Quota {
  const measures = new WeakMap<CapabilityContext, { usage: Promise<Usage>; at: number }>();

  function usageOf(cx: CapabilityContext): Promise<Usage> {
    const known = measures.get(cx);
    if (known && Date.now() - known.at < MEASURE_TTL_MS) return known.usage;
    const usage = measure(cx.dataDir, limits.dataFolderEntries * 2);
    measures.set(cx, { usage, at: Date.now() });
    return usage;
  }

  return {
    async reserve(cx, op, real, bytes, oldBytes) {
      const added = await missingEntries(real);
      const usage = await usageOf(cx);
      // From here to the update nothing awaits, so concurrent writes are counted one by one.
      const nextBytes = usage.bytes - oldBytes + bytes;
      const nextEntries = usage.entries + added;
      if (nextEntries > limits.dataFolderEntries && added > 0) {
        throw new RangeError(
          `${op}: the data folder would hold ${nextEntries} files and folders, over its limit of ${limits.dataFolderEntries}; remove some first`,
        );
      }
      if (nextBytes > limits.dataFolderBytes && bytes > oldBytes) {
        throw new RangeError(
          `${op}: the data folder would hold ${nextBytes} bytes, over its limit of ${describeBytes(limits.dataFolderBytes)}; remove some files first`,
        );
      }
      usage.bytes = nextBytes;
      usage.entries = nextEntries;
      let cancelled = false;
      return {
        cancel() {
          if (cancelled) return;
          cancelled = true;
          usage.bytes += oldBytes - bytes;
          usage.entries -= added;
        },
      };
    },
    forget: (cx) => void measures.delete(cx),
  };
}
