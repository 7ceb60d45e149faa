/**
 * What managing extensions means, in one vocabulary for every caller: `svc-host list`,
 * `enable`, `disable`, `uninstall`, `set`, `run` (talking to the running app or acting on the
 * support folder), the `/v1/extensions` routes and the page's UI server.
 */
import type { PreferenceType } from "@svc/api";
import type { LedgerReview } from "../ledger/index.js";
import type { Catalog } from "../discovery/index.js";

/** What the running set of extensions (app/extension-set.ts) knows right now, for listing (`svc-host list`, `GET /v1/extensions`). */
export interface ExtensionSetSnapshot {
  catalog: Catalog;
  disabled: ReadonlySet<string>;
  loaded: ReadonlySet<string>;
  /** The runtime's last `extension.status` per loaded extension, with its error. */
  statuses: ReadonlyMap<string, { status: string; error?: string }>;
  /** Problems the host found while loading. */
  problems: ReadonlyMap<string, string>;
  /** Installed extensions held back because they are not what the person approved (the problem says how). */
  held: ReadonlySet<string>;
  /** Tool ids, from the runtime's last load or `dist/tools.json`. */
  toolsOf(id: string): string[];
}

/** Where an extension comes from: inside the app, installed in `Extensions/`, or linked there by `svckit dev`. */
export type ExtensionOrigin = "bundled" | "user" | "dev";

/**
 * What an extension is doing. From the runtime: `loaded`, `running`, `idle`, `crashed`. From the
 * host: `loading` (asked, not yet reported), `error` (could not be loaded), `disabled`, `broken`
 * (its folder cannot be loaded), `overridden` (a user extension with its id wins), `stopped` (svc
 * is not running), `changed` (installed, but not what the person approved: not loaded until
 * accepted; `error` says what differs).
 */
export type ExtensionStatus =
  | "loaded"
  | "running"
  | "idle"
  | "crashed"
  | "loading"
  | "error"
  | "disabled"
  | "broken"
  | "overridden"
  | "stopped"
  | "changed";

/** One declared option, as a person sets it. */
export interface OptionInfo {
  name: string;
  title: string;
  type: PreferenceType;
  required: boolean;
  /** A dropdown's values. */
  choices?: string[];
}

/** One extension as listed. Never holds an option's value (passwords stay in the secret store). */
export interface ExtensionInfo {
  id: string;
  title?: string;
  version?: string;
  origin: ExtensionOrigin;
  folder: string;
  enabled: boolean;
  status: ExtensionStatus;
  tools: string[];
  /** The last problem: a broken manifest, a failed load, a crash. */
  error?: string;
  options: OptionInfo[];
}

/** What `uninstall` removed, for the person to read. */
export interface UninstallReport {
  id: string;
  /** Paths removed (folder or link, data folder, preference file, compiled code). */
  removed: string[];
  /** Secret-store entries removed (account names, never values). */
  secrets: string[];
  /** What could not be removed, each with the reason. */
  problems: string[];
}

/** The operations, the same whether the app runs or not (`run` needs it running). */
export interface ExtensionManager {
  list(): Promise<ExtensionInfo[]>;
  enable(id: string): Promise<void>;
  disable(id: string): Promise<void>;
  /** Removes a user extension and everything svc kept for it. Callers confirm first. */
  uninstall(id: string): Promise<UninstallReport>;
  /** Sets one option as Settings does (passwords included); `null` clears it. */
  /** `allowed`: for a `url` option, the origin the person allowed it to reach. */
  setOption(id: string, name: string, value: unknown, allowed?: string): Promise<void>;
  /** A `manual` run now. */
  run(id: string): Promise<void>;
  /** What accepting an installed extension as it is on disk now would approve (the update review). */
  review(id: string): Promise<LedgerReview>;
  /** Records the reviewed state as approved (`reviewed` from `review`); refused when it changed since. */
  accept(id: string, reviewed: string): Promise<void>;
}

/** Why an operation was refused; `code` picks the HTTP status and the exit code. */
export type ManageErrorCode = "unknown-extension" | "not-allowed" | "invalid" | "not-running" | "unavailable";

/** HTTP status per code (the `/v1/extensions` routes). */
export const MANAGE_HTTP_STATUS: Record<ManageErrorCode, number> = {
  "unknown-extension": 404,
  "not-allowed": 409,
  invalid: 400,
  "not-running": 409,
  unavailable: 503,
};

/** A refused operation; the message is one line for a person, with the fix. */
export class ManageError extends Error {
  override readonly name = "ManageError";
  constructor(
    message: string,
    readonly code: ManageErrorCode,
  ) {
    super(message);
  }
}
