/**
 * Snapshots of blips and tool results that stay the same from run to run: `emittedAt` is left
 * out (the moment of emission is the clock's business, tested apart), and values that differ on
 * every run — UUIDs, and whatever a test names — are replaced by a placeholder. The file is
 * plain JSON beside the tests, written the first time and compared after; `svckit test --update`
 * (or `SVC_TEST_UPDATE=1`) writes it again.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative } from "node:path";

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

export interface SnapshotOptions {
  /** Keys (at any depth) whose values vary and are replaced by `[varies]`, e.g. `["requestId"]`. */
  varying?: readonly string[];
}

/**
 * A copy fit for a snapshot.
 *
 * @example
 * snapshotOf({ id: "x/y", emittedAt: "2025-…", data: { run: "0b9f…-…" } }) // { id: "x/y", data: { run: "[uuid]" } }
 */
export function snapshotOf(value: unknown, options: SnapshotOptions = {}): unknown {
  const varying = new Set(options.varying ?? []);
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return node.replace(UUID, "[uuid]");
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(node)) {
      if (key === "emittedAt" || member === undefined) continue;
      out[key] = varying.has(key) ? "[varies]" : walk(member);
    }
    return out;
  };
  return walk(value);
}

/** A snapshot that differs from the stored one. */
export class SnapshotMismatchError extends Error {
  constructor(
    readonly file: string,
    readonly diff: string,
  ) {
    super(`snapshot ${file} differs (- stored, + now):\n${diff}\nIf the change is right, run svckit test --update`);
    this.name = "SnapshotMismatchError";
  }
}

/**
 * Compares `value` (passed through `snapshotOf`) with `<dir>/<name>.json`, writing it when it is
 * new or when updating. Default `dir`: `test/__snapshots__` under the current folder.
 *
 * @example
 * await matchSnapshot("deploys-first-run", ext.blips);
 */
export async function matchSnapshot(
  name: string,
  value: unknown,
  options: SnapshotOptions & { dir?: string; update?: boolean } = {},
): Promise<void> {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name))
    throw new TypeError(`snapshot name "${name}": use 1–100 letters, digits, ".", "_" or "-"`);
  const file = join(options.dir ?? join(process.cwd(), "test", "__snapshots__"), `${name}.json`);
  const text = `${JSON.stringify(snapshotOf(value, options), null, 2)}\n`;
  const update = options.update ?? process.env.SVC_TEST_UPDATE === "1";
  let stored: string | undefined;
  try {
    stored = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (stored === text) return;
  if (stored === undefined || update) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(`${file}.tmp`, text);
    await rename(`${file}.tmp`, file);
    return;
  }
  const shown = relative(process.cwd(), file);
  throw new SnapshotMismatchError(shown.startsWith("..") || isAbsolute(shown) ? file : shown, lineDiff(stored, text));
}

/** The lines that differ, with two lines of context, `-` stored and `+` now. */
export function lineDiff(before: string, after: string): string {
  const a = before.trimEnd().split("\n");
  const b = after.trimEnd().split("\n");
  // Longest common subsequence table (snapshots are small).
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const lines: { mark: " " | "-" | "+"; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) (lines.push({ mark: " ", text: a[i++] }), j++);
    else if (j < b.length && (i === a.length || lcs[i][j + 1] > lcs[i + 1][j])) lines.push({ mark: "+", text: b[j++] });
    else lines.push({ mark: "-", text: a[i++] });
  }
  const near = (k: number) => lines.slice(Math.max(0, k - 2), k + 3).some((l) => l.mark !== " ");
  return lines
    .map((line, k) => (near(k) ? `${line.mark} ${line.text}` : undefined))
    .filter((line, k, all) => line !== undefined || all[k - 1] !== undefined)
    .map((line) => line ?? "  …")
    .join("\n");
}
