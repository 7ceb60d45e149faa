#!/usr/bin/env node
/**
 * Builds every bundled extension (each folder here with a package.json holding `svc`) with
 * svckit's own build, exactly as `svckit build` would. Runs during `npm install` (the root's
 * `npm run build --workspaces`), after the TypeScript packages are built.
 *
 * Usage: node extensions/build.mjs [name …]   (default: all)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));

function extensionFolders(names) {
  const all = readdirSync(here).filter((name) => {
    const dir = join(here, name);
    if (name.startsWith(".") || name === "node_modules" || !statSync(dir).isDirectory()) return false;
    try {
      return Boolean(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).svc);
    } catch {
      return false;
    }
  });
  const unknown = names.filter((name) => !all.includes(name));
  if (unknown.length > 0)
    throw new Error(`no bundled extension named ${unknown.join(", ")}; there are: ${all.join(", ")}`);
  return (names.length > 0 ? names : all).map((name) => join(here, name));
}

const { runCli } = await import("svckit");
let failed = 0;
for (const dir of extensionFolders(process.argv.slice(2))) {
  const name = dir.slice(here.length);
  const out = {
    info: (line) => console.log(`extensions/${name}: ${line}`),
    warn: (line) => console.error(`extensions/${name}: ${line}`),
  };
  const code = await runCli(["build"], {
    cwd: dir,
    env: process.env,
    out,
    signal: new AbortController().signal,
    readStdin: async () => "",
  });
  if (code !== 0) failed++;
}
if (failed > 0) {
  console.error(`${failed} bundled extension${failed === 1 ? "" : "s"} failed to build`);
  process.exit(1);
}
