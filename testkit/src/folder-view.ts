/**
 * Folders a test puts in place of real ones, for extensions that read machine folders
 * (`/sys/class/power_supply`, `~/Downloads`): `{ "/sys": "test/fixtures/sys" }`. A read, list or
 * exists of a path under a replaced folder, or a program run there (exec's `cwd`), goes to the
 * test's folder instead, and the
 * manifest's `permissions.files` entries under it are moved the same way, so the sandbox's real
 * file fence judges the test's folder exactly as it would judge the real one (symlinks resolved,
 * a path outside every listed folder refused). Writes and removals stay in the data folder and
 * are not moved.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { Capabilities } from "@svc/sandbox";

/** The sandbox an op serves (its permissions among the rest). */
type CapabilityContext = Parameters<Capabilities["async"][string]>[1];

/** The ops and the argument that names a place to read: a file op's `path`, exec's working folder. */
const READ_OPS = [
  ["files.read", "path"],
  ["files.list", "path"],
  ["files.exists", "path"],
  ["exec", "cwd"],
] as const;

interface Mount {
  /** The folder as the extension names it, absolute (`~` expanded). */
  at: string;
  /** The test's folder, real path. */
  from: string;
}

function expand(path: string): string {
  return path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}

function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

export class FolderView {
  private readonly mounts: Mount[];
  private readonly views = new WeakMap<CapabilityContext, CapabilityContext>();

  /**
   * @param folders replaced folder (absolute or `~/…`) → the test's folder (relative to `base`)
   * @example new FolderView({ "~/Downloads": "test/fixtures/downloads" }, "/home/ann/ext")
   */
  constructor(folders: Record<string, string>, base: string) {
    this.mounts = Object.entries(folders)
      .map(([at, from]) => {
        const absolute = expand(at);
        if (!isAbsolute(absolute)) throw new Error(`folders: "${at}" should be an absolute path or start with ~/`);
        let real: string;
        try {
          real = realpathSync(resolve(base, from));
        } catch (error) {
          throw new Error(`folders: "${from}" (for "${at}") does not exist: ${(error as Error).message}`);
        }
        return { at: absolute.replace(/\/+$/, "") || "/", from: real };
      })
      // The most specific folder wins.
      .sort((a, b) => b.at.length - a.at.length);
  }

  /** Where a path the extension gives is read: in the test's folder when it lies in a replaced one. */
  moved(path: string): string {
    const absolute = expand(path);
    const mount = this.mounts.find((m) => inside(absolute, m.at));
    return mount ? mount.from + absolute.slice(mount.at.length) : path;
  }

  /**
   * The sandbox as the fence sees it: the listed entries moved the same way, everything else of
   * `cx` kept. One per sandbox, so what the ops key by sandbox (exec's concurrency cap) still holds.
   */
  private viewOf(cx: CapabilityContext): CapabilityContext {
    let view = this.views.get(cx);
    if (!view) {
      view = Object.create(cx, {
        permissions: { value: { ...cx.permissions, files: cx.permissions.files.map((e) => this.moved(e)) } },
      }) as CapabilityContext;
      this.views.set(cx, view);
    }
    return view;
  }

  /** The same capabilities, with reads under a replaced folder moved there and judged there. */
  capabilities(capabilities: Capabilities): Capabilities {
    const async = { ...capabilities.async };
    for (const [op, key] of READ_OPS) {
      const handler = capabilities.async[op];
      if (!handler) continue;
      async[op] = async (raw, cx, call) => {
        const args = (raw ?? {}) as Record<string, unknown>;
        const path = typeof args[key] === "string" ? args[key] : undefined;
        const moved = path === undefined ? path : this.moved(path);
        const view = this.viewOf(cx);
        try {
          return await handler(moved === path ? raw : { ...args, [key]: moved }, view, call);
        } catch (error) {
          // Messages name the path the extension gave, never the test's folder.
          if (error instanceof Error && path !== undefined && moved !== undefined && moved !== path)
            error.message = error.message.split(moved).join(path);
          throw error;
        }
      };
    }
    return { ...capabilities, async };
  }
}
