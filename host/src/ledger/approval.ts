/**
 * One approval: what the person agreed to when they installed (or accepted) an extension, and
 * how it is authenticated. The MAC covers the whole approval in one canonical form (keys
 * sorted), so changing any field, or moving an approval to another id, makes it not verify.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Manifest } from "@svc/api";
import type { FileDigests } from "./package-files.js";

export interface Approval {
  id: string;
  /** The package's `name` and `version` as approved. */
  name: string;
  version: string;
  /** ISO date of the install or accept. */
  approvedAt: string;
  /** The checked manifest as approved: permissions, OAuth providers (scopes, addresses, client id), triggers. */
  manifest: Manifest;
  /** Tool ids from `dist/tools.json`. */
  tools: string[];
  /** Every file of the package, by its digest. */
  files: FileDigests;
  /** The author's key (minisign's public-key line) when the package was signed: later updates must carry it. */
  signer?: string;
  /**
   * The https address the person installed it from: "check for updates" fetches there. Under
   * the MAC like the rest, so an edit outside svc makes the approval not verify.
   */
  address?: string;
}

/** JSON with object keys sorted at every level: one text per value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/** HMAC-SHA256 of the approval, hex. */
export function macOf(key: Buffer, approval: Approval): string {
  return createHmac("sha256", key)
    .update("svc permission ledger v1\u0000")
    .update(canonicalJson(approval))
    .digest("hex");
}

/** True when `mac` is the approval's MAC under `key` (compared in constant time). */
export function verifies(key: Buffer, approval: Approval, mac: unknown): boolean {
  if (typeof mac !== "string" || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(macOf(key, approval), "hex"), Buffer.from(mac, "hex"));
}
