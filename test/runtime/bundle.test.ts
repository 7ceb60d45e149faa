/**
 * svc-runtime as svc-host starts it: the bundle `npm run build` makes (runtime/scripts/bundle.mjs).
 * Every other test in this folder drives it; these check what those could miss — that it is the
 * bundle the host starts, that every file a bundled module finds from its own place is still
 * there, and that the sandbox thread it starts is the bundled one.
 */
import { describe, expect, it } from "vitest";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runtimeMainPath } from "../../host/src/supervisor/runtime-process.js";
import { RUNTIME_MAIN } from "./harness/client.js";

const BUNDLE = dirname(RUNTIME_MAIN);
const BUNDLE_URL = pathToFileURL(`${BUNDLE}/`);
const files = readdirSync(BUNDLE).filter((name) => name.endsWith(".js"));
const source = files.map((name) => readFileSync(join(BUNDLE, name), "utf8")).join("\n");
/** A bundled module's `import.meta.url`, as the bundle writes it: the module's own file, from the bundle. */
const modules = [...source.matchAll(/new URL\("([^"]+)", import\.meta\.url\)\.href/g)].map((match) => match[1]);
/** What a bundled module finds from its own place: `new URL(asset, <its own file>)`. */
const assets = [...source.matchAll(/new URL\("([^"]+)", new URL\("([^"]+)", import\.meta\.url\)\.href\)/g)].map(
  ([, asset, module]) => fileURLToPath(new URL(asset, new URL(module, BUNDLE_URL))),
);

describe("svc-runtime's bundle", () => {
  it("is what svc-host starts, and what these tests start", () => {
    expect(runtimeMainPath({})).toBe(RUNTIME_MAIN);
    expect(RUNTIME_MAIN).toBe(fileURLToPath(new URL("../../runtime/dist/bundle/main.js", import.meta.url)));
    expect(files).toContain("sandbox-thread.js");
  });

  it("still finds every file its modules find from their own place", () => {
    expect(modules.filter((module) => !existsSync(fileURLToPath(new URL(module, BUNDLE_URL))))).toEqual([]);
    expect(assets.filter((asset) => !existsSync(asset))).toEqual([]);
    const root = fileURLToPath(new URL("../../", import.meta.url));
    expect(assets).toEqual(
      expect.arrayContaining([
        join(root, "runtime", "package.json"), // its version, in `initialize`'s answer
        join(root, "sandbox", "dist", "guest-prelude.js"),
        join(root, "sandbox", "dist", "guest-prelude.qjsc"),
      ]),
    );
    expect(modules.some((module) => module.endsWith("/sandbox/dist/engine/wasm.js"))).toBe(true); // the .wasm's package
  });

  it("starts the bundled sandbox thread beside it, not the sandbox package's own", () => {
    // Any URL naming a sandbox thread's file, whatever it is relative to.
    const threads = [...source.matchAll(/new URL\("([^"]*sandbox-thread\.js)"/g)].map((m) => m[1]);
    expect(threads).toEqual(["./sandbox-thread.js"]);
  });
});
