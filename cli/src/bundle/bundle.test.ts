import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bundle } from "./bundle.js";
import { alternativeFor, isNodeBuiltin } from "./node-builtins.js";

let dir: string;
afterEach(() => rm(dir, { recursive: true, force: true }));

async function project(files: Record<string, string>): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), "svckit-bundle-"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

describe("bundle", () => {
  it("makes one CommonJS file for ES2022 with dependencies inlined", async () => {
    await project({
      "src/index.ts": 'import { shout } from "./shout.js";\nexport default { greeting: shout("hi") as string };\n',
      "src/shout.ts": "export const shout = (s: string): string => s.toUpperCase() + '!';\n",
    });
    const outcome = await bundle(dir);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.code).toContain("module.exports");
    expect(outcome.code).not.toContain("require(");
    const module = { exports: {} as { default?: { greeting: string } } };
    new Function("module", "exports", outcome.code)(module, module.exports);
    expect(module.exports.default?.greeting).toBe("HI!");
  });

  it("names the import chain and the bridged alternative for a Node module reached through a dependency", async () => {
    await project({
      "src/index.ts": 'import got from "got";\nexport default { got };\n',
      "node_modules/got/package.json": '{"name":"got","main":"index.js"}',
      "node_modules/got/index.js": 'const http = require("http");\nmodule.exports = () => http;\n',
    });
    const outcome = await bundle(dir);
    expect(outcome).toMatchObject({
      ok: false,
      errors: [
        'src/index.ts → node_modules/got/index.js imports "http": Node modules are not available in the extension sandbox; use fetch()',
      ],
    });
  });

  it("reports direct imports of node: modules, child_process and fs with their alternatives", async () => {
    await project({
      "src/index.ts":
        'import { execFile } from "node:child_process";\nimport { readFileSync } from "fs";\nexport default { execFile, readFileSync };\n',
    });
    const outcome = await bundle(dir);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toEqual([
      'src/index.ts imports "node:child_process": Node modules are not available in the extension sandbox; use ctx.exec()',
      'src/index.ts imports "fs": Node modules are not available in the extension sandbox; use ctx.files',
    ]);
  });

  it("reports syntax and resolution errors with their location", async () => {
    await project({ "src/index.ts": 'import x from "./missing.js";\nexport default x;\n' });
    const outcome = await bundle(dir);
    expect(outcome).toMatchObject({ ok: false, errors: ['src/index.ts:1:15: Could not resolve "./missing.js"'] });
  });

  it("resolves @svc/api from svckit's own copy when the project has none", async () => {
    await project({
      "src/index.ts": 'import * as api from "@svc/api";\nexport default { n: Object.keys(api).length };\n',
    });
    const outcome = await bundle(dir);
    expect(outcome.ok).toBe(true);
  });
});

describe("node built-ins", () => {
  it("knows bare, sub-path and node: names, and nothing else", () => {
    expect(["fs", "fs/promises", "node:test", "http", "child_process"].every(isNodeBuiltin)).toBe(true);
    expect(["got", "@svc/api", "./fs", "fsx"].some(isNodeBuiltin)).toBe(false);
  });

  it("suggests the bridge for network, process and file modules", () => {
    expect(alternativeFor("https")).toBe("use fetch()");
    expect(alternativeFor("node:child_process")).toBe("use ctx.exec()");
    expect(alternativeFor("fs/promises")).toBe("use ctx.files");
    expect(alternativeFor("zlib")).toBe("use a package that does not need it (a browser build often does not)");
  });
});

describe("@svc/api in a bundle", () => {
  it("keeps only what the extension uses (the SDK is free of side effects)", async () => {
    await project({
      "src/index.ts":
        'import { defineExtension, number, stat } from "@svc/api";\n' +
        'export default defineExtension({ async update(ctx) { await ctx.emit(stat("n", { title: "N", value: number(1) })); } });\n',
    });
    const outcome = await bundle(dir);
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    // The schemas (and zod) would add hundreds of kilobytes: the SDK says "sideEffects": false.
    expect(outcome.code.length).toBeLessThan(20_000);
    expect(outcome.code).not.toContain("zod");
  });
});

describe("resolution before refusal", () => {
  it("bundles a package's browser mapping to false, an installed package named like a built-in, and a require inside try/catch", async () => {
    await project({
      "src/index.ts":
        'import lib from "lib";\nimport { EventEmitter } from "events";\nexport default { lib, emitter: new EventEmitter() };\n',
      "node_modules/lib/package.json": '{"name":"lib","main":"index.js","browser":{"crypto":false}}',
      "node_modules/lib/index.js":
        'const crypto = require("crypto");\nlet zlib = null;\ntry { zlib = require("zlib"); } catch {}\nmodule.exports = { crypto, zlib };\n',
      "node_modules/events/package.json": '{"name":"events","main":"events.js"}',
      "node_modules/events/events.js":
        "function EventEmitter() {}\nmodule.exports = EventEmitter;\nmodule.exports.EventEmitter = EventEmitter;\n",
    });
    const outcome = await bundle(dir);
    expect(outcome).toMatchObject({ ok: true });
    if (!outcome.ok) return;
    // The tolerated require stays, and fails at run time into its catch (the sandbox refuses it).
    expect(outcome.code).toContain('require("zlib")');
    const module = { exports: {} as { default?: { lib: { crypto: unknown; zlib: unknown }; emitter: object } } };
    const refuse = (name: string) => {
      throw new Error(`module "${name}" is not available in the extension sandbox`);
    };
    new Function("module", "exports", "require", outcome.code)(module, module.exports, refuse);
    expect(module.exports.default?.lib).toEqual({ crypto: {}, zlib: null });
    expect(module.exports.default?.emitter.constructor.name).toBe("EventEmitter");
  });

  it("refuses a require outside try/catch that stays unresolved, and an import of a built-in without a package, naming the chain", async () => {
    await project({
      "src/index.ts":
        'import lib from "lib";\nimport { EventEmitter } from "events";\nexport default { lib, EventEmitter };\n',
      "node_modules/lib/package.json": '{"name":"lib","main":"index.js"}',
      "node_modules/lib/index.js":
        'let zlib = null;\ntry { zlib = require("zlib"); } catch {}\nmodule.exports = { zlib, hash: require("crypto") };\n',
    });
    const outcome = await bundle(dir);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors.sort()).toEqual([
      'src/index.ts imports "events": Node modules are not available in the extension sandbox; install the npm package "events" (its browser version), which svckit then bundles',
      'src/index.ts → node_modules/lib/index.js imports "crypto": Node modules are not available in the extension sandbox; use the global crypto (getRandomValues, randomUUID, subtle)',
    ]);
  });
});
