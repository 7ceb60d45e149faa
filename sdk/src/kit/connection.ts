/**
 * When the service an extension reads from fails: `probe` turns a call's outcome into either
 * its value or a named problem (offline, signed out, rate limited …), and `connectionBlip`
 * shows that problem in the notch in place of stale figures.
 */
import type { Action, BlipInputOf } from "../schemas/index.js";
import { stat } from "../builders/blips.js";
import { text } from "../builders/values.js";
import { waitForReset, type HeaderSource } from "./backoff.js";
import { timeLeft } from "./wording.js";
import { SIGN_IN_ACTION_ID, SIGN_IN_LABEL } from "../processing/payload.js";

/** What went wrong, in the terms a person acts on. */
export type ProblemKind =
  | "offline" // no answer: no network, DNS, timeout
  | "signed-out" // 401: the token is missing, expired or revoked
  | "forbidden" // 403: signed in without access
  | "rate-limited" // 429, or 403 with no calls left
  | "not-found" // 404
  | "unavailable" // 5xx: the service is down or overloaded
  | "denied" // the sandbox refused it: the host is not in the manifest's permissions.network
  | "failed"; // anything else

export interface Problem {
  kind: ProblemKind;
  /** One short line for a person: "Signed out", "Service unavailable (503)", the error's message … */
  message: string;
  /** The HTTP status, when there was an answer. */
  status?: number;
  /** Seconds until calls are allowed again, when the service said. */
  retryAfter?: number;
  /** The host the sandbox refused, for a `denied` problem. */
  host?: string;
}

export type Probed<T> = { ok: true; value: T } | { ok: false; problem: Problem };

interface ResponseLike {
  status: number;
  ok: boolean;
  headers?: { get(name: string): string | null };
}

const isResponse = (value: unknown): value is ResponseLike =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as ResponseLike).status === "number" &&
  typeof (value as ResponseLike).ok === "boolean";

/**
 * The problem an HTTP status (and its headers) stands for.
 *
 * @example
 * problemOf(401) // { kind: "signed-out", message: "Signed out", status: 401 }
 */
export function problemOf(status: number, headers?: HeaderSource, now: number = Date.now()): Problem {
  const retryAfter = headers ? waitForReset(headers, now) : undefined;
  const withWait = (problem: Problem): Problem => (retryAfter === undefined ? problem : { ...problem, retryAfter });
  if (status === 429 || (status === 403 && retryAfter !== undefined)) {
    return withWait({ kind: "rate-limited", message: "Rate limited", status });
  }
  if (status === 401) return { kind: "signed-out", message: "Signed out", status };
  if (status === 403) return { kind: "forbidden", message: "No access", status };
  if (status === 404) return { kind: "not-found", message: "Not found", status };
  if (status >= 500) return withWait({ kind: "unavailable", message: `Service unavailable (${status})`, status });
  return { kind: "failed", message: `Request failed (${status})`, status };
}

/** How the sandbox words a refused fetch or WebSocket: `fetch to <host> denied: …`. */
const DENIAL = /^(?:fetch|WebSocket) to (\S+) denied: /;

/** The problem a thrown error stands for: an HTTP client's error with a `status`, or a network failure. */
function problemOfError(error: unknown, now: number): Problem {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === "number") {
    return problemOf(status, (error as { response?: { headers?: HeaderSource } }).response?.headers, now);
  }
  const name = (error as { name?: unknown } | null)?.name;
  const message = error instanceof Error ? error.message : String(error);
  // The sandbox's refusal (sandbox/src/capabilities/denial.ts, formatDenial): no network was
  // touched, so it is not "No connection"; the author must change the manifest.
  const denied = DENIAL.exec(message);
  if (denied) return { kind: "denied", message: "Not allowed by the manifest", host: denied[1]! };
  if (name === "AbortError" || name === "TimeoutError") return { kind: "offline", message: "Timed out" };
  if (name === "TypeError" || /network|fetch failed|ECONN|ENOTFOUND|EAI_AGAIN|timed? ?out|offline/i.test(message)) {
    return { kind: "offline", message: "No connection" };
  }
  return { kind: "failed", message: message || "Something went wrong" };
}

/**
 * Runs a call to a service and says how it went, never throwing: its value, or the problem.
 * A fetch `Response` that is not ok is a problem too (its status and rate-limit headers read).
 *
 * @example
 * const res = await probe(fetch("https://api.github.com/notifications", { headers }));
 * if (!res.ok) return ctx.emit(connectionBlip("inbox", res.problem, { title: "GitHub" }));
 * const items = await res.value.json();
 */
export async function probe<T>(call: Promise<T> | (() => Promise<T>), now?: number): Promise<Probed<T>> {
  try {
    const value = await (typeof call === "function" ? call() : call);
    if (isResponse(value) && !value.ok) {
      return { ok: false, problem: problemOf(value.status, value.headers ?? {}, now ?? Date.now()) };
    }
    return { ok: true, value };
  } catch (error) {
    return { ok: false, problem: problemOfError(error, now ?? Date.now()) };
  }
}

/**
 * The button on a signed-out blip. Handle it in `onAction`:
 * `if (action.actionId === CONNECT_ACTION.id) await ctx.oauth.connect();`
 */
export const CONNECT_ACTION: Action = Object.freeze({ id: SIGN_IN_ACTION_ID, title: "Sign in", role: "primary" });

const NEEDS_A_PERSON: ReadonlySet<ProblemKind> = new Set(["signed-out", "forbidden", "not-found", "failed", "denied"]);

/** The second line of a connection blip: what happens next. */
function outlook(problem: Problem, now: number): string {
  if (problem.retryAfter !== undefined) return `Trying again ${timeLeft(now + problem.retryAfter * 1000, now)}`;
  switch (problem.kind) {
    case "signed-out":
      return SIGN_IN_LABEL;
    case "forbidden":
      return "Check the account's access";
    case "not-found":
      return "Check the settings";
    case "failed":
      return "See the log for details";
    case "denied":
      return problem.host ? `Add ${problem.host} to permissions.network` : "Check permissions.network";
    default:
      return "Trying again on the next run";
  }
}

/**
 * A `stat` blip showing a connection problem in place of the figures: the problem as its
 * value, what happens next as its label, state `warning` while it may pass on its own
 * (offline, rate limited, unavailable) and `failure` when a person must act. A signed-out blip
 * carries {@link CONNECT_ACTION} unless `actions` are given; for an extension whose manifest has
 * no sign-in, svc leaves that button out and the label says "Check the extension's settings".
 *
 * @example
 * connectionBlip("inbox", { kind: "signed-out", message: "Signed out", status: 401 }, { title: "GitHub" })
 * // { key: "inbox", title: "GitHub", icon: "exclamationmark.triangle", state: "failure",
 * //   actions: [CONNECT_ACTION], layout: "stat",
 * //   data: { value: { type: "text", value: "Signed out" }, label: "Sign in to continue" } }
 */
export function connectionBlip(
  key: string,
  problem: Problem,
  options: { title: string; icon?: string; actions?: Action[]; now?: number },
): BlipInputOf<"stat"> {
  const now = options.now ?? Date.now();
  const actions = options.actions ?? (problem.kind === "signed-out" ? [CONNECT_ACTION] : undefined);
  return stat(key, {
    title: options.title,
    icon: options.icon ?? (problem.kind === "offline" ? "wifi.slash" : "exclamationmark.triangle"),
    state: NEEDS_A_PERSON.has(problem.kind) ? "failure" : "warning",
    actions,
    value: text(problem.message),
    label: outlook(problem, now),
  });
}
