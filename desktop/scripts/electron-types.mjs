#!/usr/bin/env node
// Electron's own types for the shell's type check, on every Node.
//
// `electron` is an optional dependency of @svc/desktop: npm installs it on Node 22.12 or later
// (what Electron 45 and its downloader declare in `engines`, and what svc-desktop needs to run)
// and skips it, silently, on older Node, where nobody can run the shell. `tsc` still compiles
// the shell against the real `electron.d.ts` everywhere: when the package is not installed,
// this takes that one file from the very tarball package-lock.json pins (`npm pack`, its
// sha512 compared with the lockfile's `integrity`) into node_modules/.cache/electron-types/,
// which desktop/tsconfig.json and tsconfig.check.json name after the installed copy.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const installed = join(root, "node_modules", "electron", "electron.d.ts");
const cache = join(root, "node_modules", ".cache", "electron-types");
const cached = join(cache, "electron.d.ts");
const fail = (message) => {
  process.stderr.write(`electron-types: ${message}\n`);
  process.exit(1);
};

const pinned = JSON.parse(readFileSync(join(root, "desktop", "package.json"), "utf8")).optionalDependencies?.electron;
const locked = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")).packages?.["node_modules/electron"];
if (!pinned || !locked?.integrity)
  fail("package-lock.json has no electron entry with an integrity: run npm install to write it");
if (locked.version !== pinned)
  fail(`desktop/package.json pins electron ${pinned} but package-lock.json has ${locked.version}: run npm install`);

/** Written whole, then renamed: a stopped run never leaves half a file for tsc to read. */
function writeWhole(path, content) {
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
}

/** The lockfile's integrity of the types taken last (a changed pin takes them again). */
const stamp = join(cache, "integrity");
const fresh = existsSync(cached) && existsSync(stamp) && readFileSync(stamp, "utf8") === locked.integrity;
if (existsSync(installed) || fresh) process.exit(0);

const work = mkdtempSync(join(tmpdir(), "svc-electron-types-"));
try {
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", `electron@${pinned}`, "--json", "--pack-destination", work], {
      cwd: work,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  );
  const tarball = join(work, packed.filename);
  const [algorithm, expected] = locked.integrity.split("-");
  const actual = createHash(algorithm).update(readFileSync(tarball)).digest("base64");
  if (actual !== expected)
    fail(`electron@${pinned} from the registry is not the one package-lock.json pins (${algorithm} differs)`);
  execFileSync("tar", ["xzf", tarball, "-C", work, "package/electron.d.ts"]);
  mkdirSync(cache, { recursive: true });
  writeWhole(cached, readFileSync(join(work, "package", "electron.d.ts")));
  writeWhole(stamp, locked.integrity);
  process.stdout.write(
    `electron-types: Electron ${pinned} is not installed on Node ${process.versions.node} (it needs 22.12+); its types were taken from the pinned package\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
