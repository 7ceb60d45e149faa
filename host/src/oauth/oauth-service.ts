/**
 * The host side of `ctx.oauth` (SPEC.md "OAuth connection", `host.oauth.*`): starts sign-ins
 * and finishes them when the browser comes back, keeps connections and their tokens in the
 * secret store, hands out tokens (renewed first when within five minutes of expiry, one renewal
 * per connection at a time), and forgets connections on disconnect.
 */
import type { Disposable } from "@svc/api";
import { randomBytes } from "node:crypto";
import type { Manifest, OAuthConnection, SignInPage } from "@svc/api";
import type { ExtensionSecrets } from "../secrets/index.js";
import { CallbackServer, OAUTH_CALLBACK_PORT, redirectUriFor, type CallbackPage } from "./callback-server.js";
import { ConnectionVault, toRecord, type IssuedBy, type StoredConnection } from "./connection-vault.js";
import {
  OAuthRuleError,
  providerClient,
  resolveProvider,
  type ProviderClient,
  type ResolvedProvider,
} from "./provider.js";
import { beginSignIn, finishSignIn, type PendingSignIn, type Tokens } from "./sign-in.js";
import { pollForTokens, requestDeviceCode, type DeviceCode } from "./device-flow.js";
import { systemClock, type Clock } from "../clock/index.js";
import { renewTokens, revokeBestEffort, RenewalError } from "./token-requests.js";

/** Renew a token this long before it expires (SPEC.md: five minutes). */
export const RENEW_BEFORE_MS = 5 * 60 * 1000;

export interface OAuthServiceOptions {
  secrets: ExtensionSecrets;
  /** The manifest of a loaded extension, or undefined. */
  manifestOf(extensionId: string): Manifest | undefined;
  /** Opens the sign-in page in the person's browser (for the extension that asked). */
  openURL(url: string, extensionId: string, signIn: SignInPage): void | Promise<void>;
  /** A line under the notch: "<title> is connected", or why a sign-in did not finish. */
  notify(extensionId: string, title: string, body?: string): void;
  /** A sign-in finished or a connection was removed: the host runs the extension again. */
  onConnectionsChanged(extensionId: string, provider: string, change: "connected" | "disconnected"): void;
  /** The callback port; the redirect is built from it. Default 47812 (SPEC.md). */
  port?: number;
  /**
   * Tests only: lets provider addresses be plain http on 127.0.0.1/localhost. A manifest can
   * never turn this on; the manifest reader refuses http anyway.
   */
  allowInsecureLoopback?: boolean;
  /** The clock, in epoch ms (tests move it). */
  now?: () => number;
  /** Waits between device-flow polls; the host's clock (manual in tests). Default the system's. */
  clock?: Clock;
  /**
   * A device-flow sign-in (`flow: "device"`) shows the person a code to type at an address: the
   * host puts it in the page and the terminal. Called again when the extension connects again.
   */
  showDeviceCode?(extensionId: string, shown: ShownDeviceCode): void;
  /** A sign-in not finished within this time is forgotten. Default 10 minutes. */
  signInTimeoutMs?: number;
  /** A log line for the person: stored connections dropped because their provider's addresses changed. */
  onDropped?(extensionId: string, message: string): void;
}

/** A device code as the person sees it (never the device code the host polls with). */
export interface ShownDeviceCode {
  provider: string;
  title: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string;
  /** Epoch ms. */
  expiresAt: number;
}

/** The addresses and client id a sign-in of `provider` is issued under now. */
export function issuedBy(provider: ResolvedProvider): IssuedBy {
  const { tokenUrl, clientId, revokeUrl } = provider.definition;
  return { tokenUrl, clientId, ...(revokeUrl === undefined ? {} : { revokeUrl }) };
}

function sameIssuer(a: IssuedBy | undefined, b: IssuedBy): boolean {
  return a !== undefined && a.tokenUrl === b.tokenUrl && a.clientId === b.clientId && a.revokeUrl === b.revokeUrl;
}

