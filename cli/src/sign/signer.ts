/**
 * Which key `svckit pack` signs with: `--key <file>` when given, else the key `svc-key.pub`
 * names, from the OS secret store; none when the project has no `svc-key.pub` (the package is
 * unsigned, and pack says so).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { keyIdText, parsePublicKey, SignatureError, type SecretKey } from "@svc/api/signing";
import { CliError } from "../errors.js";
import { loadFromKeyring, PASSPHRASE_ENV, PUBLIC_KEY_FILE, readKeyFile } from "./keys.js";

async function projectPublicKey(dir: string) {
  const path = join(dir, PUBLIC_KEY_FILE);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return parsePublicKey(text);
  } catch (error) {
    if (error instanceof SignatureError) throw new CliError(`${path}: ${error.message}`);
    throw error;
  }
}

/**
 * @example
 * const secret = await signingKey("/ext", undefined, process.env); // from the OS secret store, or undefined
 */
export async function signingKey(
  dir: string,
  keyFile: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SecretKey | undefined> {
  const pinned = await projectPublicKey(dir);
  if (keyFile !== undefined) {
    const secret = await readKeyFile(keyFile, env[PASSPHRASE_ENV]);
    if (pinned && !pinned.key.equals(secret.key))
      throw new CliError(
        `the key in ${keyFile} (${keyIdText(secret.keyId)}) is not the one ${PUBLIC_KEY_FILE} names (${keyIdText(pinned.keyId)}): ` +
          `people who installed a package signed with ${keyIdText(pinned.keyId)} would refuse this one. Use that key's file.`,
      );
    return secret;
  }
  if (!pinned) return undefined;
  const secret = await loadFromKeyring(pinned.keyId);
  if (!secret || !secret.key.equals(pinned.key))
    throw new CliError(
      `${PUBLIC_KEY_FILE} names key ${keyIdText(pinned.keyId)}, but its secret key is not in this computer's OS secret store.\n` +
        `Sign with its key file: svckit pack --key <path> (passphrase from ${PASSPHRASE_ENV}).`,
    );
  return secret;
}
