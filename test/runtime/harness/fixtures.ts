/**
 * Fixture extensions: TypeScript under test/runtime/fixtures, bundled with esbuild the way
 * `svckit build` does (CommonJS, `@svc/api` inlined) into a temp extension folder.
 */
import { build, type Plugin } from "esbuild";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const SDK_ENTRY = fileURLToPath(new URL("../../../sdk/src/index.ts", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

export interface Permissions {
  network?: string[];
  files?: string[];
  exec?: string[];
}

export interface BuiltExtension {
  id: string;
  path: string;
  manifest: { id: string; title: string; version: string; permissions: Required<Permissions> };
}

const bundles = new Map<string, Promise<string>>();

/**
 * Treats the SDK and zod as free of side effects (what `"sideEffects": false` in their
 * package.json says), so the bundle keeps only what the fixture uses: a few KB instead of the
 * ~800 KB of the whole SDK with zod, which QuickJS takes over a second to evaluate.
 */
const sdkWithoutSideEffects: Plugin = {
  name: "sdk-without-side-effects",
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

/** Bundles `fixtures/<name>.ts` once per test run; returns the code. */
function bundle(name: string): Promise<string> {
  let code = bundles.get(name);
  if (!code) {
    code = build({
      entryPoints: [join(FIXTURES, `${name}.ts`)],
      bundle: true,
      write: false,
      format: "cjs",
      platform: "neutral",
      mainFields: ["module", "main"],
      target: "es2022",
      alias: { "@svc/api": SDK_ENTRY },
      plugins: [sdkWithoutSideEffects],
      logLevel: "silent",
    }).then((result) => result.outputFiles[0].text);
    bundles.set(name, code);
  }
  return code;
}

/** A temp root holding `Extensions/` and `Data/`. */
export function tempRoot(): { root: string; extensions: string; data: string } {
  const root = mkdtempSync(join(tmpdir(), "svc-runtime-test-"));
  const extensions = join(root, "Extensions");
  const data = join(root, "Data");
  mkdirSync(extensions, { recursive: true });
  return { root, extensions, data };
}

/**
 * Builds the fixture into `<extensionsDir>/<id>/` (package.json + dist/index.js).
 *
 * @example
 * const ext = await buildFixture("basic", root.extensions, "test.basic");
 * await runtime.call(ExtensionLoad, { id: ext.id, path: ext.path, manifest: ext.manifest, preferences: {} });
 */
export async function buildFixture(
  name: string,
  extensionsDir: string,
  id: string,
  permissions: Permissions = {},
): Promise<BuiltExtension> {
  const path = join(extensionsDir, id);
  mkdirSync(join(path, "dist"), { recursive: true });
  const manifest = {
    id,
    title: `Fixture ${name}`,
    version: "1.0.0",
    permissions: { network: permissions.network ?? [], files: permissions.files ?? [], exec: permissions.exec ?? [] },
  };
  writeFileSync(
    join(path, "package.json"),
    JSON.stringify({ name: id, version: "1.0.0", main: "dist/index.js", svc: manifest }),
  );
  writeFileSync(join(path, "dist", "index.js"), await bundle(name));
  return { id, path, manifest };
}
