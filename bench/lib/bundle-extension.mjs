// Bundles a bench fixture extension the way `svckit build` does (CommonJS, `@svc/api` inlined)
// into a temp extension folder both runtimes can load.
import { BUNDLE_SETTINGS } from "svckit";
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp.mjs";

const SDK_ENTRY = fileURLToPath(new URL("../../sdk/src/index.ts", import.meta.url));

/**
 * The SDK and zod are free of side effects (their package.json says `"sideEffects": false`; the
 * SDK is aliased to its source here, so esbuild is told again): the bundle keeps only what the
 * fixture uses, a few tens of KB instead of the whole SDK with zod.
 */
const pureSdk = {
  name: "pure-sdk",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "resolving") return undefined;
      const resolved = await pluginBuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "resolving",
      });
      if (resolved.errors.length > 0) return undefined;
      const pure = /[\\/](sdk[\\/]src|node_modules[\\/]zod)[\\/]/.test(resolved.path);
      return { ...resolved, sideEffects: pure ? false : resolved.sideEffects };
    });
  },
};

/**
 * Builds bench/fixtures/<name>/src/index.ts into `<root>/Extensions/<id>/` and returns what
 * `extension.load` needs.
 *
 * @example const ext = await bundleExtension("throughput", "bench.throughput");
 */
export async function bundleExtension(name, id) {
  const root = tempDir("svc-bench-rt-");
  const path = join(root, "Extensions", id);
  mkdirSync(join(path, "dist"), { recursive: true });
  const code = await bundleEntry(fileURLToPath(new URL(`../fixtures/${name}/src/index.ts`, import.meta.url)));
  const manifest = { id, title: `Bench ${name}`, version: "1.0.0", permissions: { network: [], files: [], exec: [] } };
  writeFileSync(
    join(path, "package.json"),
    JSON.stringify({ name: id, version: "1.0.0", main: "dist/index.js", svc: manifest }),
  );
  writeFileSync(join(path, "dist", "index.js"), code);
  return { id, path, manifest, dataDir: join(root, "Data"), bundleBytes: code.length };
}

/**
 * Bundles one entry file as `svckit build` does (`@svc/api` inlined, side-effect free); returns the code.
 *
 * @example const code = await bundleEntry("/tmp/x/src/index.ts");
 */
export async function bundleEntry(entry) {
  const result = await build({
    entryPoints: [entry],
    ...BUNDLE_SETTINGS,
    write: false,
    alias: { "@svc/api": SDK_ENTRY },
    plugins: [pureSdk],
    logLevel: "error",
  });
  return result.outputFiles[0].text;
}
