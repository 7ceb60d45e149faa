/**
 * Finds Node built-in modules a bundle still needs and explains each one: the import chain
 * that reaches it (from esbuild's metafile) and what the extension sandbox offers instead.
 * The sandbox is a QuickJS interpreter: Node's modules are absent, so such a bundle cannot load.
 *
 * esbuild resolves first: a package's `"browser": {"crypto": false}`, an installed npm package
 * named like a built-in (`events`, `buffer`), and a `require` inside `try`/`catch` (esbuild
 * leaves it to fail at run time, where the sandbox throws and the `catch` takes over) are all
 * fine. Only what stays unresolved is refused.
 */
import { builtinModules } from "node:module";
import {
  build as esbuild,
  type BuildOptions,
  type Message,
  type Metafile,
  type PartialMessage,
  type Plugin,
} from "esbuild";

const BARE_NAMES = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** Matches exactly the built-in specifiers, so esbuild asks this plugin about nothing else. */
const BUILTIN_FILTER = new RegExp(
  `^(?:node:.*|${[...BARE_NAMES].map((name) => name.replace(/[/.]/g, "\\$&")).join("|")})$`,
);

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
  crypto: "use the global crypto (getRandomValues, randomUUID, subtle)",
};

/** Built-ins with a browser version on npm under the same name: installing it is the fix. */
const SAME_NAME_PACKAGES = new Set([
  "events",
  "buffer",
  "util",
  "assert",
  "string_decoder",
  "punycode",
  "url",
  "querystring",
  "process",
]);

/**
 * The advice for one built-in.
 *
 * @example
 * alternativeFor("node:https") // "use fetch()"
 * alternativeFor("zlib")       // "use a package that does not need it (a browser build often does not)"
 */
export function alternativeFor(specifier: string): string {
  const bare = specifier.replace(/^node:/, "");
  if (SAME_NAME_PACKAGES.has(bare))
    return `install the npm package "${bare}" (its browser version), which svckit then bundles`;
  return ALTERNATIVES[bare] ?? "use a package that does not need it (a browser build often does not)";
}

const GUARD = "svc-node-builtins";
const UNRESOLVED = /^Could not resolve "(.+)"$/;

/**
 * An esbuild plugin for Node built-in names. It lets esbuild resolve each one first (a browser
 * mapping, an installed package of that name); what does not resolve is left external, so the
 * build finishes and the metafile shows who imports it. When the build ends, each external
 * built-in becomes an error naming its import chain, except a `require` that esbuild itself
 * tolerates (inside `try`/`catch`). `resolution` are the plugins that decide resolution
 * (the `@svc/api` fallback), used again for that check.
 */
export function nodeBuiltins(resolution: Plugin[] = []): Plugin {
  return {
    name: GUARD,
    setup(build) {
      build.onResolve({ filter: BUILTIN_FILTER }, async (args) => {
        if (args.pluginData === GUARD) return undefined;
        const own = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: GUARD,
        });
        return own.errors.length === 0 ? undefined : { path: args.path, external: true };
      });
      build.onEnd(async (result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        const entry = String((build.initialOptions.entryPoints as string[] | undefined)?.[0] ?? "");
        let imports = externalBuiltins(result.metafile);
        if (imports.some((found) => found.kind === "require-call")) {
          const refused = await refusedByEsbuild(build.initialOptions, resolution);
          imports = imports.filter(
            (found) => found.kind !== "require-call" || refused.has(`${found.importer}\0${found.path}`),
          );
        }
        result.errors.push(...refusalLines(result.metafile, entry, imports).map((text) => message(text)));
      });
    },
  };
}

interface BuiltinImport {
  importer: string;
  path: string;
  original: string;
  kind: string;
}

function externalBuiltins(metafile: Metafile): BuiltinImport[] {
  const found: BuiltinImport[] = [];
  for (const [importer, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external && isNodeBuiltin(imported.path)) {
        found.push({
          importer,
          path: imported.path,
          original: imported.original ?? imported.path,
          kind: imported.kind,
        });
      }
    }
  }
  return found;
}

/**
 * `importer\0name` for each built-in esbuild refuses on its own (without this plugin): every
 * unresolved import, and a `require` outside `try`/`catch`. Run only when a bundle has a
 * `require` of an unresolved built-in.
 */
async function refusedByEsbuild(options: BuildOptions, resolution: Plugin[]): Promise<Set<string>> {
  const refused = new Set<string>();
  try {
    await esbuild({
      ...options,
      plugins: resolution,
      minify: false,
      metafile: false,
      write: false,
      logLevel: "silent",
    });
  } catch (error) {
    for (const { text, location } of (error as { errors?: Message[] }).errors ?? []) {
      const name = UNRESOLVED.exec(text)?.[1];
      if (name && location && isNodeBuiltin(name)) refused.add(`${location.file}\0${name}`);
    }
  }
  return refused;
}

function message(text: string): PartialMessage & Message {
  return { id: "", pluginName: GUARD, text, location: null, notes: [], detail: undefined };
}

/**
 * One line per built-in import, naming the chain of files that reaches it.
 *
 * @example
 * // ['src/index.ts → node_modules/got/index.js imports "http": Node modules are not available in the extension sandbox; use fetch()']
 */
function refusalLines(metafile: Metafile, entry: string, imports: BuiltinImport[]): string[] {
  const chains = shortestChains(metafile, entry);
  const lines = imports.map(
    ({ importer, path, original }) =>
      `${(chains.get(importer) ?? [importer]).join(" → ")} imports "${original}": ` +
      `Node modules are not available in the extension sandbox; ${alternativeFor(path)}`,
  );
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
