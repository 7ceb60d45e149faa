/**
 * SPEC Limits, permission rule 5: a file path a tool returns (in `files` or `image` blocks, or
 * a drop's `outputs`) must resolve, symlinks included, inside the extension's `Data/<id>/`, or be
 * one of the files the user gave in that run. Anything else is dropped and logged.
 *
 * The check returns the resolved path, and that is what is sent on: the host never receives the
 * string the guest chose, only the file it checked.
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, sep } from "node:path";
import type { Block } from "@svc/api";

export type PathVerdict = { ok: true; path: string } | { ok: false; reason: string };

/**
 * The places one tool run may hand files back from.
 *
 * @example
 * const fence = await ToolPathFence.create("/…/Data/com.example.img", ["/Users/me/a.png"]);
 * const verdict = await fence.check("/…/Data/com.example.img/out/a-small.png"); // {ok: true, path}
 */
export class ToolPathFence {
  private constructor(
    private readonly dataDirReal: string,
    private readonly givenReal: ReadonlySet<string>,
  ) {}

  static async create(dataDir: string, givenFiles: readonly string[]): Promise<ToolPathFence> {
    const dataDirReal = await realpath(dataDir);
    const given = new Set<string>();
    for (const file of givenFiles) {
      try {
        given.add(await realpath(file));
      } catch {
        // A given file that no longer exists cannot be handed back either.
      }
    }
    return new ToolPathFence(dataDirReal, given);
  }

  async check(path: unknown): Promise<PathVerdict> {
    if (typeof path !== "string" || !isAbsolute(path)) {
      return { ok: false, reason: `${JSON.stringify(path)} is not an absolute path` };
    }
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      return { ok: false, reason: `${path} does not exist` };
    }
    const inside =
      real === this.dataDirReal ||
      real.startsWith(this.dataDirReal.endsWith(sep) ? this.dataDirReal : this.dataDirReal + sep);
    if (inside && real !== this.dataDirReal) return { ok: true, path: real };
    if (this.givenReal.has(real)) return { ok: true, path: real };
    return {
      ok: false,
      reason: `${path} resolves to ${real}, outside the extension's data folder and not a file the user gave: write it under ctx.dataDir`,
    };
  }
}

/** Told each path the fence dropped, with why. */
export type DroppedPath = (reason: string) => void;

/**
 * The paths that pass the fence, as their real paths, in order.
 *
 * @example
 * const outputs = await fencePaths(fence, result.outputs, (why) => log("warn", `dropped a returned file: ${why}`));
 */
export async function fencePaths(
  fence: ToolPathFence,
  paths: readonly string[],
  dropped: DroppedPath,
): Promise<string[]> {
  const kept: string[] = [];
  for (const path of paths) {
    const verdict = await fence.check(path);
    if (verdict.ok) kept.push(verdict.path);
    else dropped(verdict.reason);
  }
  return kept;
}

/**
 * Every path of `files` and `image` blocks through the fence: a files block left empty and an
 * image without its file are left out; other blocks pass unchanged.
 *
 * @example
 * const blocks = await fenceBlocks(fence, processed.blocks, (why) => log("warn", why));
 */
export async function fenceBlocks(
  fence: ToolPathFence,
  blocks: readonly Block[],
  dropped: DroppedPath,
): Promise<Block[]> {
  const out: Block[] = [];
  for (const block of blocks) {
    if (block.type === "files") {
      const paths = await fencePaths(fence, block.paths, dropped);
      if (paths.length > 0) out.push({ ...block, paths });
    } else if (block.type === "image") {
      const [path] = await fencePaths(fence, [block.path], dropped);
      if (path !== undefined) out.push({ ...block, path });
    } else {
      out.push(block);
    }
  }
  return out;
}
