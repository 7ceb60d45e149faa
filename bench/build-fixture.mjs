// Bundles the benchmark fixture the way `svckit build` bundles an extension: CommonJS, one file.
import { buildSync } from "esbuild";
import { fileURLToPath } from "node:url";

/**
 * Returns the bundled code of bench/fixtures/<name>/src/index.ts: unminified, `svckit` style
 * (whitespace and syntax minified, names kept, as `svckit build` does) or fully `minify`d.
 */
export function buildFixture(name = "zod-datefns", { minify = false, svckit = false } = {}) {
  const entry = fileURLToPath(new URL(`./fixtures/${name}/src/index.ts`, import.meta.url));
  const out = buildSync({
    entryPoints: [entry],
    bundle: true,
    format: "cjs",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    minify,
    ...(svckit && !minify ? { minifyWhitespace: true, minifySyntax: true } : {}),
    write: false,
    logLevel: "error",
  });
  return out.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = buildFixture();
  console.log(`bundle: ${(code.length / 1024).toFixed(1)} KB`);
}
