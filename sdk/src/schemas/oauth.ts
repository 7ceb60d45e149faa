/**
 * OAuth provider definitions (SPEC.md, "OAuth provider definition") and the record of a
 * connection. Rules: authorization code with PKCE for public clients (no client secret);
 * every address https; token and revoke hosts in `permissions.network`; the redirect is always
 * {@link OAUTH_REDIRECT_URI}; a mistake never hides the extension (see `parseManifest`).
 */
import { z } from "zod";
import { OAUTH_REDIRECT_URI } from "./limits.js";
import { httpsUrlSchema, isoDateSchema, nonEmpty } from "./text.js";
import { displayLine } from "../display/display-text.js";
import { secretNameSchema } from "./records.js";

/** Keys that would carry a client secret: refused, as svc only does PKCE for public clients. */
export const CLIENT_SECRET_KEYS = ["clientSecret", "client_secret", "secret"] as const;

/** Keys that would set a redirect: refused, as the redirect is fixed. */
export const REDIRECT_KEYS = ["redirectUri", "redirectUrl", "redirect_uri"] as const;

/** A provider name, a key of `svc.oauth`; it names the keychain account `oauth.<provider>`, so it is a secret name. */
export const providerNameSchema = secretNameSchema;

const forbidden = (message: string) =>
  z
    .unknown()
    .refine((v) => v === undefined, { error: message })
    .optional();
const noSecret = forbidden("is not allowed: svc signs in with PKCE as a public client; remove the client secret");
const noRedirect = forbidden(`is not allowed: the redirect is always ${OAUTH_REDIRECT_URI}; remove it`);

/**
 * One provider. `params` are extra query parameters for the authorize address; they may not
 * set `client_secret` or `redirect_uri`.
 *
 * @example
 * { title: "GitHub", authorizeUrl: "https://github.com/login/oauth/authorize",
 *   tokenUrl: "https://github.com/login/oauth/access_token", clientId: "Iv1.abc",
 *   scopes: ["repo"], scopeSeparator: " " }
 */
const providerShape = z.strictObject({
  title: displayLine.optional(),
  /**
   * How the person signs in: `pkce` (default) opens `authorizeUrl` and comes back to svc's
   * loopback address; `device` (RFC 8628, what GitHub allows without a client secret) shows a
   * code to type at the service's address, then svc asks `tokenUrl` until it is entered.
   */
  flow: z.enum(["pkce", "device"]).optional(),
  /** `flow: "device"` only: where svc asks for the code (GitHub: https://github.com/login/device/code). */
  deviceAuthorizationUrl: httpsUrlSchema.optional(),
  /** Where the browser signs in: needed for `pkce`, unused by `device` (the service names its page). */
  authorizeUrl: httpsUrlSchema.optional(),
  tokenUrl: httpsUrlSchema,
  revokeUrl: httpsUrlSchema.optional(),
  clientId: nonEmpty,
  scopes: z.array(nonEmpty).optional(),
  scopeSeparator: z.string().optional(),
  params: z
    .record(z.string(), z.string())
    .superRefine((params, ctx) => {
      for (const key of Object.keys(params)) {
        if (key === "client_secret") {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: "is not allowed: svc signs in with PKCE as a public client, so there is no client secret",
          });
        }
        if (key === "redirect_uri") {
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `is not allowed: the redirect is always ${OAUTH_REDIRECT_URI}`,
          });
        }
      }
    })
    .optional(),
  clientSecret: noSecret,
  client_secret: noSecret,
  secret: noSecret,
  redirectUri: noRedirect,
  redirectUrl: noRedirect,
  redirect_uri: noRedirect,
});

/**
 * `flow: "device"` and `deviceAuthorizationUrl` come together; every other provider signs in in
 * the browser, so it needs `authorizeUrl`.
 */
export const oauthProviderSchema = providerShape.superRefine((provider, ctx) => {
  if (provider.flow !== "device" && provider.authorizeUrl === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["authorizeUrl"],
      message:
        'is needed: the https address where the browser signs in (or set "flow": "device" with deviceAuthorizationUrl)',
    });
  if (provider.flow === "device" && provider.deviceAuthorizationUrl === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["deviceAuthorizationUrl"],
      message: 'is needed with flow "device": the address where svc asks for the code to show',
    });
  if (provider.flow !== "device" && provider.deviceAuthorizationUrl !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["flow"],
      message: 'should be "device" when deviceAuthorizationUrl is given',
    });
});

/**
 * One signed-in account, as `ctx.oauth.connections()` returns it. A token is never part of it.
 *
 * @example
 * { id: "c1", account: "octocat", connectedAt: "2025-03-01T09:30:00.000Z", scopes: ["repo"], needsReconnect: false }
 */
export const oauthConnectionSchema = z.strictObject({
  id: nonEmpty,
  account: z.string().optional(),
  label: displayLine.optional(),
  connectedAt: isoDateSchema,
  scopes: z.array(z.string()).optional(),
  needsReconnect: z.boolean(),
});

export type OAuthProvider = Omit<
  z.infer<typeof oauthProviderSchema>,
  (typeof CLIENT_SECRET_KEYS)[number] | (typeof REDIRECT_KEYS)[number]
>;
export type OAuthConnection = z.infer<typeof oauthConnectionSchema>;
