/**
 * minisign's file formats, read and written with `node:crypto` alone, so a package signed by svc
 * checks with the stock `minisign -V` and a signature made by `minisign -S` checks in svc.
 *
 * Public key: a comment line, then base64 of "Ed" ‖ key id (8 bytes) ‖ Ed25519 key (32 bytes).
 * Signature: a comment line, base64 of algorithm ‖ key id ‖ signature (64 bytes), a
 * `trusted comment: ` line, and base64 of the global signature over signature ‖ trusted comment.
 * Algorithm "ED" signs the BLAKE2b-512 of the message (minisign's default since 0.11), "Ed" the
 * message itself (legacy); both verify, svc writes "ED".
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

export class SignatureError extends Error {
  override name = "SignatureError";
}

export interface PublicKey {
  /** 8 bytes, as stored (minisign prints them reversed, as a little-endian number, in hex). */
  keyId: Buffer;
  /** The raw 32-byte Ed25519 key. */
  key: Buffer;
}

export interface SecretKey extends PublicKey {
  /** The 32-byte Ed25519 seed. */
  seed: Buffer;
}

const UNTRUSTED = "untrusted comment: ";
const TRUSTED = "trusted comment: ";
/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw key follows it. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

/** The key id as svc names it (messages, the keyring entry): 16 upper-case hex digits. */
export function keyIdText(keyId: Buffer): string {
  return Buffer.from(keyId).reverse().toString("hex").toUpperCase();
}

/**
 * The key id as minisign writes it in a public key's comment (`%llX`): the same digits without
 * leading zeros, so a key whose id starts with 0 gives the file minisign itself would.
 */
function minisignKeyIdText(keyId: Buffer): string {
  return keyIdText(keyId).replace(/^0+(?=.)/, "");
}

function base64Exact(text: string, bytes: number, what: string): Buffer {
  const trimmed = text.trim();
  const data = Buffer.from(trimmed, "base64");
  if (data.length !== bytes || data.toString("base64") !== trimmed)
    throw new SignatureError(`${what} is not ${bytes} bytes of base64`);
  return data;
}

function lines(text: string, count: number, what: string): string[] {
  const found = text.replace(/\r\n/g, "\n").split("\n");
  if (found.at(-1) === "") found.pop();
  if (found.length !== count) throw new SignatureError(`${what} has ${found.length} lines; minisign's has ${count}`);
  return found;
}

/** Reads a `minisign.pub`-style file (comment line, key line) or the key line alone. */
export function parsePublicKey(text: string): PublicKey {
  const all = text.replace(/\r\n/g, "\n").trim().split("\n");
  const keyLine = all.length === 2 && all[0].startsWith(UNTRUSTED) ? all[1] : all.length === 1 ? all[0] : undefined;
  if (keyLine === undefined)
    throw new SignatureError("the public key is not in minisign's format (a comment line, then the key)");
  const data = base64Exact(keyLine, 42, "the public key");
  if (data.subarray(0, 2).toString("latin1") !== "Ed")
    throw new SignatureError("the public key is not an Ed25519 minisign key");
  return { keyId: data.subarray(2, 10), key: data.subarray(10) };
}

/** The public key file's text, as `minisign -G` writes it. */
export function formatPublicKey(key: PublicKey): string {
  const data = Buffer.concat([Buffer.from("Ed", "latin1"), key.keyId, key.key]);
  return `${UNTRUSTED}minisign public key ${minisignKeyIdText(key.keyId)}\n${data.toString("base64")}\n`;
}

function publicKeyObject(key: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, key]), format: "der", type: "spki" });
}

function privateKeyObject(secret: SecretKey): KeyObject {
  return createPrivateKey({
    key: { kty: "OKP", crv: "Ed25519", d: secret.seed.toString("base64url"), x: secret.key.toString("base64url") },
    format: "jwk",
  });
}

/** The raw Ed25519 public key of a seed. */
export function publicKeyOfSeed(seed: Buffer): Buffer {
  const jwk = createPublicKey(
    createPrivateKey({
      key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
      format: "der",
      type: "pkcs8",
    }),
  ).export({ format: "jwk" });
  return Buffer.from(jwk.x!, "base64url");
}

function prehash(message: Buffer): Buffer {
  return createHash("blake2b512").update(message).digest();
}

/**
 * A signature file's text over `message` (algorithm "ED", as `minisign -S` writes by default).
 * Comments are one line each: a line break in one would let it forge the next line.
 */
export function signMessage(
  message: Buffer,
  secret: SecretKey,
  trustedComment: string,
  untrustedComment: string,
): string {
  for (const comment of [trustedComment, untrustedComment])
    if (/[\r\n]/.test(comment)) throw new SignatureError("a signature comment must be one line");
  const key = privateKeyObject(secret);
  const signature = sign(null, prehash(message), key);
  const global = sign(null, Buffer.concat([signature, Buffer.from(trustedComment, "utf8")]), key);
  const head = Buffer.concat([Buffer.from("ED", "latin1"), secret.keyId, signature]);
  return `${UNTRUSTED}${untrustedComment}\n${head.toString("base64")}\n${TRUSTED}${trustedComment}\n${global.toString("base64")}\n`;
}

/**
 * Checks a signature file's text over `message` with `key`; returns its trusted comment.
 * Throws `SignatureError` saying what does not match.
 */
export function verifyMessage(message: Buffer, signatureText: string, key: PublicKey): { trustedComment: string } {
  const [untrusted, head, trusted, global] = lines(signatureText, 4, "the signature");
  if (!untrusted.startsWith(UNTRUSTED) || !trusted.startsWith(TRUSTED))
    throw new SignatureError("the signature is not in minisign's format (comment lines missing)");
  const data = base64Exact(head, 74, "the signature");
  const algorithm = data.subarray(0, 2).toString("latin1");
  if (algorithm !== "ED" && algorithm !== "Ed")
    throw new SignatureError(`the signature's algorithm "${algorithm}" is not Ed25519`);
  const keyId = data.subarray(2, 10);
  if (!keyId.equals(key.keyId))
    throw new SignatureError(`the signature was made with key ${keyIdText(keyId)}, not ${keyIdText(key.keyId)}`);
  const signature = data.subarray(10);
  const publicKey = publicKeyObject(key.key);
  if (!verify(null, algorithm === "ED" ? prehash(message) : message, publicKey, signature))
    throw new SignatureError("the signature does not match the signed file");
  const trustedComment = trusted.slice(TRUSTED.length);
  const globalSignature = base64Exact(global, 64, "the trusted comment's signature");
  if (!verify(null, Buffer.concat([signature, Buffer.from(trustedComment, "utf8")]), publicKey, globalSignature))
    throw new SignatureError("the trusted comment was changed after signing");
  return { trustedComment };
}
