/**
 * The key that authenticates the permission ledger. It lives in the operating system's secret
 * store (service `svc`, no extension's service, which is `svc.<id>`; account `ledger-key.<16 hex
 * of the support folder's SHA-256>`: each support folder its own key, made with its ledger), so
 * something that can only write files cannot make an approval verify. Where this process has no
 * secret store, the nearest equivalent: `<support>/ledger.key`, mode 0600, which anything
 * running as the person can read; the host says so at every start.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { SecretStoreUnavailableError, type SecretStore } from "../secrets/index.js";
import { writeFileAtomic } from "../support/index.js";

export const LEDGER_KEY_SERVICE = "svc";

/**
 * The account of a support folder's ledger key.
 *
 * @example
 * ledgerKeyAccount("/home/ann/.local/share/Svc") // "ledger-key.3f9a…" (16 hex digits)
 */
export function ledgerKeyAccount(supportRoot: string): string {
  return `ledger-key.${createHash("sha256").update(resolve(supportRoot)).digest("hex").slice(0, 16)}`;
}

/** Where the key is kept. */
export type LedgerKeyPlace = "secret-store" | "key-file";

export interface LedgerKey {
  key: Buffer;
  place: LedgerKeyPlace;
  /** True when this call made the key (the ledger is new: what is installed is recorded once). */
  created: boolean;
  /** Why the secret store was not used, when it was not. */
  storeProblem?: string;
}

function newKey(): string {
  return randomBytes(32).toString("base64");
}

async function fromKeyFile(file: string, storeProblem: string): Promise<LedgerKey> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (text !== undefined && text.trim().length >= 32)
    return { key: Buffer.from(text.trim(), "base64"), place: "key-file", created: false, storeProblem };
  const made = newKey();
  await writeFileAtomic(file, `${made}\n`, { mode: 0o600 });
  return { key: Buffer.from(made, "base64"), place: "key-file", created: true, storeProblem };
}

/** The secret store does not answer and the key must come from it; the message says what it said. */
export class LedgerKeyUnreachable extends Error {
  override readonly name = "LedgerKeyUnreachable";
}

/**
 * The ledger's key: from the secret store when it answers (made there the first time), else
 * from the key file, unless `storeOnly` (the ledger was made with the store's key: a key file
 * made now would only let a file writer in).
 *
 * @example
 * const { key, place } = await ledgerKey(new KeyringSecretStore(), { account: ledgerKeyAccount(root), keyFile: "/…/Svc/ledger.key" });
 */
export async function ledgerKey(
  store: SecretStore | undefined,
  where: { account: string; keyFile: string },
  storeOnly = false,
): Promise<LedgerKey> {
  const { account, keyFile } = where;
  if (!store) {
    if (storeOnly) throw new LedgerKeyUnreachable("no secret store was given");
    return fromKeyFile(keyFile, "no secret store was given");
  }
  try {
    const stored = await store.get(LEDGER_KEY_SERVICE, account);
    if (stored) return { key: Buffer.from(stored, "base64"), place: "secret-store", created: false };
    const made = newKey();
    await store.set(LEDGER_KEY_SERVICE, account, made);
    return { key: Buffer.from(made, "base64"), place: "secret-store", created: true };
  } catch (error) {
    const detail = error instanceof SecretStoreUnavailableError ? error.message : (error as Error).message;
    if (storeOnly) throw new LedgerKeyUnreachable(detail);
    return fromKeyFile(keyFile, detail);
  }
}
