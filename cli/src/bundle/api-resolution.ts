/**
 * How svckit bundles `@svc/api`:
 *
 * - It resolves for every extension: from the extension's own node_modules when it has it
 *   there (the usual case after `npm install`), else from the copy svckit itself depends on.
 *   So a freshly scaffolded extension builds before anything is installed, and an extension
 *   outside any workspace builds against the SDK its svckit was made for.
 * - Its modules are marked free of side effects, so the bundle keeps only what the extension
 *   uses. The SDK's modules only declare things; without this, the schemas (and all of zod)
 *   would ride along in every bundle — some 600 KB for a 4 KB extension — and every load in
 *   the sandbox would pay for it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { OnResolveArgs, OnResolveResult, Plugin, PluginBuild, ResolveResult } from "esbuild";

export const SDK_PACKAGE = "@svc/api";
const GUARD = "svc-sdk-resolution";

/**
 * The folder from which svckit's own copy of `@svc/api` resolves: the nearest ancestor of
 * svckit's code with `node_modules/@svc/api` in it, or undefined when there is none.
 *
 * @example
 * svckitSdkRoot() // "/work/main" in this repository
 */
export function svckitSdkRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", SDK_PACKAGE, "package.json"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The folder of the package that holds `file`: the nearest ancestor with a package.json named @svc/api. */
function sdkPackageDir(file: string): string | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (!existsSync(manifest)) continue;
    try {
      return JSON.parse(readFileSync(manifest, "utf8")).name === SDK_PACKAGE ? dir : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** An esbuild plugin: `@svc/api` from the project first, then svckit's copy; its modules side-effect free. */
export function sdkResolution(root: string | undefined = svckitSdkRoot()): Plugin {
  return {
    name: GUARD,
    setup(build) {
      const sdkDirs = new Set<string>();
      const inSdk = (path: string) => [...sdkDirs].some((dir) => path.startsWith(dir + sep));

      build.onResolve({ filter: /^@svc\/api$/ }, async (args) => {
        if (args.pluginData === GUARD) return undefined;
        let result = await again(build, args);
        if (result.errors.length > 0 && root !== undefined) {
          result = await build.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: GUARD });
        }
        // When neither resolves, esbuild's own "Could not resolve" message (about the project) is the clearer one.
        if (result.errors.length > 0) return undefined;
        const dir = sdkPackageDir(result.path);
        if (dir) sdkDirs.add(dir);
        return found(result, dir !== undefined);
      });

      // The SDK's own imports are relative: mark the modules they reach as side-effect free too.
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.pluginData === GUARD || !inSdk(args.importer)) return undefined;
        const result = await again(build, args);
        return result.errors.length > 0 ? undefined : found(result, true);
      });
    },
  };
}

function again(build: PluginBuild, args: OnResolveArgs): Promise<ResolveResult> {
  return build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: GUARD });
}

function found(result: ResolveResult, pure: boolean): OnResolveResult {
  return { path: result.path, external: result.external, namespace: result.namespace, sideEffects: pure ? false : result.sideEffects };
}
