/**
 * Reading a manifest (SPEC.md, "Manifest"). A mistake anywhere but `oauth` makes the manifest
 * invalid. A mistake in `oauth` never hides the extension (OAuth rule 5): the broken provider is
 * left out of `svc.oauth` and its problems come back apart, for Settings and `svckit validate`.
 */
import { z } from "zod";
import { checkManifestCrossFields, svcManifestShape, type Manifest, type SvcManifest } from "../schemas/manifest.js";
import { oauthProviderSchema, providerNameSchema, type OAuthProvider } from "../schemas/oauth.js";
import { hostOf, nonEmpty } from "../schemas/text.js";
import { networkAllows } from "../schemas/permissions.js";
import { formatIssue, formatIssues } from "./issues.js";

export type ParsedSvcManifest =
  { ok: true; svc: SvcManifest; oauthProblems: string[] } | { ok: false; error: string; errors: string[] };

export type ParsedManifest =
  { ok: true; manifest: Manifest; oauthProblems: string[] } | { ok: false; error: string; errors: string[] };

/** `svc` with `oauth` taken as it comes, to be checked provider by provider. */
const svcWithRawOAuthSchema = z
  .object({ ...svcManifestShape, oauth: z.unknown().optional() })
  .superRefine(checkManifestCrossFields);

const packageJsonSchema = z.looseObject({
  name: nonEmpty,
  version: nonEmpty,
  main: z.string().default("dist/index.js"),
  svc: svcWithRawOAuthSchema,
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Problems of one provider, with paths from the manifest's `svc` (`"oauth.github.tokenUrl" …`). */
function checkProvider(
  name: string,
  raw: unknown,
  network: readonly string[],
): { provider?: OAuthProvider; problems: string[] } {
  const at = ["oauth", name];
  const nameCheck = providerNameSchema.safeParse(name);
  if (!nameCheck.success)
    return { problems: [`provider name "${name}" ${formatIssue(nameCheck.error.issues[0], "").trim()}`] };
  const parsed = oauthProviderSchema.safeParse(raw);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => formatIssue({ ...issue, path: [...at, ...issue.path] })) };
  }
  const problems: string[] = [];
  // Every address svc itself calls (the browser opens authorizeUrl; svc never does).
  for (const key of ["tokenUrl", "revokeUrl", "deviceAuthorizationUrl"] as const) {
    const url = parsed.data[key];
    const host = url === undefined ? undefined : hostOf(url);
    if (host !== undefined && !networkAllows(network, host)) {
      problems.push(
        `"${[...at, key].join(".")}" host ${host} should be in permissions.network: add "${host}" to svc.permissions.network`,
      );
    }
  }
  return problems.length ? { problems } : { provider: parsed.data as OAuthProvider, problems };
}

/** Keeps the valid providers of a raw `oauth` value and explains the rest. */
function checkOAuth(
  raw: unknown,
  network: readonly string[],
): { oauth: Record<string, OAuthProvider>; problems: string[] } {
  if (raw === undefined) return { oauth: {}, problems: [] };
  if (!isPlainObject(raw)) return { oauth: {}, problems: ['"oauth" should be an object of providers by name'] };
  const oauth: Record<string, OAuthProvider> = {};
  const problems: string[] = [];
  for (const [name, definition] of Object.entries(raw)) {
    const checked = checkProvider(name, definition, network);
    problems.push(...checked.problems);
    if (checked.provider)
      Object.defineProperty(oauth, name, {
        value: checked.provider,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return { oauth, problems };
}

/**
 * Parses the `svc` object alone. Never throws.
 *
 * @example
 * const r = parseSvcManifest(pkg.svc);
 * if (r.ok) for (const p of r.oauthProblems) log.warn(p);
 */
export function parseSvcManifest(raw: unknown): ParsedSvcManifest {
  const parsed = svcWithRawOAuthSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = formatIssues(parsed.error.issues, "svc");
    return { ok: false, error: errors[0] ?? "svc is not valid", errors };
  }
  const { oauth, problems } = checkOAuth(parsed.data.oauth, parsed.data.permissions.network);
  return { ok: true, svc: { ...parsed.data, oauth }, oauthProblems: problems };
}

/**
 * Parses `package.json`. Errors name fields from the top (`"svc.interval" should be at least
 * 10s`); OAuth problems name them from `svc` (`"oauth.github.tokenUrl" should be an https
 * address`). Never throws.
 *
 * @example
 * const r = parseManifest(JSON.parse(readFileSync("package.json", "utf8")));
 * if (!r.ok) throw new Error(`package.json: ${r.error}`);
 */
export function parseManifest(raw: unknown): ParsedManifest {
  const parsed = packageJsonSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = formatIssues(parsed.error.issues, "package.json");
    return { ok: false, error: errors[0] ?? "package.json is not valid", errors };
  }
  const { oauth, problems } = checkOAuth(parsed.data.svc.oauth, parsed.data.svc.permissions.network);
  const manifest = { ...parsed.data, svc: { ...parsed.data.svc, oauth } } as Manifest;
  return { ok: true, manifest, oauthProblems: problems };
}
