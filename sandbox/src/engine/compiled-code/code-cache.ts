/**
 * The pool's cache of compiled bundles: an extension's second start (a restart, re-enabling
 * it, a preference change, the next app launch) reads its compiled form instead of parsing
 * its source again.
 *
 * Compiled code is trusted input to the interpreter (QuickJS does not check it the way it
 * checks source), so it only ever comes from here: made by the sandbox from the bundle's own
 * source, keyed by the SHA-256 of the engine, the file name and that exact source, and on
 * disk stored with the SHA-256 of its bytes, checked before use. A package never brings
 * compiled code, and no guest can write the folder (guest writes stay in its data folder).
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { bundleScript } from "./compiled-scripts.js";
import { COMPILED_CODE_ENGINE } from "./wasm-patch.js";

const DIGEST_BYTES = 32;
const SUFFIX = ".qjsc";

export interface CodeCacheOptions {
  /**
   * Folder kept between runs. With it nothing is held in memory (a compiled bundle is several
   * times its source: 425 KB for the 117 KB bench bundle; the OS's page cache serves re-reads);
   * without it, compiled code is kept in memory for the pool's life.
   */
  dir?: string;
  /** Compiled code kept in memory at most (without `dir`), bytes. Default 64 MB. */
  maxMemoryBytes?: number;
}

/** A compiled form held in memory, or the cache file that may hold one. */
export type CompiledCodeSource = { bytes: Uint8Array } | { path: string };

/**
 * The compiled form in a cache file, if there is one and its digest holds; a damaged file is
 * removed. Synchronous: sandbox threads read it while creating a sandbox (~0.3 ms from the page cache).
 */
export function readCompiledFile(path: string): Uint8Array | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  const bytes = file.subarray(DIGEST_BYTES);
  if (file.length > DIGEST_BYTES && sha256(bytes).equals(file.subarray(0, DIGEST_BYTES))) {
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  rmSync(path, { force: true });
  return undefined;
}

/** The compiled form at `source`. */
export function readCompiledCode(source: CompiledCodeSource | undefined): Uint8Array | undefined {
  if (!source) return undefined;
  return "bytes" in source ? source.bytes : readCompiledFile(source.path);
}

/**
 * Writes a compiled form for `id` to `path` (from `CodeCache.fileFor`) and removes the
 * extension's older ones. Atomic (a temp file renamed into place); a failure only means no
 * cache. Run by the sandbox thread that compiled it, so the bytes never cross to the protocol thread.
 */
export async function writeCompiledFile(path: string, id: string, bytes: Uint8Array): Promise<void> {
  const dir = dirname(path);
  try {
    await mkdir(dir, { recursive: true });
    const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
    const file = await open(temp, "w", 0o600);
    try {
      await file.write(sha256(bytes));
      await file.write(bytes);
    } finally {
      await file.close();
    }
    await rename(temp, path);
    const stale = (await readdir(dir)).filter((name) => isFormOf(id, name) && join(dir, name) !== path);
    await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })));
  } catch {
    // a read-only or full disk: the extension still runs, it is compiled again next time
  }
}

export class CodeCache {
  /** Most recently used last. */
  private readonly memory = new Map<string, Uint8Array>();
  private memoryBytes = 0;
  private readonly maxMemoryBytes: number;

  constructor(private readonly options: CodeCacheOptions = {}) {
    this.maxMemoryBytes = options.dir === undefined ? (options.maxMemoryBytes ?? 64 * 1024 * 1024) : 0;
  }

  /** The key of a bundle's compiled form. */
  static key(code: string, filename: string): string {
    return createHash("sha256")
      .update(`${COMPILED_CODE_ENGINE}\0${filename}\0${bundleScript(code)}`)
      .digest("hex");
  }

  /**
   * Where the compiled form stored under `key` is: bytes held in memory, or the file a host
   * thread reads (`readCompiledFile`: off the protocol thread, and no copy between threads).
   */
  locate(id: string, key: string): CompiledCodeSource | undefined {
    const kept = this.memory.get(key);
    if (kept) {
      this.remember(key, kept);
      return { bytes: kept };
    }
    const path = this.pathOf(id, key);
    return path ? { path } : undefined;
  }

  /** The file for `key` (where a sandbox thread writes a new compiled form), when kept on disk. */
  fileFor(id: string, key: string): string | undefined {
    return this.pathOf(id, key);
  }

  /** Keeps `bytes` under `key` in memory (without a folder), oldest out past the bound. */
  keep(key: string, bytes: Uint8Array): void {
    this.remember(key, bytes);
  }

  private remember(key: string, bytes: Uint8Array): void {
    const previous = this.memory.get(key);
    if (previous) {
      this.memory.delete(key);
      this.memoryBytes -= previous.byteLength;
    }
    if (bytes.byteLength > this.maxMemoryBytes) return;
    this.memory.set(key, bytes);
    this.memoryBytes += bytes.byteLength;
    for (const [oldest, old] of this.memory) {
      if (this.memoryBytes <= this.maxMemoryBytes) break;
      this.memory.delete(oldest);
      this.memoryBytes -= old.byteLength;
    }
  }

  /** `<dir>/<id>.<key>.qjsc`, for ids that are safe as a file name (reverse-DNS ids are). */
  private pathOf(id: string, key: string): string | undefined {
    const { dir } = this.options;
    if (!dir || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(id)) return undefined;
    return join(dir, `${id}.${key}${SUFFIX}`);
  }
}

/** `com.a.<key>.qjsc` is com.a's; `com.a.b.<key>.qjsc` is not. */
function isFormOf(id: string, name: string): boolean {
  return name.startsWith(`${id}.`) && /^[0-9a-f]{64}\.qjsc$/.test(name.slice(id.length + 1));
}

function sha256(bytes: Uint8Array): Buffer {
  return createHash("sha256").update(bytes).digest();
}
