// Bundles the guest prelude (sandbox/guest) into dist/guest-prelude.js. Run by `npm run build` after
// tsc. The network globals (guest/fetch.ts, guest/websocket.ts) are included when present; each
// exports `install(bridge)`.
import { build } from "esbuild";
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const optional = ["fetch", "websocket"].filter((name) => existsSync(`${root}guest/${name}.ts`));
const contents = [
  `import { bridge, finish } from "./guest/index.ts";`,
  ...optional.map((name, i) => `import { install as install${i} } from "./guest/${name}.ts";`),
  ...optional.map((_, i) => `install${i}(bridge);`),
  `finish();`,
].join("\n");

mkdirSync(`${root}dist`, { recursive: true });
await build({
  stdin: { contents, resolveDir: root, sourcefile: "prelude-entry.ts", loader: "ts" },
  bundle: true,
  format: "iife",
  target: "es2023",
  platform: "neutral",
  minify: true,
  legalComments: "none",
  outfile: `${root}dist/guest-prelude.js`,
  logLevel: "warning",
});
