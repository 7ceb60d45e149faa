/**
 * The device flow (RFC 8628), what GitHub allows a public client without a secret: svc asks the
 * service for a code, the person types it at the service's address, and svc asks the token
 * address at the service's interval until they have. `slow_down` lengthens the interval (by the
 * service's new `interval`, at least 5 s more); `expired_token` and `access_denied` end it.
 * Answers are read as JSON or form-encoded (GitHub sends either, and its errors with status 200).
 */
import type { Clock } from "../clock/index.js";
import type { ProviderClient, ResolvedProvider } from "./provider.js";
import { SignInError, tokensFrom, type Tokens } from "./sign-in.js";

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** RFC 8628 §3.2: 5 seconds when the service names no interval; §3.5: 5 more on `slow_down`. */
export const DEFAULT_INTERVAL_MS = 5_000;
export const SLOW_DOWN_STEP_MS = 5_000;

/** What the person is shown: the code and where to type it. */
export interface DeviceCode {
  userCode: string;
  verificationUri: string;
  /** The address with the code filled in, when the service gives one. */
  verificationUriComplete?: string;
  /** Epoch ms after which the code no longer works. */
  expiresAt: number;
  /** Kept by the host only: what the token address is asked with. */
  deviceCode: string;
  intervalMs: number;
}

/** One POST of form fields; the answer's fields whether it came as JSON or form-encoded. */
async function postForm(
  url: URL,
  fields: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  let body: Record<string, unknown> = {};
  if (type.includes("json")) {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      body = parsed as Record<string, unknown>;
  } else body = Object.fromEntries(new URLSearchParams(text));
  return { status: response.status, body };
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const seconds = (value: unknown): number | undefined => {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** Why the service said no, in its words. */
function said(body: Record<string, unknown>): string {
  const description = text(body.error_description);
  return `${String(body.error).slice(0, 100)}${description ? ` (${description.slice(0, 300)})` : ""}`;
}

/**
 * Asks the service for a code (RFC 8628 §3.1).
 * @example const code = await requestDeviceCode(provider, client, Date.now()); // { userCode: "WDJB-MJHT", … }
 */
export async function requestDeviceCode(
  provider: ResolvedProvider,
  client: ProviderClient,
  now: number,
): Promise<DeviceCode> {
  const title = provider.title;
  const scopes = provider.definition.scopes ?? [];
  let answer;
  try {
    answer = await postForm(client.deviceUrl!, {
      client_id: client.client.client_id,
      ...(scopes.length ? { scope: scopes.join(provider.definition.scopeSeparator ?? " ") } : {}),
    });
  } catch (cause) {
    throw new SignInError(
      `${title} sign-in could not start: ${title} could not be reached (${(cause as Error).message})`,
      { cause },
    );
  }
  const { body } = answer;
  if (body.error !== undefined || answer.status >= 400)
    throw new SignInError(
      `${title} sign-in could not start: ${body.error === undefined ? `HTTP ${answer.status}` : said(body)}`,
    );
  const deviceCode = text(body.device_code);
  const userCode = text(body.user_code);
  // Google's older name for it is verification_url.
  const verificationUri = text(body.verification_uri) ?? text(body.verification_url);
  const expiresIn = seconds(body.expires_in);
  if (!deviceCode || !userCode || !verificationUri || !expiresIn || !URL.canParse(verificationUri))
    throw new SignInError(
      `${title} sign-in could not start: its answer has no device_code, user_code, verification_uri and expires_in`,
    );
  const complete = text(body.verification_uri_complete);
  return {
    deviceCode,
    userCode,
    verificationUri,
    ...(complete && URL.canParse(complete) ? { verificationUriComplete: complete } : {}),
    expiresAt: now + expiresIn * 1000,
    intervalMs: (seconds(body.interval) ?? DEFAULT_INTERVAL_MS / 1000) * 1000,
  };
}

/**
 * Asks the token address at the service's interval until the person has typed the code (RFC
 * 8628 §3.4–3.5), waiting on `clock` (the host's; tests move it by hand). Resolves with the
 * tokens; rejects with a `SignInError` in words when the code expired, the person said no, or
 * `cancelled` resolved.
 */
export function pollForTokens(
  provider: ResolvedProvider,
  client: ProviderClient,
  code: DeviceCode,
  clock: Clock,
  cancelled: AbortSignal,
): Promise<Tokens> {
  const title = provider.title;
  const wait = (ms: number) =>
    new Promise<void>((done, fail) => {
      const timer = clock.setTimer(ms, done);
      cancelled.addEventListener(
        "abort",
        () => (timer.cancel(), fail(new SignInError(`${title} sign-in was stopped`))),
        {
          once: true,
        },
      );
    });
  const expired = () =>
    new SignInError(
      `${title} sign-in did not finish: the code ${code.userCode} expired before it was entered; connect again`,
    );
  return (async () => {
    let interval = code.intervalMs;
    for (;;) {
      await wait(interval);
      if (clock.now() >= code.expiresAt) throw expired();
      let answer;
      try {
        answer = await postForm(new URL(client.as.token_endpoint!), {
          grant_type: DEVICE_CODE_GRANT,
          device_code: code.deviceCode,
          client_id: client.client.client_id,
        });
      } catch {
        // Not reachable now: asked again at the next interval, until the code expires.
        continue;
      }
      const { body } = answer;
      switch (body.error) {
        case undefined:
          break;
        case "authorization_pending":
          continue;
        case "slow_down":
          // GitHub names the new interval; RFC 8628 says 5 seconds more at least.
          interval = Math.max(interval + SLOW_DOWN_STEP_MS, (seconds(body.interval) ?? 0) * 1000);
          continue;
        case "expired_token":
          throw expired();
        case "access_denied":
          throw new SignInError(`${title} sign-in did not finish: access was not granted`);
        default:
          throw new SignInError(`${title} sign-in failed while fetching the tokens: ${said(body)}`);
      }
      const accessToken = text(body.access_token);
      if (!accessToken || answer.status >= 400)
        throw new SignInError(`${title} sign-in failed while fetching the tokens: the answer holds no access_token`);
      return tokensFrom(
        {
          access_token: accessToken,
          token_type: "bearer",
          ...(text(body.refresh_token) ? { refresh_token: text(body.refresh_token) } : {}),
          ...(seconds(body.expires_in) ? { expires_in: seconds(body.expires_in) } : {}),
          ...(text(body.scope) ? { scope: text(body.scope) } : {}),
        } as Parameters<typeof tokensFrom>[0],
        clock.now(),
        provider.definition.scopeSeparator,
      );
    }
  })();
}
