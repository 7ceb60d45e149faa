/**
 * Finds Node built-in modules a bundle still needs and explains each one: the import chain
 * that reaches it (from esbuild's metafile) and what the extension sandbox offers instead.
 * The sandbox is a QuickJS interpreter: Node's modules are absent, so such a bundle cannot load.
 */
import { builtinModules } from "node:module";
import type { Metafile, Plugin } from "esbuild";

const BARE_NAMES = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** Matches exactly the built-in specifiers, so esbuild asks this plugin about nothing else. */
const BUILTIN_FILTER = new RegExp(`^(?:node:.*|${[...BARE_NAMES].map((name) => name.replace(/[/.]/g, "\\$&")).join("|")})$`);

/** True for `fs`, `fs/promises`, `node:http` and every other Node built-in specifier. */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BARE_NAMES.has(specifier);
}

/** What to use in the sandbox instead of a Node module, when there is a bridged alternative. */
const ALTERNATIVES: Record<string, string> = {
  http: "use fetch()",
  https: "use fetch()",
  http2: "use fetch()",
  net: "use fetch() or WebSocket",
  tls: "use fetch() or WebSocket",
  dns: "use fetch()",
  dgram: "use fetch()",
  child_process: "use ctx.exec()",
  fs: "use ctx.files",
  "fs/promises": "use ctx.files",
  timers: "use the global setTimeout/setInterval",
  "timers/promises": "use the global setTimeout",
};

/**
 * The advice for one built-in.
 *
 * @example
 * alternativeFor("node:https") // "use fetch()"
 * alternativeFor("zlib")       // "use a package that does not need it (a browser build often does not)"
 */
export function alternativeFor(specifier: string): string {
  const bare = specifier.replace(/^node:/, "");
  return ALTERNATIVES[bare] ?? "use a package that does not need it (a browser build often does not)";
}

/**
 * An esbuild plugin that leaves every Node built-in external, so the build finishes and the
 * metafile shows who imports it; `findBuiltinImports` then turns that into a failure.
 */
export function externalNodeBuiltins(): Plugin {
  return {
    name: "svc-node-builtins",
    setup(build) {
      build.onResolve({ filter: BUILTIN_FILTER }, (args) => ({ path: args.path, external: true }));
    },
  };
}

/**
 * One line per Node built-in the bundle needs, naming the chain of files that reaches it.
 *
 * @example
 * findBuiltinImports(metafile, "src/index.ts")
 * // ['src/index.ts → node_modules/got/index.js imports "http": Node modules are not available in the extension sandbox; use fetch()']
 */
export function findBuiltinImports(metafile: Metafile, entry: string): string[] {
  const chains = shortestChains(metafile, entry);
  const lines: string[] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (!imported.external || !isNodeBuiltin(imported.path)) continue;
      const chain = chains.get(file) ?? [file];
      lines.push(
        `${chain.join(" → ")} imports "${imported.original ?? imported.path}": ` +
          `Node modules are not available in the extension sandbox; ${alternativeFor(imported.path)}`,
      );
    }
  }
  return [...new Set(lines)];
}

/** Breadth-first from the entry: the shortest import chain to every file in the bundle. */
function shortestChains(metafile: Metafile, entry: string): Map<string, string[]> {
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    const chain = chains.get(file) as string[];
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external || chains.has(imported.path)) continue;
      chains.set(imported.path, [...chain, imported.path]);
      queue.push(imported.path);
    }
  }
  return chains;
}