/** What changed, in words: "token address https://a/token → https://b/token". */
function issuerChange(was: IssuedBy | undefined, now: IssuedBy): string {
  if (!was) return "it was stored before svc recorded where its tokens may be sent";
  const parts: string[] = [];
  if (was.tokenUrl !== now.tokenUrl) parts.push(`token address ${was.tokenUrl} → ${now.tokenUrl}`);
  if (was.revokeUrl !== now.revokeUrl)
    parts.push(`revoke address ${was.revokeUrl ?? "none"} → ${now.revokeUrl ?? "none"}`);
  if (was.clientId !== now.clientId) parts.push(`client id ${was.clientId} → ${now.clientId}`);
  return `the extension changed its ${parts.join(", ")}`;
}

/** A sign-in page being opened: the service's title and the title of the extension that asked. */
export type { SignInPage };

/** Which provider and connection a call is about (the protocol's params, minus the rest). */
export interface OAuthTarget {
  extensionId: string;
  provider?: string;
}

/**
 * @example
 * const oauth = new OAuthService({ secrets, manifestOf, openURL, notify, onConnectionsChanged });
 * await oauth.connect({ extensionId: "com.example.ci" });          // the sign-in page is open
 * const { token } = await oauth.token({ extensionId: "com.example.ci" });
 */
export class OAuthService implements Disposable {
  readonly redirectUri: string;
  readonly #options: OAuthServiceOptions;
  readonly #vault: ConnectionVault;
  readonly #server: CallbackServer;
  readonly #now: () => number;
  /** Pending sign-ins by `<extensionId>\0<provider>`. */
  readonly #pending = new Map<string, PendingSignIn & { timer: NodeJS.Timeout }>();
  /** Device-flow sign-ins polling, by `<extensionId>\0<provider>`. */
  readonly #devices = new Map<string, { shown: ShownDeviceCode; stop: AbortController }>();
  /** Renewals under way by `<extensionId>\0<provider>\0<connection>`: concurrent callers share one. */
  readonly #renewals = new Map<string, Promise<StoredConnection | null>>();

  constructor(options: OAuthServiceOptions) {
    this.#options = options;
    this.#vault = new ConnectionVault(options.secrets);
    const port = options.port ?? OAUTH_CALLBACK_PORT;
    this.redirectUri = redirectUriFor(port);
    this.#server = new CallbackServer(port, (params) => this.#onCallback(params));
    this.#now = options.now ?? (options.clock ? () => options.clock!.now() : Date.now);
  }

  /** True while the callback port is open (a sign-in is pending). */
  get listening(): boolean {
    return this.#server.listening;
  }

  #resolve(target: OAuthTarget): { provider: ResolvedProvider; client: ProviderClient } {
    const manifest = this.#options.manifestOf(target.extensionId);
    if (!manifest) throw new OAuthRuleError(`no extension "${target.extensionId}" is loaded`);
    const provider = resolveProvider(manifest, target.provider);
    return { provider, client: providerClient(provider, this.#options.allowInsecureLoopback === true) };
  }

  /** What the person is told when the page opens: which service, for which extension. */
  #signInPage(target: OAuthTarget, provider: ResolvedProvider): SignInPage {
    const extension = this.#options.manifestOf(target.extensionId)?.svc.title ?? target.extensionId;
    return { service: provider.title, extension };
  }

