/**
 * svckit bundles for the browser platform: a dependency that ships a browser build next to a
 * Node one (as yaml does) gets its browser build, which runs in the sandbox.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { svckit, tempFolder } from "./harness.js";
import { writeFixture } from "./fixtures.js";

let folder: { dir: string; remove(): Promise<void> };
beforeEach(async () => {
  folder = await tempFolder("svckit-browser-");
});
afterEach(() => folder.remove());

it("picks a dependency's browser build over its Node one, and the bundle runs", async () => {
  await writeFixture(folder.dir, {
    source: `import where from "dual";
import { defineExtension, stat } from "@svc/api";
export default defineExtension({ async update(ctx) { await ctx.emit(stat("where", { title: where(), value: 1 })); } });
`,
    files: {
      "node_modules/dual/package.json": JSON.stringify({ name: "dual", main: "node.js", browser: "browser.js" }),
      "node_modules/dual/node.js": `const process = require("process");\nmodule.exports = () => "node " + process.platform;\n`,
      "node_modules/dual/browser.js": `module.exports = () => "browser build";\n`,
    },
  });
  const build = await svckit(["build"], { cwd: folder.dir });
  expect(build.code).toBe(0);
  const validate = await svckit(["validate"], { cwd: folder.dir });
  expect(validate.code).toBe(0);
  expect(validate.stdout).toContain('"title": "browser build"');
});
