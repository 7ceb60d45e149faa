/**
 * A real OAuth 2.0 authorization server for tests: `oidc-provider` on a loopback port, with its
 * development login and consent pages, one public client (PKCE, no secret), refresh tokens and
 * revocation. It counts what reaches it, so tests can prove how many refreshes were sent.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface AuthorizationServer {
  issuer: string;
  /** Endpoints as an `svc.oauth` provider definition expects them. */
  authorizeUrl: string;
  tokenUrl: string;
  /** The device flow's code address (with `deviceFlow`). */
  deviceAuthorizationUrl: string;
  revokeUrl: string;
  clientId: string;
  /** Requests seen, by `<METHOD> <path>` (e.g. `POST /token`). */
  requests: string[];
  /** Successful token grants by `grant_type`, in order. */
  grants: string[];
  /** What revocation destroyed: `refresh_token`, `access_token`, `grant` (all tokens of a sign-in). */
  revoked: string[];
  /** Whether `token` is an access token this server issued and still honours (as a resource server asks). */
  honours(token: string): Promise<boolean>;
  /** Stops answering: the next requests fail as if the network were down. */
  stop(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** The redirect the client is registered with, exactly. */
  redirectUri: string;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenSeconds?: number;
  /** Turns on the device flow (RFC 8628) at `/device/auth`, the person's page at `/device`. */
  deviceFlow?: boolean;
  /** Serve https at `https://localhost:<port>` with this certificate (as the real host asks). */
  tls?: { key: string; certificate: string };
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? "/", "http://x").pathname;
}

/**
 * @example
 * const as = await startAuthorizationServer({ redirectUri: "http://127.0.0.1:47899/oauth/callback" });
 * // as.authorizeUrl, as.tokenUrl … as.requests.filter((r) => r === "POST /token").length
 */
export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const requests: string[] = [];
  const grants: string[] = [];
  const revoked: string[] = [];
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(`${req.method} ${pathOf(req)}`);
    handler!(req, res);
  };
  const { tls } = options;
  const server: Server = tls
    ? createHttpsServer({ key: readFileSync(tls.key), cert: readFileSync(tls.certificate) }, listener)
    : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
  const clientId = "svc-test-client";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: "none",
        application_type: "native",
        redirect_uris: [options.redirectUri],
        grant_types: [
          "authorization_code",
          "refresh_token",
          ...(options.deviceFlow ? ["urn:ietf:params:oauth:grant-type:device_code"] : []),
        ],
        response_types: ["code"],
      },
    ],
    scopes: ["api", "offline_access"],
    features: {
      devInteractions: { enabled: true },
      revocation: { enabled: true, allowedPolicy: async () => true },
      deviceFlow: { enabled: options.deviceFlow === true },
    },
    // Every grant gets a refresh token, as most services do for a desktop app.
    issueRefreshToken: async () => true,
    ttl: {
      AccessToken: options.accessTokenSeconds ?? 3600,
      RefreshToken: 86_400,
      Grant: 86_400,
      Session: 3600,
      Interaction: 600,
    },
    routes: {
      authorization: "/auth",
      token: "/token",
      revocation: "/token/revocation",
      device_authorization: "/device/auth",
      code_verification: "/device",
    },
  });
  provider.on("grant.success", (ctx: { oidc: { params?: { grant_type?: string } } }) =>
    grants.push(String(ctx.oidc.params?.grant_type)),
  );
  provider.on("access_token.destroyed", () => revoked.push("access_token"));
  provider.on("refresh_token.destroyed", () => revoked.push("refresh_token"));
  // Revoking a refresh token ends its whole grant: every token of it stops working.
  provider.on("grant.revoked", () => revoked.push("grant"));
  provider.on("server_error", (_ctx: unknown, error: Error) => console.error("authorization server:", error));
  handler = provider.callback();
  return {
    issuer,
    authorizeUrl: `${issuer}/auth`,
    tokenUrl: `${issuer}/token`,
    deviceAuthorizationUrl: `${issuer}/device/auth`,
    revokeUrl: `${issuer}/token/revocation`,
    clientId,
    requests,
    grants,
    revoked,
    honours: async (token) => (await provider.AccessToken.find(token)) !== undefined,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
