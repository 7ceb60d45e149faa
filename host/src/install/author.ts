/**
 * Who made a package, as the review shows it, and the rules an update must pass: trust on first
 * use of the author's key, then updates only from that key. A package's files are checked
 * against its signed manifest (`@svc/api/signing`) before the review, so nothing unchecked gets
 * near `Extensions/`.
 */
import { readFile } from "node:fs/promises";
import {
  checkPackage,
  formatPublicKey,
  keyFingerprint,
  keyWords,
  parsePublicKey,
  SignatureError,
  type PackageSignature,
} from "@svc/api/signing";
import { InstallError } from "./limits.js";
import { unpackedPath } from "./unpack.js";

/** The author as the review shows it. */
export type AuthorView =
  | { signed: false }
  | {
      signed: true;
      fingerprint: string;
      words: string;
      /** True when no installed version was signed with this key. */
      newToYou: boolean;
    };

/** The key as the ledger keeps it beside the approval: minisign's public-key line. */
export type PinnedKey = string;

/**
 * Checks the unpacked package's files against its signed manifest.
 *
 * @example
 * const signature = await checkUnpacked("/s/.installing/ab/package", files, "deploys-1.2.0.svc");
 */
export async function checkUnpacked(
  folder: string,
  files: readonly string[],
  where: string,
): Promise<PackageSignature> {
  const contents = new Map<string, Buffer>();
  for (const file of files) contents.set(file, await readFile(unpackedPath(folder, file)));
  try {
    return checkPackage(contents);
  } catch (error) {
    if (error instanceof SignatureError) throw new InstallError(`cannot install ${where}: refused: ${error.message}`);
    throw error;
  }
}

/** The pinned form of a signed package's key; undefined for an unsigned one. */
export function pinOf(signature: PackageSignature): PinnedKey | undefined {
  return signature.kind === "signed" ? formatPublicKey(signature.key).split("\n")[1] : undefined;
}

function shownKey(pinned: PinnedKey): string {
  const key = parsePublicKey(pinned).key;
  return `${keyFingerprint(key)} (${keyWords(key)})`;
}

/**
 * The review's author line, after the update rules: a package from another key than the
 * installed version's, or an unsigned one over a signed one, is refused (InstallError).
 */
export function authorOf(
  signature: PackageSignature,
  installed: { signer?: PinnedKey; id: string } | undefined,
  where: string,
): AuthorView {
  const pin = pinOf(signature);
  if (installed?.signer && pin === undefined)
    throw new InstallError(
      `cannot install ${where}: it is unsigned, and the installed version is signed by its author (key ${shownKey(installed.signer)}); ` +
        `an unsigned package never replaces a signed one. Ask the author for a signed package.`,
    );
  if (installed?.signer && pin !== undefined && pin !== installed.signer)
    throw new InstallError(
      `cannot install ${where}: this is not from the author you installed: it is signed with key ${shownKey(pin)}, ` +
        `the installed version with key ${shownKey(installed.signer)}. To install it anyway, uninstall the installed one first ` +
        `(svc-host uninstall ${installed.id}).`,
    );
  if (signature.kind === "unsigned") return { signed: false };
  return {
    signed: true,
    fingerprint: keyFingerprint(signature.key.key),
    words: keyWords(signature.key.key),
    newToYou: installed?.signer !== pin,
  };
}

/** The author line of the review's text. */
export function authorLine(author: AuthorView): string {
  if (!author.signed) return "! Unsigned: anyone could have made this.";
  return `Signed by key ${author.fingerprint} (${author.words})${author.newToYou ? ": new to you." : ": the same author as the installed version."}`;
}
