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
  rotationSchema,
  SignatureError,
  STATEMENT_FILES,
  verifyStatement,
  type LostKey,
  type PackageSignature,
} from "@svc/api/signing";
import { shownKey } from "../ledger/index.js";
import { InstallError, type AuthorView } from "../review/index.js";
import { unpackedPath } from "./unpack.js";

/** A signed statement's two files as a package carries them. */
export interface StatementFiles {
  json: Buffer;
  minisig: string;
}

/** The statement `name` (and its `.minisig`) in the unpacked package, when it carries both. */
export async function readStatement(
  folder: string,
  files: readonly string[],
  name: string,
): Promise<StatementFiles | undefined> {
  if (!files.includes(name) || !files.includes(`${name}.minisig`)) return undefined;
  return {
    json: await readFile(unpackedPath(folder, name)),
    minisig: await readFile(unpackedPath(folder, `${name}.minisig`), "utf8"),
  };
}

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

/**
 * The review's author line, after the update rules: a package from another key than the
 * installed version's, or an unsigned one over a signed one, is refused (InstallError). Another
 * key passes with a rotation statement from the pinned key, or when the author said the pinned
 * key is lost (`lost`, verified against it) and named this one; a lost key hands over nothing else.
 */
export function authorOf(
  signature: PackageSignature,
  installed: { signer?: PinnedKey; id: string } | undefined,
  where: string,
  rotation?: StatementFiles,
  lost?: LostKey,
): AuthorView {
  const pin = pinOf(signature);
  const changedKey = installed?.signer !== undefined && pin !== undefined && pin !== installed.signer;
  const successor = changedKey && lost !== undefined && lost.to === pin;
  if (changedKey && lost && !successor)
    throw new InstallError(
      `cannot install ${where}: this is not from the author you installed: it is signed with key ${shownKey(pin)}, ` +
        `and the installed version's key ${shownKey(installed.signer!)} is lost, its author said, naming key ${shownKey(lost.to)} ` +
        `as theirs from now on. To install it anyway, uninstall the installed one first (svc-host uninstall ${installed.id}).`,
    );
  const rotatedFrom = successor
    ? shownKey(installed.signer!)
    : changedKey && rotation
      ? handedOver(rotation, installed.id, installed.signer!, pin, where)
      : undefined;
  if (installed?.signer && pin === undefined)
    throw new InstallError(
      `cannot install ${where}: it is unsigned, and the installed version is signed by its author (key ${shownKey(installed.signer)}); ` +
        `an unsigned package never replaces a signed one. Ask the author for a signed package.`,
    );
  if (installed?.signer && pin !== undefined && pin !== installed.signer && !rotatedFrom)
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
    ...(rotatedFrom ? { rotatedFrom } : {}),
    ...(successor ? { lostKey: true } : {}),
  };
}

/**
 * The installed key, shown, when the package's rotation statement hands `id` from it to `pin`,
 * signed by it; a statement that does not is refused, saying why.
 */
function handedOver(rotation: StatementFiles, id: string, pinned: PinnedKey, pin: PinnedKey, where: string): string {
  const refuse = (why: string) =>
    new InstallError(
      `cannot install ${where}: this is not from the author you installed: it is signed with key ${shownKey(pin)}, ` +
        `and its key-change statement (${STATEMENT_FILES.rotation}) ${why}. To install it anyway, uninstall the installed one first ` +
        `(svc-host uninstall ${id}).`,
    );
  let statement;
  try {
    statement = verifyStatement(rotation.json, rotation.minisig, parsePublicKey(pinned), rotationSchema);
  } catch (error) {
    if (error instanceof SignatureError)
      throw refuse(`is not signed by the installed version's key ${shownKey(pinned)}: ${error.message}`);
    throw error;
  }
  if (statement.id !== id) throw refuse(`is for ${JSON.stringify(statement.id)}, not ${id}`);
  if (statement.from !== pinned || statement.to !== pin)
    throw refuse(
      `hands over from key ${shownKey(statement.from)} to key ${shownKey(statement.to)}, not to this package's key`,
    );
  return shownKey(pinned);
}
