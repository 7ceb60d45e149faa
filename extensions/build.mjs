#!/usr/bin/env node
/**
 * Builds every extension here (each folder with a package.json holding `svc`) with svckit's own
 * build. Runs during `npm install` (the root's `npm run build --workspaces`), after the
 * TypeScript packages are built.
 *
 * The folders bundled.json lists run by default and are only built. Every other one is a
 * catalog package: built, packed into a deterministic `.svc` signed with the first-party key,
 * and listed in catalog/index.json (svckit's packCatalog; where the key comes from is said
 * there and in host/README.md "The catalog").
 *
 * Usage: node extensions/build.mjs [name …]   (default: all; naming some builds those and
 * leaves the catalog as it is)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLED_LIST_FILE, CATALOG_FOLDER, parseBundledList } from "@svc/api";

const here = fileURLToPath(new URL(".", import.meta.url));

function extensionFolders(names) {
  const all = readdirSync(here).filter((name) => {
    const dir = join(here, name);
    if (name.startsWith(".") || name === "node_modules" || !statSync(dir).isDirectory()) return false;
    try {
      return Boolean(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).svc);
    } catch {
      return false;
    }
  });
  const unknown = names.filter((name) => !all.includes(name));
  if (unknown.length > 0) throw new Error(`no extension named ${unknown.join(", ")}; there are: ${all.join(", ")}`);
  return names.length > 0 ? names : all;
}

const listed = parseBundledList(readFileSync(join(here, BUNDLED_LIST_FILE), "utf8"), join(here, BUNDLED_LIST_FILE));
if (!listed.ok) throw new Error(listed.error);
const onByDefault = new Set(listed.value.onByDefault);
const named = process.argv.slice(2);
const names = extensionFolders(named);

const { runCli, packCatalog, firstPartyKey } = await import("svckit");
const outputOf = (name) => ({
  info: (line) => console.log(`extensions/${name}: ${line}`),
  warn: (line) => console.error(`extensions/${name}: ${line}`),
});
let failed = 0;
for (const name of names.filter((n) => onByDefault.has(n))) {
  const code = await runCli(["build"], {
    cwd: join(here, name),
    env: process.env,
    out: outputOf(name),
    signal: new AbortController().signal,
    readStdin: async () => "",
  });
  if (code !== 0) failed++;
}
const catalog = names.filter((n) => !onByDefault.has(n));
if (named.length === 0 || catalog.length > 0) {
  try {
    const key = await firstPartyKey(process.env, join(here, ".first-party-key"));
    const { index, failures } = await packCatalog({
      folders: catalog.map((name) => join(here, name)),
      outDir: join(here, CATALOG_FOLDER),
      key,
      out: outputOf(CATALOG_FOLDER),
    });
    for (const { folder, error } of failures) console.error(`${folder}: not in the catalog: ${error}`);
    failed += failures.length;
    console.log(
      `extensions/${CATALOG_FOLDER}: ${index.packages.length} package${index.packages.length === 1 ? "" : "s"} signed with key ${index.signedBy.fingerprint} (${index.signedBy.words}): ${key.source}`,
    );
  } catch (error) {
    console.error(`extensions/${CATALOG_FOLDER}: ${error.message}`);
    failed++;
  }
}
if (failed > 0) {
  console.error(`${failed} extension build${failed === 1 ? "" : "s"} failed`);
  process.exit(1);
}
