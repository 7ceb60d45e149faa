/**
 * Everything an OAuth test needs: a real authorization server on loopback, an `OAuthService`
 * on a free callback port with a movable clock, the real keyring (started by the test file),
 * and a record of what the service told the person and the host.
 */
import { parseManifest, type Manifest } from "@svc/api";
import { ExtensionSecrets, KeyringSecretStore } from "../../host/src/secrets/index.js";
import { OAuthService } from "../../host/src/oauth/index.js";
import { startAuthorizationServer, type AuthorizationServer } from "./authorization-server.js";
import { signInInBrowser, type BrowserResult } from "./browser.js";
import { freePort } from "./free-port.js";

export interface OAuthHarness {
  as: AuthorizationServer;
  oauth: OAuthService;
  secrets: ExtensionSecrets;
  extensionId: string;
  port: number;
  /** Sign-in pages the service opened. */
  opened: string[];
  /** Lines shown under the notch. */
  notices: string[];
  /** `[provider, change]` per connections change. */
  changes: [string, string][];
  /** The clock the service reads; move it with `clock.now += …`. */
  clock: { now: number };
  /** What the browser does with each opened page: by default, sign in as alice. */
  browse: (url: string) => Promise<BrowserResult>;
  /** The browser's last result. */
  lastPage: () => Promise<BrowserResult>;
  /** Connects and waits until the browser came back. */
  signIn(): Promise<BrowserResult>;
  stop(): Promise<void>;
}

let counter = 0;

/**
 * @example
 * const h = await startOAuthHarness();
 * await h.signIn();
 * const { token } = await h.oauth.token({ extensionId: h.extensionId });
 */
export async function startOAuthHarness(options: { accessTokenSeconds?: number } = {}): Promise<OAuthHarness> {
  const port = await freePort();
  const as = await startAuthorizationServer({
    redirectUri: `http://127.0.0.1:${port}/oauth/callback`,
    accessTokenSeconds: options.accessTokenSeconds,
  });
  const extensionId = `com.example.oauth${process.pid}x${++counter}`;
  const parsed = parseManifest({
    name: "demo",
    version: "1.0.0",
    svc: { id: extensionId, title: "Demo Extension", permissions: { network: ["127.0.0.1"] } },
  });
  if (!parsed.ok) throw new Error(parsed.error);
  const manifest: Manifest = parsed.manifest;
  // Plain-http loopback addresses: only accepted because the service below allows them.
  manifest.svc.oauth = {
    demo: {
      title: "Demo",
      authorizeUrl: as.authorizeUrl,
      tokenUrl: as.tokenUrl,
      revokeUrl: as.revokeUrl,
      clientId: as.clientId,
      scopes: ["api", "offline_access"],
    },
  };
  const secrets = new ExtensionSecrets(new KeyringSecretStore());
  const opened: string[] = [];
  const notices: string[] = [];
  const changes: [string, string][] = [];
  const clock = { now: Date.now() };
  let page: Promise<BrowserResult> = Promise.reject(new Error("no page opened yet"));
  page.catch(() => undefined);
  const harness: OAuthHarness = {
    as,
    secrets,
    extensionId,
    port,
    opened,
    notices,
    changes,
    clock,
    browse: (url) => signInInBrowser(url, { login: "alice" }),
    lastPage: () => page,
    oauth: new OAuthService({
      secrets,
      manifestOf: (id) => (id === extensionId ? manifest : undefined),
      openURL: (url) => {
        opened.push(url);
        page = harness.browse(url);
        page.catch(() => undefined);
      },
      notify: (id, title) => notices.push(`${id === extensionId ? "" : `${id}: `}${title}`),
      onConnectionsChanged: (_id, provider, change) => changes.push([provider, change]),
      port,
      allowInsecureLoopback: true,
      now: () => clock.now,
    }),
    async signIn() {
      await harness.oauth.connect({ extensionId });
      return page;
    },
    async stop() {
      await harness.oauth.dispose();
      await as.stop();
      await secrets.delete(extensionId, "oauth", "demo");
    },
  };
  return harness;
}
