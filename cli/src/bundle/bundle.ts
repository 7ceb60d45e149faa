/**
 * Bundles an extension's `src/index.ts` into the one CommonJS file the sandbox evaluates.
 * The sandbox is QuickJS-ng (ES2022, web-like globals, no Node), hence target es2022 rather than
 * SPEC.md's node22 (see DESIGN.md, "The one big deviation"), and the browser platform: packages
 * that ship a browser build (yaml, for one) pick it instead of the one that reaches for Node.
 */
import { build, type BuildFailure, type BuildOptions, type BuildResult, type Message, type Plugin } from "esbuild";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sdkFallback } from "./api-resolution.js";
import { nodeBuiltins } from "./node-builtins.js";

export const ENTRY = "src/index.ts";
export const OUTFILE = "dist/index.js";

/**
 * How every extension is bundled, apart from where it lives: what the sandbox's QuickJS-ng
 * evaluates. Fully minified, because QuickJS parses and keeps every function's source up front
 * (a smaller bundle starts faster and holds less memory); names are kept, so `fn.name` and
 * `constructor.name` behave as in the source. The benchmarks bundle their fixtures with this too.
 */
export const BUNDLE_SETTINGS = {
  bundle: true,
  format: "cjs",
  platform: "browser",
  target: "es2022",
  define: { "process.env.NODE_ENV": '"production"' },
  minify: true,
  keepNames: true,
  sourcemap: false,
  legalComments: "none",
} as const satisfies BuildOptions;

/**
 * The esbuild options for one extension folder, shared by `build`, `validate`, `pack` and
 * `dev` (which adds its own plugin to hear about each rebuild).
 *
 * @example
 * await esbuild.build(bundleOptions("/path/to/ext"));
 */
export function bundleOptions(
  dir: string,
  extraPlugins: Plugin[] = [],
): BuildOptions & { metafile: true; write: false } {
  return {
    absWorkingDir: dir,
    entryPoints: [ENTRY],
    outfile: join(dir, OUTFILE),
    ...BUNDLE_SETTINGS,
    // Written beside the bundle (dist/index.js.map), with no comment pointing at it: errors in
    // the author's log name src/…:line:col; `svckit pack` leaves it out.
    sourcemap: "external",
    metafile: true,
    write: false,
    logLevel: "silent",
    plugins: [sdkFallback(), nodeBuiltins([sdkFallback()]), ...extraPlugins],
  };
}

export type BundleOutcome =
  | { ok: true; code: string; sourceMap?: string; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[] };

/**
 * Reads one esbuild result: the bundled code, or every reason it cannot run in the sandbox.
 *
 * @example
 * const outcome = bundleOutcome(await esbuild.build(bundleOptions(dir)));
 */
export function bundleOutcome(result: BuildResult<{ metafile: true; write: false }>): BundleOutcome {
  const warnings = result.warnings.map(formatMessage);
  const errors = result.errors.map(formatMessage);
  const output = result.outputFiles?.find((file) => file.path.endsWith(".js"));
  if (errors.length > 0 || !output) {
    return { ok: false, errors: errors.length > 0 ? errors : ["esbuild produced no output"], warnings };
  }
  const map = result.outputFiles?.find((file) => file.path.endsWith(".js.map"));
  return { ok: true, code: output.text, ...(map ? { sourceMap: map.text } : {}), warnings };
}

/**
 * Bundles once.
 *
 * @example
 * const outcome = await bundle("/path/to/ext");
 * if (outcome.ok) console.log(outcome.code.length);
 */
export async function bundle(dir: string): Promise<BundleOutcome> {
  if (!existsSync(join(dir, ENTRY))) {
    return {
      ok: false,
      errors: [`${ENTRY} is missing: it is the extension's entry point, bundled into ${OUTFILE}`],
      warnings: [],
    };
  }
  try {
    return bundleOutcome(await build(bundleOptions(dir)));
  } catch (error) {
    const failure = error as BuildFailure;
    if (!Array.isArray(failure.errors)) throw error;
    return {
      ok: false,
      errors: failure.errors.map(formatMessage),
      warnings: (failure.warnings ?? []).map(formatMessage),
    };
  }
}

/**
 * One esbuild message as one line: `src/index.ts:3:7: Could not resolve "foo"`.
 */
export function formatMessage(message: Message): string {
  const where = message.location
    ? `${message.location.file}:${message.location.line}:${message.location.column + 1}: `
    : "";
  // esbuild's notes suggest marking paths external, which cannot help in the sandbox: left out.
  return `${where}${message.text}`;
}
