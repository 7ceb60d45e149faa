// Bundles the benchmark fixture the way `svckit build` bundles an extension: CommonJS, one file.
import { buildSync } from "esbuild";
import { fileURLToPath } from "node:url";
import { BUNDLE_SETTINGS } from "svckit";

/**
 * Returns the bundled code of bench/fixtures/<name>/src/index.ts: unminified, or with `svckit`
 * exactly as `svckit build` bundles an extension (its BUNDLE_SETTINGS: minified, names kept).
 */
export function buildFixture(name = "zod-datefns", { svckit = false } = {}) {
  const entry = fileURLToPath(new URL(`./fixtures/${name}/src/index.ts`, import.meta.url));
  const out = buildSync({
    entryPoints: [entry],
    ...(svckit
      ? BUNDLE_SETTINGS
      : { bundle: true, format: "cjs", platform: "browser", target: "es2022", define: BUNDLE_SETTINGS.define }),
    write: false,
    logLevel: "error",
  });
  return out.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const code = buildFixture();
  console.log(`bundle: ${(code.length / 1024).toFixed(1)} KB`);
}
