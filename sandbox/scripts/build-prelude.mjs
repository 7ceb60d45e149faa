// Bundles the guest prelude (sandbox/guest) into dist/guest-prelude.js. Run by `npm run build`
// after tsc. The core (guest/index.ts) is compiled eagerly; each lazy part (a guest file that
// exports `install(bridge)` and `GLOBALS`) is bundled on its own and embedded as text, to be
// compiled in the guest only when one of its globals is first used (guest/lazy.ts). The network
// parts (guest/fetch.ts, guest/websocket.ts) are included when present.
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const guest = `${root}guest/`;
const SHARED = ["events", "encoding", "errors"];
const PARTS = ["text", "url", "clone", "intl", "subtle", "unicode-sets-translate", "fetch", "websocket"].filter(
  (name) => existsSync(`${guest}${name}.ts`),
);

/** Resolves the shared modules to the core's copies, passed to the part as `__svc_shared`. */
const shareWithCore = {
  name: "share-with-core",
  setup(b) {
    const filter = new RegExp(`^\\./(${SHARED.join("|")})\\.ts$`);
    b.onResolve({ filter }, (args) => ({ path: args.path.slice(2, -3), namespace: "svc-shared" }));
    b.onLoad({ filter: /.*/, namespace: "svc-shared" }, (args) => ({
      contents: `module.exports = __svc_shared[${JSON.stringify(args.path)}];`,
      loader: "js",
    }));
  },
};

/** The globals a part defines: its `GLOBALS` export, else the `g.Name =` assignments of install(). */
function globalsOf(name) {
  const source = readFileSync(`${guest}${name}.ts`, "utf8");
  const declared = /export const GLOBALS(?::\s*string\[\])?\s*=\s*\[([^\]]*)\]/.exec(source);
  const names = declared
    ? [...declared[1].matchAll(/["']([\w$]+)["']/g)].map((m) => m[1])
    : [...source.matchAll(/\bg\.([A-Za-z_$][\w$]*)\s*=/g)].map((m) => m[1]);
  // `export const GLOBALS: string[] = []`: a part reached only through its loader (guest/lazy.ts)
  if (names.length === 0 && !declared) throw new Error(`guest/${name}.ts: no globals found (export GLOBALS)`);
  return [...new Set(names)];
}

async function bundlePart(name) {
  const result = await build({
    stdin: {
      contents: `export { install as default } from "./${name}.ts";`,
      resolveDir: guest,
      sourcefile: `${name}-part.ts`,
      loader: "ts",
    },
    bundle: true,
    write: false,
    format: "iife",
    globalName: "__svc_part",
    target: "es2023",
    platform: "neutral",
    minify: true,
    legalComments: "none",
    plugins: [shareWithCore],
  });
  return { globals: globalsOf(name), source: result.outputFiles[0].text };
}

const parts = {};
for (const name of PARTS) parts[name] = await bundlePart(name);

const core = await build({
  stdin: {
    contents: `import { start } from "./index.ts";\nstart(${JSON.stringify(parts)});`,
    resolveDir: guest,
    sourcefile: "prelude-entry.ts",
    loader: "ts",
  },
  bundle: true,
  write: false,
  format: "iife",
  target: "es2023",
  platform: "neutral",
  minify: true,
  legalComments: "none",
});
mkdirSync(`${root}dist`, { recursive: true });
writeFileSync(`${root}dist/guest-prelude.js`, core.outputFiles[0].text);

// The prelude's compiled form beside it (src/engine/compiled-code/compiled-prelude.ts), so no
// thread parses the prelude. Needs tsc's output; without it, each thread compiles it once.
try {
  const { writePreludeCode } = await import("../dist/engine/compiled-prelude.js");
  if (!(await writePreludeCode()))
    console.warn("build-prelude: this engine cannot keep compiled code; the prelude is parsed at run time");
} catch (error) {
  console.warn(
    `build-prelude: the prelude was not compiled ahead (${error.message}); each sandbox thread compiles it once`,
  );
}
