/**
 * The author's signing key: made by `svckit keygen`, used by `svckit pack`. The public half is
 * `svc-key.pub` beside the project (minisign's format). The secret half is kept in the OS secret
 * store (service `svckit`, account `signing-key.<key id>`), or in a file for scripts and CI:
 * encrypted with a passphrase from SVC_KEY_PASSPHRASE (scrypt, AES-256-GCM), or, only when asked
 * with `--unencrypted`, in the clear.
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { readFile } from "node:fs/promises";
import { AsyncEntry } from "@napi-rs/keyring";
import { keyIdText, publicKeyOfSeed, type SecretKey } from "@svc/api/signing";
import { z } from "zod";
import { CliError } from "../errors.js";

/** The file beside the project that names its author's key. */
export const PUBLIC_KEY_FILE = "svc-key.pub";
/** The environment variable a key file's passphrase comes from. */
export const PASSPHRASE_ENV = "SVC_KEY_PASSPHRASE";
const KEYRING_SERVICE = "svckit";
/** scrypt's cost: 2^15, about 0.1 s and 32 MB per try. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

/** A new key: 32 random bytes of seed and 8 random bytes of key id, as minisign makes them. */
export function newSecretKey(): SecretKey {
  const seed = randomBytes(32);
  return { seed, keyId: randomBytes(8), key: publicKeyOfSeed(seed) };
}

function keyringEntry(keyId: Buffer): AsyncEntry {
  return new AsyncEntry(KEYRING_SERVICE, `signing-key.${keyIdText(keyId)}`, { linux: { store: "secret-service" } });
}

/** Seed ‖ key id, base64: how the secret store keeps a key. */
export async function storeInKeyring(secret: SecretKey): Promise<void> {
  try {
    await keyringEntry(secret.keyId).setPassword(Buffer.concat([secret.seed, secret.keyId]).toString("base64"));
  } catch (error) {
    throw new CliError(
      `cannot keep the secret key in the OS secret store: ${(error as Error).message}\n` +
        `Keep it in a file instead: svckit keygen --file <path> (passphrase from ${PASSPHRASE_ENV}).`,
    );
  }
}

/** The secret key whose id is `keyId`, from the OS secret store; undefined when it is not there. */
export async function loadFromKeyring(keyId: Buffer): Promise<SecretKey | undefined> {
  let stored: string | undefined | null;
  try {
    stored = await keyringEntry(keyId).getPassword();
  } catch (error) {
    throw new CliError(
      `cannot read the OS secret store for key ${keyIdText(keyId)}: ${(error as Error).message}\n` +
        `Sign with a key file instead: svckit pack --key <path>.`,
    );
  }
  if (!stored) return undefined;
  const data = Buffer.from(stored, "base64");
  const seed = data.subarray(0, 32);
  return { seed, keyId: data.subarray(32, 40), key: publicKeyOfSeed(seed) };
}

const keyFileSchema = z.strictObject({
  format: z.literal("svckit secret key 1"),
  keyId: z.string().regex(/^[0-9A-F]{16}$/),
  /** The 32-byte seed, base64: in the clear, or AES-256-GCM ciphertext. */
  secret: z.string(),
  encryption: z.union([
    z.null(),
    z.strictObject({
      kdf: z.literal("scrypt"),
      N: z.number(),
      r: z.number(),
      p: z.number(),
      salt: z.string(),
      iv: z.string(),
      tag: z.string(),
    }),
  ]),
});

function keyFrom(passphrase: string, salt: Buffer, N: number, r: number, p: number): Buffer {
  return scryptSync(passphrase.normalize("NFC"), salt, 32, { N, r, p, maxmem: SCRYPT.maxmem });
}

/** A key file's text: encrypted when `passphrase` is given. */
export function keyFileText(secret: SecretKey, passphrase: string | undefined): string {
  const keyId = keyIdText(secret.keyId);
  if (passphrase === undefined)
    return `${JSON.stringify({ format: "svckit secret key 1", keyId, secret: secret.seed.toString("base64"), encryption: null }, null, 2)}\n`;
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFrom(passphrase, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p), iv);
  cipher.setAAD(Buffer.from(keyId));
  const sealed = Buffer.concat([cipher.update(secret.seed), cipher.final()]);
  const encryption = {
    kdf: "scrypt",
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    salt: salt.toString("base64"),
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
  };
  return `${JSON.stringify({ format: "svckit secret key 1", keyId, secret: sealed.toString("base64"), encryption }, null, 2)}\n`;
}

/**
 * Reads a key file; an encrypted one needs its passphrase.
 *
 * @example
 * const secret = await readKeyFile("/ci/author.key", process.env.SVC_KEY_PASSPHRASE);
 */
export async function readKeyFile(path: string, passphrase: string | undefined): Promise<SecretKey> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new CliError(
      `cannot read the key file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: z.infer<typeof keyFileSchema>;
  try {
    parsed = keyFileSchema.parse(JSON.parse(text));
  } catch {
    throw new CliError(`${path} is not a svckit secret key file (svckit keygen --file writes one)`);
  }
  const keyId = Buffer.from(parsed.keyId, "hex").reverse();
  let seed = Buffer.from(parsed.secret, "base64");
  const enc = parsed.encryption;
  if (enc) {
    if (!passphrase) throw new CliError(`${path} is encrypted: set ${PASSPHRASE_ENV} to its passphrase`);
    try {
      const decipher = createDecipheriv(
        "aes-256-gcm",
        keyFrom(passphrase, Buffer.from(enc.salt, "base64"), enc.N, enc.r, enc.p),
        Buffer.from(enc.iv, "base64"),
      );
      decipher.setAAD(Buffer.from(parsed.keyId));
      decipher.setAuthTag(Buffer.from(enc.tag, "base64"));
      seed = Buffer.concat([decipher.update(seed), decipher.final()]);
    } catch {
      throw new CliError(
        `cannot open ${path}: the passphrase in ${PASSPHRASE_ENV} is not this key's (or the file was changed)`,
      );
    }
  }
  if (seed.length !== 32) throw new CliError(`${path} is damaged: its secret is not 32 bytes`);
  return { seed, keyId, key: publicKeyOfSeed(seed) };
}
