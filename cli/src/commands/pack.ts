/**
 * `svckit pack [dir]`: build, then write `<name>-<version>.svc` for people to install.
 */
import { join } from "node:path";
import { defineCommand } from "../command.js";
import { buildExtension } from "../build/pipeline.js";
import { CliError } from "../errors.js";
import { packFiles, writeArchive } from "../pack/archive.js";
import { projectDir } from "../project.js";

/** Ids the app keeps for extensions in development; an archive must not claim one. */
export const DEV_ID_PREFIX = "dev.svc.";

export const pack = defineCommand({
  name: "pack",
  summary: "build, then write <name>-<version>.svc, the file people install",
  details: [
    "The .svc file is a zip of package.json, dist/ (without source maps), and the README and",
    "licence when present. Ids beginning dev.svc. are refused.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {},
  examples: ["svckit pack"],
  async run({ positionals }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    const built = await buildExtension(dir, ctx.out);
    if (built.id.startsWith(DEV_ID_PREFIX)) {
      throw new CliError(
        `svc.id "${built.id}" begins with "${DEV_ID_PREFIX}", which the app keeps for extensions in development, so it cannot be installed.\n` +
          `Give the extension its own reverse-DNS id in package.json, e.g. "com.yourname.${built.id.slice(DEV_ID_PREFIX.length)}".`,
      );
    }
    const file = `${archiveName(built.name)}-${built.version}.svc`;
    const files = await packFiles(dir);
    await writeArchive(dir, files, join(dir, file));
    ctx.out.info(`packed ${file}: ${files.join(", ")}`);
  },
});

/** A package name as a file name: `@scope/name` becomes `scope-name`. */
export function archiveName(name: string): string {
  return name.replace(/^@/, "").replace(/\//g, "-");
}
