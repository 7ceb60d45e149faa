/**
 * `svckit check [dir]`: type-check the extension's TypeScript (build bundles without checking).
 */
import { defineCommand } from "../command.js";
import { CliError } from "../errors.js";
import { projectDir } from "../project.js";
import { typeCheck } from "../check/type-check.js";

export const check = defineCommand({
  name: "check",
  summary: "type-check src/ with TypeScript (build does not)",
  details: [
    "Runs the TypeScript compiler over the extension with its tsconfig.json, writing nothing, and",
    "prints each type error as file:line:column. `svckit build` bundles with esbuild, which drops",
    "types without checking them: run this before you pack. Uses the project's own typescript,",
    "else the one beside svckit; @svc/api resolves like the build's.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {},
  examples: ["svckit check", "svckit check ./my-extension"],
  async run({ positionals }, ctx) {
    const problems = typeCheck(projectDir(ctx.cwd, positionals[0]));
    for (const line of problems) ctx.out.warn(line);
    if (problems.length > 0)
      throw new CliError(`check failed: ${problems.length === 1 ? "1 type error" : `${problems.length} type errors`}`);
    ctx.out.info("types ok");
  },
});
