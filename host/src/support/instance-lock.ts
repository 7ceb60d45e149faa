/**
 * One app per support folder. Two hosts on one folder would overwrite each other's
 * `webhook.json` (a new token each), run every extension twice and fight over `blips.json`.
 * The first host holds `<support>/host.lock` (`{pid, port?}`), created exclusively; a second
 * one reads it and refuses to start while that process lives. A lock left by a process that
 * is gone (killed, crashed) is taken over.
 */
import { open, readFile, rm } from "node:fs/promises";
import { writeFileAtomic } from "./atomic-file.js";

/** What the lock file holds. */
export interface LockHolder {
  pid: number;
  /** The holder's HTTP port, once it listens. */
  port?: number;
}

/** Another live host holds the support folder; the message says which and what to do. */
export class AlreadyRunningError extends Error {
  override readonly name = "AlreadyRunningError";
  constructor(
    readonly holder: LockHolder,
    folder: string,
  ) {
    super(
      `svc is already running (pid ${holder.pid}${holder.port ? `, http 127.0.0.1:${holder.port}` : ""}) on ${folder}; stop it first, or give this one another SVC_HOME`,
    );
  }
}

/** A held lock. */
export interface InstanceLock {
  /** Records the HTTP port, so a second app can say where the first one answers. */
  setPort(port: number): Promise<void>;
  /** Gives the folder up (only while the file is still ours). Idempotent. */
  release(): Promise<void>;
}

/** True while process `pid` exists (EPERM: it exists, run by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The holder named by a lock file; undefined when missing or unreadable. */
export async function readLock(path: string): Promise<LockHolder | undefined> {
  try {
    const value = JSON.parse(await readFile(path, "utf8")) as Partial<LockHolder>;
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    return { pid: value.pid as number, ...(Number.isSafeInteger(value.port) ? { port: value.port } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * The live host holding `path`, if any.
 *
 * @example
 * const holder = await runningHolder(join(root, "host.lock")); // { pid: 4242, port: 47811 } or undefined
 */
export async function runningHolder(path: string): Promise<LockHolder | undefined> {
  const holder = await readLock(path);
  return holder && isAlive(holder.pid) ? holder : undefined;
}

/**
 * Takes the lock of a support folder or throws `AlreadyRunningError`.
 *
 * @example
 * const lock = await acquireInstanceLock(support.lockFile, support.root);
 * await lock.setPort(http.port);
 * // at quit:
 * await lock.release();
 */
export async function acquireInstanceLock(
  path: string,
  folder: string,
  pid: number = process.pid,
): Promise<InstanceLock> {
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, "wx", 0o600);
      try {
        await handle.writeFile(JSON.stringify({ pid }));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = await readLock(path);
    if (holder && isAlive(holder.pid)) throw new AlreadyRunningError(holder, folder);
    // A file just created by a starting host may not hold its pid yet: look again before taking it over.
    if (!holder && attempt === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    if (attempt > 3) throw new Error(`cannot take ${path}: remove it if no svc is running`);
    await rm(path, { force: true });
  }
  let released = false;
  const stillOurs = async () => !released && (await readLock(path))?.pid === pid;
  return {
    async setPort(port) {
      if (await stillOurs()) await writeFileAtomic(path, JSON.stringify({ pid, port }), { mode: 0o600 });
    },
    async release() {
      if (await stillOurs()) await rm(path, { force: true });
      released = true;
    },
  };
}
