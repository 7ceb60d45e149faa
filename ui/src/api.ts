/**
 * Talking to the UI server: the ticket from the URL fragment traded for a per-tab session token
 * (kept in sessionStorage, so a reload keeps working), then every call with
 * `Authorization: Bearer`. Commands are POSTs that answer when done.
 */
import { EARLY_TRADE, startTicketTrade } from "./ticket.js";

const SESSION_KEY = "svc.session";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The whole answer, for the few that carry more than `error` (a server to allow). */
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class Api {
  private constructor(private readonly token: string) {}

  /**
   * The session: from a `#t=<ticket>` fragment (dropped from the address bar at once), or the
   * one this tab already has. Throws with a message for a person when there is neither.
   */
  static async connect(location: Location, history: History, storage: Storage): Promise<Api> {
    // boot.ts started the trade already (when it ran); otherwise start it now.
    const early = (window as unknown as Record<string, Promise<Response> | undefined>)[EARLY_TRADE];
    delete (window as unknown as Record<string, unknown>)[EARLY_TRADE];
    const trade = early ?? startTicketTrade(location, history);
    if (trade) {
      const answer = await trade;
      const body = (await answer.json().catch(() => ({}))) as { token?: string; error?: string };
      if (!answer.ok || !body.token) throw new ApiError(answer.status, body.error ?? `HTTP ${answer.status}`);
      storage.setItem(SESSION_KEY, body.token);
      return new Api(body.token);
    }
    const kept = storage.getItem(SESSION_KEY);
    if (kept) return new Api(kept);
    throw new ApiError(401, "This page needs a fresh address: run svc-host ui (or svc-host ui --url) and open that.");
  }

  headers(): Record<string, string> {
    return { Authorization: `Bearer ${this.token}` };
  }

  /** GETs `/api/<path>`; resolves with the answer or throws its `error`. */
  async get<T = Record<string, unknown>>(path: string): Promise<T> {
    const answer = await fetch(`/api/${path}`, { headers: this.headers() });
    const parsed = (await answer.json().catch(() => ({}))) as T & { error?: string };
    if (!answer.ok) throw new ApiError(answer.status, parsed.error ?? `HTTP ${answer.status}`);
    return parsed;
  }

  /** POSTs `body` to `/api/<path>`; resolves with the answer or throws its `error`. `signal` cancels the wait. */
  async post<T = Record<string, unknown>>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const answer = await fetch(`/api/${path}`, {
      method: "POST",
      headers: { ...this.headers(), "Content-Type": "application/json" },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    const parsed = (await answer.json().catch(() => ({}))) as T & { error?: string };
    if (!answer.ok) throw new ApiError(answer.status, parsed.error ?? `HTTP ${answer.status}`, parsed);
    return parsed;
  }
}