  /** Opens the sign-in page; a pending sign-in for the same provider is reopened, not duplicated. */
  async connect(target: OAuthTarget): Promise<Record<string, never>> {
    const { provider, client } = this.#resolve(target);
    // A sign-in whose tokens could not be kept is not started: without a secret store this
    // fails here, with the store's own message, before any page opens.
    await this.#bound(target.extensionId, provider);
    const key = `${target.extensionId}\u0000${provider.name}`;
    if (provider.definition.flow === "device")
      return this.#connectDevice(key, target.extensionId, provider, client, this.#signInPage(target, provider));
    const waiting = this.#pending.get(key);
    if (waiting) {
      await this.#options.openURL(waiting.url, target.extensionId, this.#signInPage(target, provider));
      return {};
    }
    await this.#server.open();
    const pending = await beginSignIn(target.extensionId, provider, client, this.redirectUri);
    const timer = setTimeout(() => this.#forget(key), this.#options.signInTimeoutMs ?? 10 * 60 * 1000);
    timer.unref();
    this.#pending.set(key, { ...pending, timer });
    try {
      await this.#options.openURL(pending.url, target.extensionId, this.#signInPage(target, provider));
    } catch (error) {
      this.#forget(key);
      throw error;
    }
    return {};
  }

  /**
   * Device flow: asks for a code, shows it (page and terminal) and opens the address, then polls
   * in the background; a sign-in already polling is shown again, not started twice.
   */
  async #connectDevice(
    key: string,
    extensionId: string,
    provider: ResolvedProvider,
    client: ProviderClient,
    page: SignInPage,
  ): Promise<Record<string, never>> {
    const show = async (shown: ShownDeviceCode) => {
      this.#options.showDeviceCode?.(extensionId, shown);
      await this.#options.openURL(shown.verificationUri, extensionId, page);
    };
    const polling = this.#devices.get(key);
    if (polling) {
      await show(polling.shown);
      return {};
    }
    const code: DeviceCode = await requestDeviceCode(provider, client, this.#now());
    const shown: ShownDeviceCode = {
      provider: provider.name,
      title: provider.title,
      userCode: code.userCode,
      verificationUri: code.verificationUri,
      ...(code.verificationUriComplete ? { verificationUriComplete: code.verificationUriComplete } : {}),
      expiresAt: code.expiresAt,
    };
    const stop = new AbortController();
    this.#devices.set(key, { shown, stop });
    pollForTokens(provider, client, code, this.#options.clock ?? systemClock, stop.signal)
      .then(
        (tokens) => this.#keep(extensionId, provider, tokens, provider.definition.scopes ?? []),
        (error: Error) => {
          if (!stop.signal.aborted) this.#options.notify(extensionId, error.message);
        },
      )
      .finally(() => {
        if (this.#devices.get(key)?.stop === stop) this.#devices.delete(key);
      })
      .catch(() => {});
    await show(shown);
    return {};
  }

  /** The provider's connections as records (never a token), oldest first. */
  async connections(target: OAuthTarget): Promise<OAuthConnection[]> {
    const { provider } = this.#resolve(target);
    return (await this.#bound(target.extensionId, provider)).map(toRecord);
  }

  /**
   * A working access token: of `connection`, else of the first connection that works. Renewed
   * first when within five minutes of expiry. `{token: null}` when none works; throws when an
   * expired token could not be renewed because the service could not be reached.
   */
  async token(
    target: OAuthTarget & { connection?: string },
  ): Promise<{ token: string; connection: OAuthConnection } | { token: null; connection?: undefined }> {
    const { provider, client } = this.#resolve(target);
    const list = await this.#bound(target.extensionId, provider);
    const candidates = list.filter(
      (c) => (target.connection === undefined ? true : c.id === target.connection) && !c.needsReconnect,
    );
    let unreachable: unknown;
    for (const candidate of candidates) {
      try {
        const usable = await this.#usable(target.extensionId, provider, client, candidate);
        if (usable) return { token: usable.accessToken, connection: toRecord(usable) };
      } catch (error) {
        unreachable ??= error;
      }
    }
    if (unreachable) throw unreachable;
    return { token: null };
  }

  /** Names a connection; an older connection of the same account is dropped (the newest stays). */
  async describe(
    target: OAuthTarget & { connection: string; account: string; label: string },
  ): Promise<OAuthConnection> {
    const { provider } = this.#resolve(target);
    await this.#bound(target.extensionId, provider);
    let described: StoredConnection | undefined;
    await this.#vault.update(target.extensionId, provider.name, (list) => {
      const found = list.find((c) => c.id === target.connection);
      if (!found) throw new OAuthRuleError(`${provider.title} has no connection "${target.connection}"`);
      described = { ...found, account: target.account, label: target.label, named: true };
      return list
        .filter((c) => c.id === found.id || c.account !== target.account || c.connectedAt > found.connectedAt)
        .map((c) => (c.id === found.id ? described! : c));
    });
    return toRecord(described!);
  }

  /** Marks a connection as needing a new sign-in (the service rejected its token). */
  async invalidate(target: OAuthTarget & { connection: string }): Promise<void> {
    const { provider } = this.#resolve(target);
    await this.#bound(target.extensionId, provider);
    await this.#vault.update(target.extensionId, provider.name, (list) => {
      if (!list.some((c) => c.id === target.connection))
        throw new OAuthRuleError(`${provider.title} has no connection "${target.connection}"`);
      return list.map((c) => (c.id === target.connection ? { ...c, needsReconnect: true } : c));
    });
  }

