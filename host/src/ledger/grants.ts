/**
 * Origins the person granted an extension through its `url` options ("Let Calendar connect to
 * calendar.google.com?"), kept in the permission ledger beside the approvals and authenticated
 * with the same key, under their own domain text so an approval's MAC never verifies a grant.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "./approval.js";

/** One extension's grants: the origin (`https://host:port`) each `url` option was allowed to reach. */
export interface Grants {
  id: string;
  /** By option name. */
  origins: Record<string, string>;
}

export interface GrantEntry {
  grants: Grants;
  mac: string;
}

function grantsMac(key: Buffer, grants: Grants): string {
  return createHmac("sha256", key)
    .update("svc permission ledger grants v1\u0000")
    .update(canonicalJson(grants))
    .digest("hex");
}

/** The entry for `grants`, authenticated with `key`. */
export function signGrants(key: Buffer, grants: Grants): GrantEntry {
  return { grants, mac: grantsMac(key, grants) };
}

/**
 * The origins of `entry` when it is `id`'s and its MAC verifies under `key`; otherwise none (a
 * grant edited outside svc admits nothing).
 */
export function verifiedOrigins(key: Buffer, id: string, entry: unknown): Record<string, string> {
  const { grants, mac } = (entry ?? {}) as Partial<GrantEntry>;
  if (typeof grants !== "object" || grants === null || grants.id !== id) return {};
  if (typeof mac !== "string" || !/^[0-9a-f]{64}$/.test(mac)) return {};
  const origins = grants.origins;
  if (typeof origins !== "object" || origins === null) return {};
  if (!Object.values(origins).every((origin) => typeof origin === "string")) return {};
  const good = timingSafeEqual(Buffer.from(grantsMac(key, grants), "hex"), Buffer.from(mac, "hex"));
  return good ? { ...origins } : {};
}
