// Builds the page into dist/: app.js (esbuild bundle of src/main.ts), index.html and app.css.
// Type-checks first (tsc --noEmit), so a type error fails the build.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const checked = spawnSync(process.execPath, [tsc, "-p", here("./tsconfig.json")], { stdio: "inherit" });
if (checked.status !== 0) process.exit(checked.status ?? 1);

mkdirSync(here("./dist"), { recursive: true });
await build({
  entryPoints: [here("./src/main.ts")],
  outfile: here("./dist/app.js"),
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
// The ticket trade starts from this tiny classic script, before app.js has loaded.
await build({
  entryPoints: [here("./src/boot.ts")],
  outfile: here("./dist/boot.js"),
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
for (const file of ["index.html", "app.css"]) copyFileSync(here(`./static/${file}`), here(`./dist/${file}`));
