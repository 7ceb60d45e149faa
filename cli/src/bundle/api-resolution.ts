/**
 * Makes `@svc/api` resolve for every extension: from the extension's own node_modules when it
 * has it there (the usual case after `npm install`), else from the copy svckit itself depends
 * on. So a freshly scaffolded extension builds before anything is installed, and an extension
 * outside any workspace builds against the SDK its svckit was made for.
 *
 * (The SDK's package.json says `"sideEffects": false`, so a bundle keeps only what the
 * extension uses: some 4 KB rather than 600 KB of schemas and zod.)
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { OnResolveResult, Plugin, ResolveResult } from "esbuild";

export const SDK_PACKAGE = "@svc/api";
const GUARD = "svc-sdk-fallback";

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

/** An esbuild plugin resolving `@svc/api` from the project first, then from svckit's copy. */
export function sdkFallback(root: string | undefined = svckitSdkRoot()): Plugin {
  return {
    name: GUARD,
    setup(build) {
      build.onResolve({ filter: /^@svc\/api$/ }, async (args) => {
        if (args.pluginData === GUARD || root === undefined) return undefined;
        const own = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: GUARD,
        });
        if (own.errors.length === 0) return found(own);
        const fallback = await build.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: GUARD });
        // When neither resolves, esbuild's own "Could not resolve" message (about the project) is the clearer one.
        return fallback.errors.length === 0 ? found(fallback) : undefined;
      });
    },
  };
}

function found(result: ResolveResult): OnResolveResult {
  return { path: result.path, external: result.external, namespace: result.namespace, sideEffects: result.sideEffects };
}
