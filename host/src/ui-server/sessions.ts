/**
 * Who may use the UI API. An authenticated `/v1` call mints a **ticket** (single-use, valid one
 * minute) that travels in the URL fragment; the page trades it once for a **session token** (one
 * per tab) that it sends as `Authorization: Bearer` on every call. No cookies: on 127.0.0.1 they
 * are shared across ports, so any other local server could ride them (UI.md "Auth without cookies").
 */
import { createHash, randomBytes } from "node:crypto";

/** How long a ticket can be exchanged. */
export const TICKET_TTL_MS = 60_000;
/** Sessions kept at most (one per tab; the oldest is forgotten past this). */
export const MAX_SESSIONS = 64;

/** Tokens are kept only as hashes, so a lookup compares digests, never the secret itself. */
function digest(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("base64url");
}

function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export class Sessions {
  private readonly tickets = new Map<string, number>();
  private readonly sessions = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A fresh single-use ticket. */
  mintTicket(): string {
    const at = this.now();
    for (const [hash, expires] of this.tickets) if (expires <= at) this.tickets.delete(hash);
    const ticket = newSecret();
    this.tickets.set(digest(ticket), at + TICKET_TTL_MS);
    return ticket;
  }

  /**
   * The session token for a ticket, or a reason a person can act on. A ticket works once, and
   * only within its minute.
   */
  exchange(ticket: unknown): { token: string } | { error: string } {
    const again = "ask for a new one: run svc-host ui";
    if (typeof ticket !== "string" || ticket.length === 0 || ticket.length > 100)
      return { error: `no ticket: ${again}` };
    const hash = digest(ticket);
    const expires = this.tickets.get(hash);
    this.tickets.delete(hash);
    if (expires === undefined) return { error: `this ticket is unknown or used already: ${again}` };
    if (expires <= this.now()) return { error: `this ticket expired (they last a minute): ${again}` };
    const token = newSecret();
    this.sessions.add(digest(token));
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.values().next().value!);
    return { token };
  }

  /** True for a token `exchange` handed out. */
  isSession(token: string): boolean {
    return this.sessions.has(digest(token));
  }
}
