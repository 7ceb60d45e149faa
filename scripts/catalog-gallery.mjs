#!/usr/bin/env node
/**
 * Writes README.md's "The catalog" gallery: one row per catalog extension (every folder of
 * extensions/ that bundled.json does not turn on by default), with its title, the sentence the
 * catalog shows (package.json `description`), how to add it from a terminal, and its
 * screenshots from the end-to-end test (docs/screenshots/catalog-<name>-{dark,light}.png, made by
 * `SVC_WRITE_SCREENSHOTS=1 npx vitest run test/ui/catalog-pages.test.ts`).
 *
 * Usage: node scripts/catalog-gallery.mjs           rewrite the section between its markers
 *        node scripts/catalog-gallery.mjs --check   exit 1 when README.md's section is not current
 */
import { existsSync, readFileSync, readdirSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const EXTENSIONS = join(REPO, "extensions");
const README = join(REPO, "README.md");
const START = "<!-- catalog gallery: written by scripts/catalog-gallery.mjs -->";
const END = "<!-- end of catalog gallery -->";

/** A table cell holds no pipe and no line break, whatever package.json says. */
const cell = (text) => String(text).replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

function catalogFolders() {
  const onByDefault = new Set(JSON.parse(readFileSync(join(EXTENSIONS, "bundled.json"), "utf8")).onByDefault);
  return readdirSync(EXTENSIONS, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !onByDefault.has(e.name) && existsSync(join(EXTENSIONS, e.name, "package.json")))
    .map((e) => e.name)
    .filter((name) => JSON.parse(readFileSync(join(EXTENSIONS, name, "package.json"), "utf8")).svc)
    .sort();
}

function row(name) {
  const manifest = JSON.parse(readFileSync(join(EXTENSIONS, name, "package.json"), "utf8"));
  const sentence = manifest.description ?? manifest.svc.description ?? "";
  const shot = (scheme) => `docs/screenshots/catalog-${name}-${scheme}.png`;
  const picture = existsSync(join(REPO, shot("dark")))
    ? `![${cell(manifest.svc.title)}, dark](${shot("dark")})${existsSync(join(REPO, shot("light"))) ? ` [light](${shot("light")})` : ""}`
    : "no screenshot yet";
  return `| **${cell(manifest.svc.title)}** <br> \`svc-host install ${name}\` | ${cell(sentence)} | ${picture} |`;
}

function gallery() {
  const names = catalogFolders();
  const lines = [START];
  if (names.length === 0)
    lines.push("", "_No catalog extensions yet: every folder of extensions/ is on by default._", "");
  else
    lines.push(
      "",
      "| extension | what it shows | its first blip, from its recording |",
      "| --- | --- | --- |",
      ...names.map(row),
      "",
    );
  lines.push(END);
  return lines.join("\n");
}

const text = readFileSync(README, "utf8");
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from < 0 || to < from) {
  console.error(`README.md has no catalog gallery markers: put ${START} and ${END} under "## The catalog"`);
  process.exit(1);
}
const next = text.slice(0, from) + gallery() + text.slice(to + END.length);
if (process.argv.includes("--check")) {
  if (next !== text) {
    console.error("README.md's catalog gallery is not current: run node scripts/catalog-gallery.mjs");
    process.exit(1);
  }
} else if (next !== text) {
  const temp = `${README}.${process.pid}.tmp`;
  writeFileSync(temp, next);
  renameSync(temp, README);
  console.log("README.md: catalog gallery written");
}
