/**
 * JWT: decode the header and claims, read the dates relative, say whether it has expired. It
 * never says "verified": checking a signature needs the key, and decoding proves nothing about
 * who made the token.
 */
import { age, code, date, status, table, timeLeft, type Block, type TableRow } from "@svc/api";
import { base64ToBytes, utf8OrUndefined } from "./bytes.js";

/** Registered claims holding NumericDate values (RFC 7519 §4.1), and common ones that do too. */
const DATE_CLAIMS = ["exp", "nbf", "iat", "auth_time", "updated_at"];
const CLAIM_NAMES: Record<string, string> = {
  iss: "Issuer (iss)",
  sub: "Subject (sub)",
  aud: "Audience (aud)",
  exp: "Expires (exp)",
  nbf: "Not before (nbf)",
  iat: "Issued (iat)",
  jti: "Token id (jti)",
  auth_time: "Signed in (auth_time)",
  updated_at: "Updated (updated_at)",
};

function decodePart(part: string, name: string): Record<string, unknown> {
  let text: string | undefined;
  try {
    text = utf8OrUndefined(base64ToBytes(part));
  } catch (error) {
    throw new Error(`the ${name} is not base64url: ${(error as Error).message}`);
  }
  if (text === undefined) throw new Error(`the ${name} is not UTF-8 text`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`the ${name} is not JSON`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`the ${name} is not a JSON object`);
  return parsed as Record<string, unknown>;
}

const isSeconds = (v: unknown): v is number =>
  typeof v === "number" && Number.isFinite(v) && v >= 0 && v < 253402300800;

function rows(object: Record<string, unknown>, names: Record<string, string> = {}): TableRow[] {
  return Object.entries(object).map(([key, value]) => ({
    name: names[key] ?? key,
    value:
      DATE_CLAIMS.includes(key) && isSeconds(value)
        ? date(new Date(value * 1000))
        : typeof value === "string" || typeof value === "number"
          ? value
          : JSON.stringify(value),
  }));
}

/** Whether the token is usable now, by `exp` and `nbf`. */
function expiry(claims: Record<string, unknown>, now: number): Block {
  const { exp, nbf } = claims;
  if (isSeconds(nbf) && nbf * 1000 > now) return status(`Not valid yet: from ${timeLeft(nbf * 1000, now)}`, "warning");
  if (!isSeconds(exp)) return status("Never expires: no exp claim", "warning");
  if (exp * 1000 <= now) return status(`Expired ${age(exp * 1000, now)}`, "critical");
  return status(`Not expired: expires ${timeLeft(exp * 1000, now)}`, "positive");
}

/**
 * @example
 * jwtTool({ token: "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjF9.sig" }, Date.now())
 */
export function jwtTool(values: { token: string }, now: number = Date.now()): Block[] {
  const token = values.token.trim().replace(/^Bearer\s+/i, "");
  if (token === "") return [status("Paste a JWT to decode it.")];
  const parts = token.split(".");
  if (parts.length === 5)
    return [status("An encrypted JWT (JWE): its claims can't be read without the key", "warning")];
  if (parts.length !== 3)
    return [
      status(
        `Not a JWT: it has ${parts.length} part${parts.length === 1 ? "" : "s"}, a JWT has 3 separated by dots`,
        "critical",
      ),
    ];
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = decodePart(parts[0], "header");
    claims = decodePart(parts[1], "payload");
  } catch (error) {
    return [status(`Not a JWT: ${(error as Error).message}`, "critical")];
  }
  const unsigned = String(header.alg).toLowerCase() === "none";
  return [
    expiry(claims, now),
    unsigned
      ? status('Unsigned: its alg is "none", so anyone could have written it', "critical")
      : status(
          `Signature not checked: decoding needs no key and proves nothing about who made it (${String(header.alg)})`,
        ),
    table(rows(header, { alg: "Algorithm (alg)", typ: "Type (typ)", kid: "Key id (kid)" })),
    table(rows(claims, CLAIM_NAMES)),
    code(JSON.stringify(header, null, 2), "json"),
    code(JSON.stringify(claims, null, 2), "json"),
  ];
}
