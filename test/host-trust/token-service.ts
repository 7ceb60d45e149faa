/**
 * An OAuth token service on loopback for the real host's sign-ins: https with a self-signed
 * certificate (the host process trusts it through NODE_EXTRA_CA_CERTS, as the manifest takes
 * https addresses only). `/token` trades the code `the-code` for the given tokens only when the
 * PKCE verifier matches the challenge the sign-in page carried; `/revoke` records what it was
 * asked to revoke; a refresh-token grant renews. Every request is recorded (`requests`), so a
 * test can say that nothing reached a service.
 *
 * Each test file also gives its host a callback port of its own (`SVC_OAUTH_PORT` set to
 * `freePort()`), so sign-ins of test files running side by side never meet on 47812.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { selfSignedCertificate } from "../trust/certificate.js";

export { freePort } from "../trust/free-port.js";

export interface TokenService {
  port: number;
  /** The certificate's file, for NODE_EXTRA_CA_CERTS. */
  certificate: string;
  /** Set by the test from the sign-in page's `code_challenge`. */
  challenge?: string;
  revoked: string[];
  /** Device flow: set when the person has typed the code (until then `/token` answers authorization_pending). */
  deviceApproved?: boolean;
  /** Every request that reached it: its path, and the grant or token it carried. */
  requests: { path: string; grant?: string; refreshToken?: string }[];
  close(): Promise<void>;
}

/**
 * @example
 * const tokens = await startTokenService(folder, { access: "at-1", refresh: "rt-1" });
 * // provider: { authorizeUrl: `https://localhost:${tokens.port}/authorize`, tokenUrl: `https://localhost:${tokens.port}/token`, … }
 */
export async function startTokenService(
  folder: string,
  issued: { access: string; refresh: string; expiresIn?: number },
): Promise<TokenService> {
  const { key, certificate } = selfSignedCertificate(folder);
  const service: TokenService = { port: 0, certificate, revoked: [], requests: [], close: async () => {} };
  const server: Server = createServer(
    { key: readFileSync(key), cert: readFileSync(certificate) },
    (request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        const form = new URLSearchParams(body);
        service.requests.push({
          path: request.url ?? "",
          ...(form.get("grant_type") ? { grant: form.get("grant_type")! } : {}),
          ...(form.get("refresh_token") ? { refreshToken: form.get("refresh_token")! } : {}),
        });
        const json = (status: number, value: unknown) =>
          response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
        const tokens = () =>
          json(200, {
            access_token: issued.access,
            refresh_token: issued.refresh,
            token_type: "Bearer",
            expires_in: issued.expiresIn ?? 3600,
            scope: "read",
          });
        // The device flow, answered as GitHub documents it (errors with status 200).
        if (request.url === "/device/code")
          return json(200, {
            device_code: "3584d83530557fdd1f46af8289938c8ef79f9dc5",
            user_code: "WDJB-MJHT",
            verification_uri: "https://github.com/login/device",
            expires_in: 900,
            interval: 5,
          });
        if (request.url === "/token" && form.get("grant_type") === "urn:ietf:params:oauth:grant-type:device_code")
          return service.deviceApproved ? tokens() : json(200, { error: "authorization_pending" });
        if (request.url === "/revoke") {
          service.revoked.push(form.get("token_type_hint") ?? "?");
          return void response.writeHead(200).end();
        }
        if (request.url === "/token" && form.get("grant_type") === "refresh_token")
          return form.get("refresh_token") === issued.refresh ? tokens() : json(400, { error: "invalid_grant" });
        const verifier = form.get("code_verifier") ?? "";
        const proof = createHash("sha256").update(verifier).digest("base64url");
        if (request.url !== "/token" || form.get("code") !== "the-code" || proof !== service.challenge)
          return json(400, { error: "invalid_grant" });
        tokens();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  service.port = (server.address() as { port: number }).port;
  service.close = () => new Promise((resolve) => server.close(() => resolve()));
  return service;
}

/**
 * The `svc` manifest of an extension that signs in to this service as provider `demo`
 * (title "Demo", scope `read`).
 */
export function demoSignInManifest(id: string, service: TokenService) {
  const base = `https://localhost:${service.port}`;
  return {
    id,
    title: "Sign-in",
    permissions: { network: ["localhost"] },
    oauth: {
      demo: {
        title: "Demo",
        authorizeUrl: `${base}/authorize`,
        tokenUrl: `${base}/token`,
        revokeUrl: `${base}/revoke`,
        clientId: "svc-test",
        scopes: ["read"],
      },
    },
  };
}
