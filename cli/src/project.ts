/**
 * An extension folder as svckit sees it: where it is and what its package.json says.
 */
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { CliError } from "./errors.js";

export interface Project {
  /** Absolute path of the extension folder. */
  dir: string;
  /** package.json as parsed; checked by `checkManifest`, not here. */
  packageJson: Record<string, unknown>;
}

/**
 * Reads `<dir>/package.json`.
 *
 * @example
 * const project = await readProject(resolve(ctx.cwd, positionals[0] ?? "."));
 * @throws CliError when there is no package.json or it is not a JSON object.
 */
export async function readProject(dir: string): Promise<Project> {
  const path = join(dir, "package.json");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new CliError(`no package.json in ${dir}: run svckit in an extension folder (svckit new <name> makes one).`);
    }
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new CliError(`${path} should hold a JSON object.`);
  }
  return { dir, packageJson: parsed as Record<string, unknown> };
}

/** The extension folder a command was pointed at: its `[dir]` argument, else the current folder. */
export function projectDir(cwd: string, given: string | undefined): string {
  return resolve(cwd, given ?? ".");
}
