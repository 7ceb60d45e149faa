/**
 * How the person ran svckit, so hints name a command that works as typed. svckit is not on the
 * npm registry: `npx svckit` outside a folder that has it installed would fetch whatever a
 * stranger published under that name, so a hint never says it.
 */
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A path as one word for a POSIX shell (quoted only when it needs to be). */
function shellWord(path: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/**
 * `svckit` when that name on PATH runs this very script; else `node <script>`.
 *
 * @example
 * invokedAs("/repo/node_modules/.bin/svckit", { PATH: "/repo/node_modules/.bin:/usr/bin" }) // "svckit"
 * invokedAs("/repo/cli/bin/svckit.js", { PATH: "/usr/bin" })                            // "node /repo/cli/bin/svckit.js"
 */
export function invokedAs(script: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (!script) return "svckit";
  const self = real(script);
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, process.platform === "win32" ? "svckit.cmd" : "svckit");
    try {
      accessSync(candidate, constants.X_OK);
    } catch {
      continue;
    }
    // The first svckit on PATH is the one a person's shell runs: it must be this one.
    return self !== undefined && real(candidate) === self ? "svckit" : `node ${shellWord(self ?? script)}`;
  }
  return `node ${shellWord(self ?? script)}`;
}
