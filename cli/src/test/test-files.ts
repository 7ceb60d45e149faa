/**
 * An extension's tests as svckit runs them: every `test/**\/*.test.{ts,mts,js,mjs}`, bundled with
 * esbuild into ES modules Node's test runner loads (TypeScript needs no other tool), with
 * `@svc/testkit` and `@svc/api` taken from the project when it has them, else from svckit's own
 * copies, so a freshly scaffolded extension tests before anything is installed.
 */
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { join, relative } from "node:path";
import { build, type Plugin } from "esbuild";
import { CliError } from "../errors.js";

const TEST_FILE = /\.test\.(ts|mts|js|mjs)$/;
/** Where the bundled tests go: inside the project, so its own packages resolve from them. */
export const TEST_CACHE = join("node_modules", ".cache", "svckit-test");

/** The project's test files, relative to it, in a stable order. */
export async function findTestFiles(dir: string): Promise<string[]> {
  const root = join(dir, "test");
  let entries: string[];
  try {
    entries = (await readdir(root, { recursive: true })) as string[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    entries = [];
  }
  const files = entries.filter((name) => TEST_FILE.test(name) && !name.split(/[\\/]/).includes("node_modules")).sort();
  if (files.length === 0) {
    throw new CliError(
      `no tests in ${root}: add one like test/extension.test.ts (svckit new scaffolds one; see @svc/testkit's README)`,
    );
  }
  return files.map((name) => relative(dir, join(root, name)));
}

/** Packages a test imports that resolve from svckit when the project lacks them. */
const OWN_PACKAGES = /^@svc\/(testkit|api)$/;

/** Resolves `@svc/testkit` and `@svc/api` from the project first, then from svckit; keeps every package external. */
function ownPackages(): Plugin {
  return {
    name: "svckit-test-packages",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: OWN_PACKAGES }, (args) => {
        for (const from of [join(args.resolveDir, "test.js"), fileURLToPath(import.meta.url)]) {
          try {
            return { path: pathToFileURL(createRequire(from).resolve(args.path)).href, external: true };
          } catch {
            // not there: try svckit's own
          }
        }
        return undefined;
      });
    },
  };
}

/**
 * Bundles each test file to `<dir>/node_modules/.cache/svckit-test/<file>.mjs`; returns those paths.
 * @throws CliError with esbuild's messages when a test does not compile.
 */
export async function bundleTests(dir: string, files: string[]): Promise<string[]> {
  const outdir = join(dir, TEST_CACHE);
  await build({
    absWorkingDir: dir,
    entryPoints: files,
    outdir,
    outbase: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: "inline",
    plugins: [ownPackages()],
    logLevel: "silent",
  }).catch((error: { errors?: { text: string; location?: { file: string; line: number } }[] }) => {
    const lines = (error.errors ?? []).map((e) =>
      e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text,
    );
    throw new CliError([...lines, `test failed: the tests do not compile`].join("\n"));
  });
  return files.map((file) => join(outdir, file.replace(/\.(ts|mts|js|mjs)$/, ".mjs")));
}
