/**
 * GitHub's REST API as this extension calls it (api.github.com only). Every GET is conditional
 * — `If-None-Match` with the last ETag, or `If-Modified-Since` where GitHub gives only
 * Last-Modified (notifications) — and the last good answer is kept in `ctx.storage`, so a
 * `304 Not Modified` keeps the blip and spends none of the rate limit. A failed call becomes a
 * kit `Problem` (offline, signed out, rate limited …), thrown as a {@link GitHubError}.
 */
import { probe, problemOf, waitForReset, type Ctx, type Problem } from "@svc/api";

export const API = "https://api.github.com";
const CACHE = "http.cache";

interface Cached {
  etag?: string;
  lastModified?: string;
  value: unknown;
}

/** A call that did not give an answer to use. */
export class GitHubError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
}

/** One run's calls: the token, the kept answers, and what GitHub said about its limits. */
export class GitHub {
  /** Seconds until the rate limit resets, when a call used the last one. */
  pause: number | undefined;
  /** GitHub's `X-Poll-Interval` for notifications, in seconds. */
  pollInterval: number | undefined;
  private readonly used: Record<string, Cached> = {};

  private constructor(
    private readonly ctx: Ctx,
    private readonly token: string,
    private readonly kept: Record<string, Cached>,
  ) {}

  /** Drops every kept answer (the token is gone: they belong to whoever it was). */
  static async forget(ctx: Ctx): Promise<void> {
    await ctx.storage.delete(CACHE);
  }

  static async open(ctx: Ctx, token: string): Promise<GitHub> {
    return new GitHub(ctx, token, (await ctx.storage.get<Record<string, Cached>>(CACHE)) ?? {});
  }

  private headers(): Record<string, string> {
    return {
      accept: "application/vnd.github+json",
      authorization: `Bearer ${this.token}`,
      "x-github-api-version": "2022-11-28",
    };
  }

  private async send(url: string, init: { method?: string; headers: Record<string, string> }): Promise<Response> {
    let answer: Response;
    try {
      answer = await fetch(url, init);
    } catch (error) {
      const probed = await probe(Promise.reject(error));
      throw new GitHubError(probed.ok ? { kind: "failed", message: String(error) } : probed.problem);
    }
    const reset = waitForReset(answer.headers);
    if (answer.headers.get("x-ratelimit-remaining") === "0" && reset !== undefined)
      this.pause = Math.max(this.pause ?? 0, reset);
    const poll = Number(answer.headers.get("x-poll-interval"));
    if (poll > 0) this.pollInterval = Math.max(this.pollInterval ?? 0, poll);
    return answer;
  }

  /** GET `path` (or a full api.github.com address), read with `read`; the kept answer on 304. */
  async get<T>(path: string, read: (json: unknown) => T): Promise<T> {
    const url = path.startsWith(API) ? path : `${API}${path}`;
    const kept = this.kept[url];
    const headers = this.headers();
    if (kept?.etag) headers["if-none-match"] = kept.etag;
    else if (kept?.lastModified) headers["if-modified-since"] = kept.lastModified;
    const answer = await this.send(url, { headers });
    if (answer.status === 304 && kept) {
      this.used[url] = kept;
      return kept.value as T;
    }
    if (!answer.ok) throw new GitHubError(problemOf(answer.status, answer.headers));
    const value = read(await answer.json());
    const etag = answer.headers.get("etag") ?? undefined;
    const lastModified = etag ? undefined : (answer.headers.get("last-modified") ?? undefined);
    this.used[url] = { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}), value };
    return value;
  }

  /** PATCH /notifications/threads/{id}: GitHub answers 205 Reset Content. */
  async markRead(threadId: string): Promise<void> {
    const answer = await this.send(`${API}/notifications/threads/${encodeURIComponent(threadId)}`, {
      method: "PATCH",
      headers: this.headers(),
    });
    if (!answer.ok) throw new GitHubError(problemOf(answer.status, answer.headers));
  }

  /** The answer kept for `path`, changed by `edit` (after an action), to be saved. */
  edit<T>(path: string, edit: (value: T) => T): T | undefined {
    const url = `${API}${path}`;
    const kept = this.used[url] ?? this.kept[url];
    if (!kept) return undefined;
    // The ETag no longer matches what is kept: the next call asks afresh.
    this.used[url] = { value: edit(kept.value as T) };
    return this.used[url].value as T;
  }

  /**
   * Keeps the answers: after a whole run only those it used (so the store never grows); after
   * a run cut short or an action, the others too.
   */
  async save(whole: boolean): Promise<void> {
    await this.ctx.storage.set(CACHE, whole ? { ...this.used } : { ...this.kept, ...this.used });
  }
}
