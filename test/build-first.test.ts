/**
 * The build before tests runs only when something the build reads or writes changed: the
 * fingerprint moves with a source, a manifest or an output, and not with a test file.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildFingerprint } from "./build-first.js";

let top: string;
beforeEach(() => {
  top = mkdtempSync(join(tmpdir(), "svc-build-first-"));
  for (const dir of ["sdk/src", "sdk/dist", "host/src", "host/node_modules/x"])
    mkdirSync(join(top, dir), { recursive: true });
  const files = {
    "package.json": "{}",
    "sdk/src/index.ts": "export const a = 1;",
    "sdk/src/index.test.ts": "test",
    "sdk/dist/index.js": "exports.a = 1;",
    "host/src/main.ts": "main",
    "host/node_modules/x/index.js": "dependency",
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(top, path), text);
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

const later = new Date(Date.now() + 60_000);

describe("the fingerprint of what the build reads and writes", () => {
  it("is the same when nothing changed", () => {
    expect(buildFingerprint(top)).toBe(buildFingerprint(top));
  });

  it.each([
    ["a source file is touched", () => utimesSync(join(top, "sdk/src/index.ts"), later, later)],
    ["a source file is edited", () => writeFileSync(join(top, "host/src/main.ts"), "main2")],
    ["a source file is added", () => writeFileSync(join(top, "host/src/new.ts"), "")],
    ["an output is deleted", () => unlinkSync(join(top, "sdk/dist/index.js"))],
    ["the root manifest changes", () => writeFileSync(join(top, "package.json"), '{"x":1}')],
  ])("changes when %s", (_, change) => {
    const before = buildFingerprint(top);
    change();
    expect(buildFingerprint(top)).not.toBe(before);
  });

  it.each([
    ["a test file changes", () => writeFileSync(join(top, "sdk/src/index.test.ts"), "test 2")],
    ["a dependency in node_modules changes", () => writeFileSync(join(top, "host/node_modules/x/index.js"), "2")],
  ])("stays when %s", (_, change) => {
    const before = buildFingerprint(top);
    change();
    expect(buildFingerprint(top)).toBe(before);
  });
});
