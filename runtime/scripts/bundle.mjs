// svc-runtime as svc-host starts it: its built code (dist/, from tsc) and the sandbox thread's,
// bundled with everything they import into dist/bundle/ (`main.js`, `sandbox-thread.js` and the
// chunks they share). One file to read instead of ~300 cuts the launch (bench/README.md, "scale"):
// the protocol side is a chunk of its own, loaded after the sandbox thread has been started.
//
// Two things change in the bundle, both here:
// - `import.meta.url` in a bundled module still names the file it was built from, relative to
//   the bundle (the guest prelude, the QuickJS `.wasm`, package.json are found as before);
// - the sandbox thread's file is the bundled thread beside `main.js` (sandbox/src/threads/thread-file.ts).
import { build } from "esbuild";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("../dist/", import.meta.url));
const outdir = join(dist, "bundle");
const sandboxDist = dirname(createRequire(import.meta.url).resolve("@svc/sandbox"));
const threadFile = join(sandboxDist, "threads", "thread-file.js");

const inPlace = {
  name: "svc-in-place",
  setup(bundler) {
    bundler.onLoad({ filter: /\.m?js$/ }, async ({ path }) => {
      if (path === threadFile)
        return { contents: 'export const SANDBOX_THREAD_FILE = new URL("./sandbox-thread.js", import.meta.url);' };
      const text = await readFile(path, "utf8");
      if (!text.includes("import.meta.url")) return undefined; // esbuild reads it itself
      const from = relative(outdir, path).split(sep).join("/");
      return { contents: text.replaceAll("import.meta.url", `new URL(${JSON.stringify(from)}, import.meta.url).href`) };
    });
  },
};

const { outputFiles } = await build({
  entryPoints: { main: join(dist, "main.js"), "sandbox-thread": join(sandboxDist, "threads", "sandbox-thread.js") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunk-[hash]",
  plugins: [inPlace],
  logLevel: "warning",
  write: false,
});
// A CommonJS dependency would be bundled behind a `require` that throws at run time: refuse it here.
const required = outputFiles.find((file) => file.text.includes("Dynamic require of"));
if (required) throw new Error(`${relative(dist, required.path)}: a CommonJS dependency cannot be bundled as ESM`);
// Only now is the last bundle replaced: a failed build leaves it whole (and stops `npm run build`).
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await Promise.all(outputFiles.map((file) => writeFile(file.path, file.contents)));
