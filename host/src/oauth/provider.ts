/**
 * Which sign-in an extension means (`provider` may be left out when it declares one), and the
 * provider's endpoints as oauth4webapi wants them. SPEC.md's rules are checked again here, not
 * trusted from the manifest reader: every address https, a public client (no secret).
 */
import type { Manifest, OAuthProvider } from "@svc/api";
import type { AuthorizationServer, Client } from "oauth4webapi";
import { HostRuleError } from "../secrets/index.js";

/** A sign-in the extension asked for that it does not declare, or an address SPEC.md forbids. */
export class OAuthRuleError extends HostRuleError {
  override readonly name: string = "OAuthRuleError";
}

/** One declared provider, with the name it has in `svc.oauth` and what to call it to a person. */
export interface ResolvedProvider {
  name: string;
  definition: OAuthProvider;
  /** `title` of the provider, else the extension's title. */
  title: string;
}

/**
 * The provider named `name`, or the only one when `name` is left out.
 *
 * @example
 * resolveProvider(manifest, undefined).name // "github" when svc.oauth declares only github
 */
export function resolveProvider(manifest: Manifest, name: string | undefined): ResolvedProvider {
  const declared = Object.keys(manifest.svc.oauth);
  const id = manifest.svc.id;
  if (name === undefined) {
    if (declared.length === 0) throw new OAuthRuleError(`${id} declares no sign-in: add a provider to svc.oauth`);
    if (declared.length > 1)
      throw new OAuthRuleError(
        `${id} declares ${declared.length} sign-ins (${declared.join(", ")}): name the provider`,
      );
    name = declared[0];
  }
  if (!Object.hasOwn(manifest.svc.oauth, name)) {
    const known = declared.length ? `declared: ${declared.join(", ")}` : "it declares none";
    throw new OAuthRuleError(`${id} has no sign-in named "${name}"; ${known}`);
  }
  const definition = manifest.svc.oauth[name];
  return { name, definition, title: definition.title ?? manifest.svc.title };
}

function isLoopback(url: URL): boolean {
  return url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
}

/**
 * Checks one address: https always; plain http only to a loopback host and only when the
 * OAuth service was made with `allowInsecureLoopback` (tests; never reachable from a manifest).
 */
function checkAddress(provider: ResolvedProvider, key: string, raw: string, allowInsecureLoopback: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OAuthRuleError(`"oauth.${provider.name}.${key}" is not an address: ${raw}`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && allowInsecureLoopback && isLoopback(url)) return url;
  throw new OAuthRuleError(`"oauth.${provider.name}.${key}" should be an https address: ${raw}`);
}

/** What oauth4webapi needs to talk to one provider. */
export interface ProviderClient {
  as: AuthorizationServer;
  client: Client;
  /** `pkce` (always there for it): where the browser signs in. */
  authorizeUrl?: URL;
  /** `flow: "device"` (always there for it): where the code is asked for (RFC 8628). */
  deviceUrl?: URL;
  /** Whether oauth4webapi must be told to allow plain http (loopback test servers only). */
  insecure: boolean;
}

/**
 * @example
 * const { as, client } = providerClient(resolveProvider(manifest, "github"), false);
 */
export function providerClient(provider: ResolvedProvider, allowInsecureLoopback: boolean): ProviderClient {
  const { definition } = provider;
  const optional = (key: "authorizeUrl" | "revokeUrl" | "deviceAuthorizationUrl") => {
    const raw = definition[key];
    return raw === undefined ? undefined : checkAddress(provider, key, raw, allowInsecureLoopback);
  };
  const authorizeUrl = optional("authorizeUrl");
  const deviceUrl = optional("deviceAuthorizationUrl");
  const revokeUrl = optional("revokeUrl");
  // The manifest reader asks for these already; checked again, as every rule here is.
  const needed = definition.flow === "device" ? "deviceAuthorizationUrl" : "authorizeUrl";
  if ((needed === "authorizeUrl" ? authorizeUrl : deviceUrl) === undefined)
    throw new OAuthRuleError(`"oauth.${provider.name}.${needed}" is needed for this sign-in`);
  const tokenUrl = checkAddress(provider, "tokenUrl", definition.tokenUrl, allowInsecureLoopback);
  const insecure = [authorizeUrl, tokenUrl, revokeUrl, deviceUrl].some((url) => url?.protocol === "http:");
  return {
    // A manifest names endpoints, not an issuer; the authorize address's origin (the token
    // address's for a device sign-in) stands in for it until a callback names the issuer (see
    // sign-in.ts).
    as: {
      issuer: (authorizeUrl ?? tokenUrl).origin,
      authorization_endpoint: authorizeUrl?.href,
      token_endpoint: tokenUrl.href,
      revocation_endpoint: revokeUrl?.href,
    },
    client: { client_id: definition.clientId, token_endpoint_auth_method: "none" },
    ...(authorizeUrl ? { authorizeUrl } : {}),
    ...(deviceUrl ? { deviceUrl } : {}),
    insecure,
  };
}
