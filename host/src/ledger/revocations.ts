/**
 * Revocations: an author's signed statement that versions up to one are bad (`svckit revoke`),
 * or that the key which signed them is lost after one version (`svckit rotate --lost-after`).
 * Kept in `<support>/revocations.json` as the author signed them, and checked again at every
 * load against the key pinned in the ledger, so the file needs no key of its own: a statement
 * that does not verify against the pinned key counts for nothing. A revoked version is not
 * loaded, with the author's reason; its data, secrets and approval are kept. Nothing expires.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  keyFingerprint,
  keyWords,
  lostKeySchema,
  parsePublicKey,
  revocationSchema,
  verifyStatement,
  type LostKey,
  type Revocation,
} from "@svc/api/signing";
import { z } from "zod";
import { isOlder } from "../review/index.js";
import { writeFileAtomic } from "../support/index.js";

export const REVOCATIONS_FILE = "revocations.json";

/** A statement as signed: its JSON text and its minisign signature. */
const storedSchema = z.strictObject({ json: z.string(), minisig: z.string() });
const fileSchema = z.record(z.string(), z.array(storedSchema));
export type StoredStatement = z.infer<typeof storedSchema>;

async function readAll(supportDir: string): Promise<z.infer<typeof fileSchema>> {
  const text = await readFile(join(supportDir, REVOCATIONS_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return {};
  try {
    return fileSchema.parse(JSON.parse(text));
  } catch {
    return {}; // unreadable: no statement in it verifies anyway
  }
}

/** The statement, when it verifies against `signer` (minisign's key line) for `id`. */
function verified(stored: StoredStatement, id: string, signer: string): Revocation | LostKey | undefined {
  try {
    const kind = (JSON.parse(stored.json) as { kind?: unknown }).kind;
    const schema = kind === "lost" ? lostKeySchema : revocationSchema;
    const statement = verifyStatement<Revocation | LostKey>(
      Buffer.from(stored.json, "utf8"),
      stored.minisig,
      parsePublicKey(signer),
      schema,
    );
    // A lost-key statement speaks of the key that signed it, and of no other.
    if (statement.kind === "lost" && statement.from !== signer) return undefined;
    return statement.id === id ? statement : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps a statement already verified by the caller (checked again at each use). Idempotent.
 *
 * @example
 * await keepRevocation(supportDir, "com.example.deploys", { json, minisig });
 */
export async function keepRevocation(supportDir: string, id: string, stored: StoredStatement): Promise<void> {
  const all = await readAll(supportDir);
  const list = Object.hasOwn(all, id) ? all[id] : [];
  if (list.some((other) => other.json === stored.json && other.minisig === stored.minisig)) return;
  await writeFileAtomic(
    join(supportDir, REVOCATIONS_FILE),
    `${JSON.stringify({ ...all, [id]: [...list, stored] }, null, 2)}\n`,
    {
      mode: 0o600,
    },
  );
}

/** Every kept statement about `id` that verifies against `signer`. */
async function statementsOf(
  supportDir: string,
  id: string,
  signer: string | undefined,
): Promise<(Revocation | LostKey)[]> {
  if (!signer) return [];
  const all = await readAll(supportDir);
  return (Object.hasOwn(all, id) ? all[id] : []).flatMap((stored) => verified(stored, id, signer) ?? []);
}

/**
 * The statement that disables `version` of `id` signed by `signer`: a revocation up to it or
 * later, or the loss of `signer` after an earlier version; undefined when none does.
 */
export async function revocationOf(
  supportDir: string,
  id: string,
  version: string,
  signer: string | undefined,
): Promise<Revocation | LostKey | undefined> {
  return (await statementsOf(supportDir, id, signer)).find((statement) =>
    statement.kind === "lost" ? isOlder(statement.after, version) : !isOlder(statement.upTo, version),
  );
}

/** The author's statement that `signer` is lost, when svc holds one signed by it. */
export async function lostKeyOf(
  supportDir: string,
  id: string,
  signer: string | undefined,
): Promise<LostKey | undefined> {
  return (await statementsOf(supportDir, id, signer)).find((statement) => statement.kind === "lost");
}

/** A key line as the person compares it: fingerprint and words. */
export function shownKey(line: string): string {
  const key = parsePublicKey(line).key;
  return `${keyFingerprint(key)} (${keyWords(key)})`;
}

/** What the person reads about a revoked version (the reason is the author's, shown as theirs). */
export function revokedProblem(statement: Revocation | LostKey, version: string): string {
  if (statement.kind === "lost")
    return `not loaded: its author says the key that signed it, ${shownKey(statement.from)}, was lost after version ${statement.after} (this is ${version}), saying: "${statement.reason}". Its data is kept; install the author's version signed with their new key ${shownKey(statement.to)}`;
  return `not loaded: its author revoked it (versions up to ${statement.upTo}; this is ${version}), saying: "${statement.reason}". Its data is kept; install a later version from the author`;
}