  /**
   * Forgets `connection` (or every connection of the provider), revokes its tokens at the
   * service where `revokeUrl` is given (best effort), then the extension runs again.
   */
  async disconnect(target: OAuthTarget & { connection?: string }): Promise<void> {
    const { provider, client } = this.#resolve(target);
    // Tokens issued elsewhere are dropped here, never sent to this provider's revoke address.
    await this.#bound(target.extensionId, provider);
    let removed: StoredConnection[] = [];
    await this.#vault.update(target.extensionId, provider.name, (list) => {
      removed = list.filter((c) => target.connection === undefined || c.id === target.connection);
      return list.filter((c) => !removed.includes(c));
    });
    if (removed.length === 0) return;
    for (const connection of removed) {
      if (connection.refreshToken) await revokeBestEffort(client, connection.refreshToken, "refresh_token");
      await revokeBestEffort(client, connection.accessToken, "access_token");
    }
    this.#options.onConnectionsChanged(target.extensionId, provider.name, "disconnected");
  }

  /**
   * The provider's connections whose tokens were issued where the manifest points now. The others
   * are dropped (never sent to the new address): the person signs in again; the log says why.
   */
  async #bound(extensionId: string, provider: ResolvedProvider): Promise<StoredConnection[]> {
    const now = issuedBy(provider);
    const list = await this.#vault.read(extensionId, provider.name);
    const stale = list.filter((c) => !sameIssuer(c.issuedBy, now));
    if (stale.length === 0) return list;
    const kept = await this.#vault.update(extensionId, provider.name, (current) =>
      current.filter((c) => sameIssuer(c.issuedBy, now)),
    );
    const count = stale.length === 1 ? "1 sign-in" : `${stale.length} sign-ins`;
    this.#options.onDropped?.(
      extensionId,
      `${provider.title}: ${count} dropped, its tokens not sent: ${issuerChange(stale[0]!.issuedBy, now)} since you signed in; sign in again`,
    );
    return kept;
  }

  /** Forgets pending sign-ins and closes the callback port. */
  async dispose(): Promise<void> {
    for (const key of [...this.#pending.keys()]) this.#forget(key);
    for (const { stop } of this.#devices.values()) stop.abort();
    this.#devices.clear();
    await this.#server.close();
  }

  #forget(key: string): void {
    const pending = this.#pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.#pending.delete(key);
    if (this.#pending.size === 0) void this.#server.close();
  }

  /** The connection with a token good for five more minutes, renewing it if need be; null when it cannot work. */
  async #usable(
    extensionId: string,
    provider: ResolvedProvider,
    client: ProviderClient,
    connection: StoredConnection,
  ): Promise<StoredConnection | null> {
    if (!this.#dueForRenewal(connection)) return connection;
    const key = `${extensionId}\u0000${provider.name}\u0000${connection.id}`;
    let renewal = this.#renewals.get(key);
    if (!renewal) {
      renewal = this.#renew(extensionId, provider, client, connection.id).finally(() => this.#renewals.delete(key));
      this.#renewals.set(key, renewal);
    }
    return renewal;
  }

  #dueForRenewal(connection: StoredConnection): boolean {
    return connection.expiresAt !== undefined && connection.expiresAt - this.#now() <= RENEW_BEFORE_MS;
  }

  async #renew(
    extensionId: string,
    provider: ResolvedProvider,
    client: ProviderClient,
    id: string,
  ): Promise<StoredConnection | null> {
    const current = (await this.#vault.read(extensionId, provider.name)).find((c) => c.id === id);
    if (!current || current.needsReconnect || !sameIssuer(current.issuedBy, issuedBy(provider))) return null;
    if (!this.#dueForRenewal(current)) return current;
    const stillValid = current.expiresAt! > this.#now();
    if (!current.refreshToken) {
      if (stillValid) return current;
      await this.#markNeedsReconnect(extensionId, provider.name, id);
      return null;
    }
    try {
      const tokens = await renewTokens(provider, client, current.refreshToken, this.#now);
      const renewed: StoredConnection = { ...current, ...tokens, scopes: tokens.scopes ?? current.scopes };
      await this.#vault.update(extensionId, provider.name, (list) =>
        list.map((c) => (c.id === id ? { ...c, ...tokens, scopes: renewed.scopes } : c)),
      );
      return renewed;
    } catch (error) {
      if (error instanceof RenewalError && error.refused) {
        await this.#markNeedsReconnect(extensionId, provider.name, id);
        return null;
      }
      // Not reachable now: a token that has not expired yet still works.
      if (stillValid) return current;
      throw error;
    }
  }

  async #markNeedsReconnect(extensionId: string, provider: string, id: string): Promise<void> {
    await this.#vault.update(extensionId, provider, (list) =>
      list.map((c) => (c.id === id ? { ...c, needsReconnect: true } : c)),
    );
  }

  /** The browser came back: finish the sign-in its `state` names, if any. */
  async #onCallback(params: URLSearchParams): Promise<CallbackPage> {
    const state = params.get("state");
    const entry = [...this.#pending.entries()].find(([, p]) => state !== null && p.state === state);
    if (!entry) {
      // A stale or forged return: refused, and any real pending sign-in goes on waiting.
      return {
        status: 400,
        title: "Sign-in not recognised",
        message: "This is not a sign-in svc is waiting for, or it has expired. Start it again from svc.",
      };
    }
    const [key, pending] = entry;
    this.#forget(key);
    const { extensionId, provider } = pending;
    let tokens;
    try {
      tokens = await finishSignIn(pending, params, this.#now);
    } catch (error) {
      this.#options.notify(extensionId, (error as Error).message);
      return { status: 400, title: "Sign-in did not finish", message: (error as Error).message };
    }
    return this.#keep(extensionId, provider, tokens, pending.scopes);
  }

  /** Keeps a finished sign-in's tokens as a new connection (PKCE and device flow alike) and says so. */
  async #keep(extensionId: string, provider: ResolvedProvider, tokens: Tokens, asked: string[]): Promise<CallbackPage> {
    const connection: StoredConnection = {
      id: `c${randomBytes(8).toString("hex")}`,
      connectedAt: new Date(this.#now()).toISOString(),
      scopes: tokens.scopes ?? (asked.length ? asked : undefined),
      needsReconnect: false,
      named: false,
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresAt: tokens.expiresAt,
      issuedBy: issuedBy(provider),
    };
    try {
      // A finished sign-in replaces connections that need signing in again and were never named.
      await this.#vault.update(extensionId, provider.name, (list) => [
        ...list.filter((c) => !(c.needsReconnect && !c.named)),
        connection,
      ]);
    } catch (error) {
      const message = `${provider.title} sign-in could not be saved: ${(error as Error).message}`;
      this.#options.notify(extensionId, message);
      return { status: 500, title: "Sign-in not saved", message };
    }
    this.#options.notify(extensionId, `${provider.title} is connected`);
    this.#options.onConnectionsChanged(extensionId, provider.name, "connected");
    return {
      status: 200,
      title: `${provider.title} is connected`,
      message: "You can close this tab and go back to svc.",
    };
  }
}
