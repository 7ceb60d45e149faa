/**
 * `svckit build [dir]`: bundle, check the manifest and the tools, write `dist/`.
 */
import { defineCommand } from "../command.js";
import { buildExtension } from "../build/pipeline.js";
import { projectDir } from "../project.js";

export const build = defineCommand({
  name: "build",
  summary: "bundle src/index.ts into dist/index.js, check the manifest, write dist/tools.json",
  details: [
    "The bundle is CommonJS for ES2022 with @svc/api inlined: what the app's sandbox runs.",
    "Tools are found by loading the bundle in that same sandbox; an invalid tool fails the build,",
    "and dist/tools.json is removed when the extension has no tools. The bundle's source map goes",
    "to dist/index.js.map (errors in the app's log then name src/…:line:col; pack leaves it out).",
    "Types are not checked here (esbuild drops them): `svckit check` does that.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {},
  examples: ["svckit build", "svckit build ./my-extension"],
  async run({ positionals }, ctx) {
    await buildExtension(projectDir(ctx.cwd, positionals[0]), ctx.out);
    ctx.out.info("(types not checked: svckit check does that)");
  },
});
