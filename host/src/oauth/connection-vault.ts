/**
 * Where an extension's sign-ins are kept: all connections of one provider in one JSON value in
 * the secret store, under the extension's service with account `oauth.<provider>` (SPEC.md
 * "Authentication" 5), at most 16 KB. Only this file sees tokens next to the records; what
 * leaves the OAuth service is a `ConnectionRecord`, never a token.
 */
import type { OAuthConnection } from "@svc/api";
import { OneAtATime, type ExtensionSecrets } from "../secrets/index.js";

/**
 * Where a connection's tokens may be sent: the token and revoke addresses and the client id it
 * was issued under. A token never goes anywhere else.
 */
export interface IssuedBy {
  tokenUrl: string;
  clientId: string;
  revokeUrl?: string;
}

/** A connection as stored: the record plus its tokens. */
export interface StoredConnection {
  id: string;
  account?: string;
  label?: string;
  /** ISO date. */
  connectedAt: string;
  scopes?: string[];
  needsReconnect: boolean;
  /** True once the extension named it (`describe`); never-named ones are replaced by a new sign-in. */
  named: boolean;
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds when the access token expires; absent when the service did not say. */
  expiresAt?: number;
  /** Where its tokens were issued; absent in connections stored before svc recorded it (they are dropped). */
  issuedBy?: IssuedBy;
}

/**
 * The record an extension sees: SPEC.md's `{id, account?, label?, connectedAt, scopes?, needsReconnect}`.
 *
 * @example
 * toRecord(stored) // { id: "c1a2…", connectedAt: "2025-…", scopes: ["repo"], needsReconnect: false }
 */
export function toRecord(stored: StoredConnection): OAuthConnection {
  const record: OAuthConnection = {
    id: stored.id,
    connectedAt: stored.connectedAt,
    needsReconnect: stored.needsReconnect,
  };
  if (stored.account !== undefined) record.account = stored.account;
  if (stored.label !== undefined) record.label = stored.label;
  if (stored.scopes !== undefined) record.scopes = [...stored.scopes];
  return record;
}

function isStoredConnection(value: unknown): value is StoredConnection {
  const c = value as StoredConnection;
  return (
    typeof c === "object" &&
    c !== null &&
    typeof c.id === "string" &&
    typeof c.connectedAt === "string" &&
    typeof c.accessToken === "string" &&
    typeof c.needsReconnect === "boolean"
  );
}

/**
 * @example
 * const vault = new ConnectionVault(secrets);
 * await vault.update("com.example.ci", "github", (list) => [...list, connection]);
 */
export class ConnectionVault {
  readonly #queue = new OneAtATime();

  constructor(private readonly secrets: ExtensionSecrets) {}

  /** The provider's connections, oldest first; `[]` when none (or the value is unreadable). */
  async read(extensionId: string, provider: string): Promise<StoredConnection[]> {
    const raw = await this.secrets.get(extensionId, "oauth", provider);
    if (raw === null) return [];
    try {
      const parsed = JSON.parse(raw) as { connections?: unknown };
      return Array.isArray(parsed.connections) ? parsed.connections.filter(isStoredConnection) : [];
    } catch {
      return [];
    }
  }

  /**
   * Changes the list with `change`, one change at a time per provider, and stores the result
   * (deleting the entry when no connection is left). Resolves with the stored list.
   */
  update(
    extensionId: string,
    provider: string,
    change: (list: StoredConnection[]) => StoredConnection[],
  ): Promise<StoredConnection[]> {
    return this.#queue.run(`${extensionId}\u0000${provider}`, async () => {
      const next = change(await this.read(extensionId, provider));
      if (next.length === 0) await this.secrets.delete(extensionId, "oauth", provider);
      else await this.secrets.set(extensionId, "oauth", provider, JSON.stringify({ v: 1, connections: next }));
      return next;
    });
  }
}
