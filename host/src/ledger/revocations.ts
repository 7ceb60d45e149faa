/**
 * Revocations: an author's signed statement that versions up to one are bad (`svckit revoke`).
 * Kept in `<support>/revocations.json` as the author signed them, and checked again at every
 * load against the key pinned in the ledger, so the file needs no key of its own: a statement
 * that does not verify against the pinned key counts for nothing. A revoked version is not
 * loaded, with the author's reason; its data, secrets and approval are kept. Nothing expires.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parsePublicKey, revocationSchema, verifyStatement, type Revocation } from "@svc/api/signing";
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
function verified(stored: StoredStatement, id: string, signer: string): Revocation | undefined {
  try {
    const statement = verifyStatement(
      Buffer.from(stored.json, "utf8"),
      stored.minisig,
      parsePublicKey(signer),
      revocationSchema,
    );
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

/** The revocation that covers `version` of `id`, signed by `signer`; undefined when none does. */
export async function revocationOf(
  supportDir: string,
  id: string,
  version: string,
  signer: string | undefined,
): Promise<Revocation | undefined> {
  if (!signer) return undefined;
  const all = await readAll(supportDir);
  for (const stored of Object.hasOwn(all, id) ? all[id] : []) {
    const statement = verified(stored, id, signer);
    if (statement && !isOlder(statement.upTo, version)) return statement;
  }
  return undefined;
}

/** What the person reads about a revoked version (the reason is the author's, shown as theirs). */
export function revokedProblem(revocation: Revocation, version: string): string {
  return `not loaded: its author revoked it (versions up to ${revocation.upTo}; this is ${version}), saying: "${revocation.reason}". Its data is kept; install a later version from the author`;
}
