/**
 * `svckit pack [dir]`: build, then write `<name>-<version>.svc` for people to install.
 */
import { join, resolve } from "node:path";
import { defineCommand, type Output } from "../command.js";
import { buildExtension, type BuiltExtension } from "../build/pipeline.js";
import { CliError } from "../errors.js";
import { packFiles, readPackFiles, writeArchive } from "../pack/archive.js";
import { projectDir } from "../project.js";
import { signPackage, type SecretKey } from "@svc/api/signing";
import { describeKey } from "../sign/describe-key.js";
import { PASSPHRASE_ENV, PUBLIC_KEY_FILE } from "../sign/keys.js";
import { signingKey } from "../sign/signer.js";

/** Ids the app keeps for extensions in development; an archive must not claim one. */
export const DEV_ID_PREFIX = "dev.svc.";

export const pack = defineCommand({
  name: "pack",
  summary: "build, then write <name>-<version>.svc, the file people install",
  details: [
    "The .svc file is a zip of package.json, dist/ (without source maps), and the README and",
    "licence when present. Ids beginning dev.svc. are refused. The same files give the same bytes.",
    `It is signed when the project has ${PUBLIC_KEY_FILE} (svckit keygen) or --key is given: svc-manifest.json`,
    "lists the SHA-256 of every file, svc-manifest.json.minisig is its minisign signature.",
  ],
  positionals: [{ name: "dir", description: "the extension folder (default: the current folder)" }],
  options: {
    key: {
      type: "string",
      valueName: "path",
      description: `sign with this key file (svckit keygen --file; passphrase from ${PASSPHRASE_ENV})`,
    },
  },
  examples: ["svckit pack", `${PASSPHRASE_ENV}=… svckit pack --key ~/keys/svc-author.key`],
  async run({ positionals, options }, ctx) {
    const dir = projectDir(ctx.cwd, positionals[0]);
    await packExtension(dir, dir, ctx.out, async () =>
      // The key is found before anything is written: a missing secret leaves no unsigned package behind.
      signingKey(dir, options.key === undefined ? undefined : resolve(ctx.cwd, options.key), ctx.env),
    );
  },
});

/**
 * Builds the extension in `dir` and writes its `.svc` into `outDir`, signed with the key `key()`
 * gives (asked after the build, before anything is written). Used by `svckit pack` and the
 * catalog build (`packCatalog`).
 *
 * @example
 * const { file } = await packExtension("/ext", "/out", out, async () => secret); // "/out/weather-1.0.0.svc"
 */
export async function packExtension(
  dir: string,
  outDir: string,
  out: Output,
  key: () => Promise<SecretKey | undefined>,
): Promise<{ file: string; built: BuiltExtension }> {
  const built = await buildExtension(dir, out);
  if (built.id.startsWith(DEV_ID_PREFIX)) {
    throw new CliError(
      `svc.id "${built.id}" begins with "${DEV_ID_PREFIX}", which the app keeps for extensions in development, so it cannot be installed.\n` +
        `Give the extension its own reverse-DNS id in package.json, e.g. "com.yourname.${built.id.slice(DEV_ID_PREFIX.length)}".`,
    );
  }
  const file = `${archiveName(built.name)}-${built.version}.svc`;
  const secret = await key();
  const files = await packFiles(dir);
  const contents = await readPackFiles(dir, files);
  if (secret)
    for (const [name, data] of signPackage(built.id, built.version, contents, secret)) contents.set(name, data);
  await writeArchive(contents, join(outDir, file));
  out.info(`packed ${file}: ${files.join(", ")}`);
  if (secret) out.info(`signed with key ${describeKey(secret)}`);
  else
    out.warn(
      `not signed: there is no ${PUBLIC_KEY_FILE} here, so people are told anyone could have made it, and cannot tell your updates from a stranger's. ` +
        `Run svckit keygen once, then pack again.`,
    );
  return { file: join(outDir, file), built };
}

/** A package name as a file name: `@scope/name` becomes `scope-name`. */
export function archiveName(name: string): string {
  return name.replace(/^@/, "").replace(/\//g, "-");
}
