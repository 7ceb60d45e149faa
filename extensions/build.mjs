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
  if (unknown.length > 0) throw new Error(`no bundled extension named ${unknown.join(", ")}; there are: ${all.join(", ")}`);
  return (names.length > 0 ? names : all).map((name) => join(here, name));
}

/** svckit's in-process entry, or undefined when svckit cannot be loaded. */
async function loadSvckit() {
  try {
    return (await import("svckit")).runCli;
  } catch (error) {
    console.error(`extensions: svckit cannot be loaded (${error.message.split("\n")[0]}); bundling with esbuild directly`);
    return undefined;
  }
}

/**
 * The same bundle svckit makes (CommonJS, platform neutral, ES2022, @svc/api inlined), for when
 * svckit itself is not built. It writes no dist/tools.json: the bundled extensions have no tools.
 */
async function bundleWithEsbuild(dir, out) {
  const { build } = await import("esbuild");
  try {
    await build({
      absWorkingDir: dir,
      entryPoints: ["src/index.ts"],
      outfile: join(dir, "dist/index.js"),
      bundle: true,
      format: "cjs",
      platform: "neutral",
      mainFields: ["module", "main"],
      target: "es2022",
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: "none",
      logLevel: "silent",
    });
    out.info("built dist/index.js (esbuild)");
    return 0;
  } catch (error) {
    for (const message of error.errors ?? [error]) out.warn(message.text ?? String(message));
    return 1;
  }
}

const runCli = await loadSvckit();
let failed = 0;
for (const dir of extensionFolders(process.argv.slice(2))) {
  const name = dir.slice(here.length);
  const out = {
    info: (line) => console.log(`extensions/${name}: ${line}`),
    warn: (line) => console.error(`extensions/${name}: ${line}`),
  };
  const code = runCli
    ? await runCli(["build"], { cwd: dir, env: process.env, out, signal: new AbortController().signal, readStdin: async () => "" })
    : await bundleWithEsbuild(dir, out);
  if (code !== 0) failed++;
}
if (failed > 0) {
  console.error(`${failed} bundled extension${failed === 1 ? "" : "s"} failed to build`);
  process.exit(1);
}
