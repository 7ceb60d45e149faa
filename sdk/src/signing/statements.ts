/**
 * Statements an author signs about their own extension, with no expiry: a **rotation** ("my key
 * for <id> is now K2", signed by the key people pinned), a **revocation** ("versions up to
 * 1.2.0 are bad", signed by the author's key) and a **lost key** ("key K is lost after 1.2.0, use
 * K2", signed by K itself: a rotation that also disowns what K signs after that version). Each is canonical JSON (RFC 8785) with a minisign
 * signature beside it whose trusted comment is `<kind> <id>`, so `minisign -V` checks them too.
 * A package carries them as files (`svc-rotation.json`, `svc-revocation.json` and their
 * `.minisig`); `svc-host revoke <file>` imports a revocation on its own.
 */
import { z } from "zod";
import { canonicalBytes } from "./canonical.js";
import {
  parsePublicKey,
  signMessage,
  SignatureError,
  verifyMessage,
  type PublicKey,
  type SecretKey,
} from "./minisign.js";

/** The statement files a package may carry (each with `.minisig` beside it). */
export const STATEMENT_FILES = {
  rotation: "svc-rotation.json",
  revocation: "svc-revocation.json",
  lost: "svc-key-lost.json",
} as const;

/** minisign's public-key line (base64 of "Ed", key id, key): how statements name keys. */
const keyLine = z.string().regex(/^[A-Za-z0-9+/]{56}$/, "a minisign public-key line");

export const rotationSchema = z.strictObject({
  v: z.literal(1),
  kind: z.literal("rotate"),
  id: z.string().min(1),
  /** The key people pinned, which signs this statement. */
  from: keyLine,
  /** The key that signs from now on. */
  to: keyLine,
});
export type Rotation = z.infer<typeof rotationSchema>;

export const revocationSchema = z.strictObject({
  v: z.literal(1),
  kind: z.literal("revoke"),
  id: z.string().min(1),
  /** Every version at or below this one is bad (semver order). */
  upTo: z.string().min(1).max(64),
  /** Why, in the author's words: shown to the person (as the author's, escaped). */
  reason: z.string().min(1).max(300),
});
export type Revocation = z.infer<typeof revocationSchema>;

/**
 * "Key `from` is lost (someone else may hold it): every version it signed after `after` is not
 * mine; my key is `to` from now on." Signed by `from`, the key people pinned: only its holder can
 * say it, and a thief who says it only locks themselves out. Once svc holds it, `from` hands
 * nothing over any more (a rotation it signed is refused) and no version it signed after `after`
 * loads or installs; `to` is taken as the author's.
 */
export const lostKeySchema = z.strictObject({
  v: z.literal(1),
  kind: z.literal("lost"),
  id: z.string().min(1),
  /** The lost key, which signs this statement. */
  from: keyLine,
  /** The author's key from now on. */
  to: keyLine,
  /** The last version `from` signed that is the author's (semver order); later ones are disowned. */
  after: z.string().min(1).max(64),
  /** Why, in the author's words: shown to the person (as the author's, escaped). */
  reason: z.string().min(1).max(300),
});
export type LostKey = z.infer<typeof lostKeySchema>;

export type Statement = Rotation | Revocation | LostKey;

/** A statement's file bytes and its signature's text, signed with `secret`. */
export function signStatement(statement: Statement, secret: SecretKey): { json: Buffer; minisig: string } {
  const json = canonicalBytes(statement);
  const minisig = signMessage(json, secret, `${statement.kind} ${statement.id}`, `svc ${statement.kind} statement`);
  return { json, minisig };
}

/**
 * Checks a statement's bytes and signature against `key` and its schema; throws SignatureError
 * saying what is wrong.
 *
 * @example
 * const revocation = verifyStatement(json, minisig, pinnedKey, revocationSchema);
 */
export function verifyStatement<T extends Statement>(
  json: Buffer,
  minisig: string,
  key: PublicKey,
  schema: z.ZodType<T>,
): T {
  const { trustedComment } = verifyMessage(json, minisig, key);
  let statement: T;
  try {
    statement = schema.parse(JSON.parse(json.toString("utf8")));
  } catch (error) {
    throw new SignatureError(`the statement is not one svc reads: ${(error as Error).message}`);
  }
  if (trustedComment !== `${statement.kind} ${statement.id}`)
    throw new SignatureError(`the statement's trusted comment ${JSON.stringify(trustedComment)} does not name it`);
  return statement;
}

/** The key a statement names, as a PublicKey. */
export function statementKey(line: string): PublicKey {
  return parsePublicKey(line);
}
