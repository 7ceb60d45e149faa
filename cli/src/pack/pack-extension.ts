/**
 * One extension folder to one `.svc`: build, refuse a development id, sign when there is a key,
 * write the same bytes for the same files. `svckit pack` and the catalog build both use it.
 */
import { join } from "node:path";
import { signPackage, type SecretKey } from "@svc/api/signing";
import type { Output } from "../command.js";
import { buildExtension, type BuiltExtension } from "../build/pipeline.js";
import { CliError } from "../errors.js";
import { describeKey } from "../sign/describe-key.js";
import { PUBLIC_KEY_FILE } from "../sign/keys.js";
import { packFiles, readPackFiles, writeArchive } from "./archive.js";

/** Ids the app keeps for extensions in development; an archive must not claim one. */
export const DEV_ID_PREFIX = "dev.svc.";

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
