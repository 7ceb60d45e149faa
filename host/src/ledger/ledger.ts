/**
 * The permission ledger: `<support>/ledger.json` (mode 0600, written whole and atomically), one
 * authenticated approval per installed extension, kept outside the extension's folder. The host
 * loads an installed extension only while its files and manifest are exactly what the person
 * approved; what differs is told in words, with the way out (accept or remove).
 *
 * ```json
 * {"v": 1, "key": "secret-store",
 *  "entries": {"com.example.ci": {"approval": {…Approval}, "mac": "<HMAC-SHA256 hex>"}},
 *  "grants": {"com.example.cal": {"grants": {"id": "com.example.cal", "origins": {"server": "https://calendar.google.com"}}, "mac": "<hex>"}}}
 * ```
 * `key` only says where the key is kept (so a terminal without the secret store is told why it
 * cannot record); it is not trusted for anything else.
 */
import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { escapeForDisplay, type Manifest, type ToolSpec } from "@svc/api";
import { listExtensionFolders, readExtensionFolder } from "../discovery/index.js";
import { gainedReach, type ReachItem } from "../review/index.js";
import { summarize, type InstallSummary } from "../review/index.js";
import type { SecretStore } from "../secrets/index.js";
import { writeFileAtomic } from "../support/index.js";
import { canonicalJson, macOf, verifies, type Approval } from "./approval.js";
import { signGrants, verifiedOrigins, type GrantEntry } from "./grants.js";
import { ledgerKey, ledgerKeyAccount, type LedgerKeyPlace } from "./ledger-key.js";
import { revocationOf, revokedProblem } from "./revocations.js";
import { compareFiles, digestFiles, noChanges, TooManyFiles, type FileChanges } from "./package-files.js";

export const LEDGER_FILE = "ledger.json";
export const LEDGER_KEY_FILE = "ledger.key";

/** The words every display shows for an extension that is not what was approved. */
export const CHANGED_ON_DISK = "changed on disk since you installed it";

interface LedgerEntry {
  approval: Approval;
  mac: string;
}

interface LedgerShape {
  v: 1;
  key: LedgerKeyPlace;
  entries: Record<string, LedgerEntry>;
  /** Origins granted through `url` options, by extension id (grants.ts). */
  grants?: Record<string, GrantEntry>;
}

/** Where an extension stands in the ledger. */
export type Standing =
  | { kind: "approved"; approval: Approval }
  | { kind: "none" }
  | { kind: "forged" }
  | { kind: "unverifiable"; reason: string };

/** May it load? `devLink`: a `svckit dev` link, outside the ledger (live-reloading). */
export type Verdict =
  { ok: true; devLink?: boolean } | { ok: false; problem: string; changes?: FileChanges; gained?: ReachItem[] };

/** What the person is shown before accepting an installed extension as it is now. */
export interface LedgerReview {
  id: string;
  /** The update review, and how the folder differs from the approval (`onDisk`, one line). */
  summary: InstallSummary & { onDisk: string };
  /** Against the approval, when there is one that verifies. */
  changes?: FileChanges;
  /** Names exactly what was reviewed: `accept` records only while the files still match it. */
  reviewed: string;
}

/** An extension as found on disk, as the ledger needs it. */
export interface FoundExtension {
  id: string;
  folder: string;
  manifest?: Manifest;
  tools: readonly ToolSpec[];
}

/** The ledger cannot record (its key is out of reach); the message says why, with the fix. */
export class LedgerError extends Error {
  override readonly name = "LedgerError";
}

function remedy(id: string): string {
  return `accept it (svc-host accept ${id}, or Settings) or remove it (svc-host uninstall ${id})`;
}

/** At most `max` names (each cut to 120 characters: the package named them), then how many more. */
function names(list: readonly string[], max = 8): string {
  const cut = (name: string) => (name.length > 120 ? `${name.slice(0, 119)}…` : name);
  const shown = list.slice(0, max).map(cut).join(", ");
  return list.length > max ? `${shown} and ${list.length - max} more` : shown;
}

/**
 * "package.json changed; dist/x.js added" — what differs, in words.
 *
 * @example
 * describeChanges({ changed: ["package.json"], added: [], removed: ["README.md"] }) // "package.json changed; README.md removed"
 */
export function describeChanges(changes: FileChanges): string {
  const parts: string[] = [];
  if (changes.changed.length) parts.push(`${names(changes.changed)} changed`);
  if (changes.added.length) parts.push(`${names(changes.added)} added`);
  if (changes.removed.length) parts.push(`${names(changes.removed)} removed`);
  return parts.join("; ");
}

/**
 * What is said once when the ledger is made over extensions installed before it.
 *
 * @example
 * migrationNote(["a", "b"]) // "permission ledger is new: recorded 2 installed extensions as approved as they are now (a, b); …"
 */
export function migrationNote(ids: readonly string[]): string {
  const count = ids.length === 1 ? "1 installed extension" : `${ids.length} installed extensions`;
  return `permission ledger is new: recorded ${count} as approved as they are now (${names(ids, 20)}); from now on each loads only while its files match`;
}

function isShape(value: unknown): value is LedgerShape {
  const shape = value as LedgerShape;
  return (
    typeof shape === "object" &&
    shape !== null &&
    shape.v === 1 &&
    (shape.key === "secret-store" || shape.key === "key-file") &&
    typeof shape.entries === "object" &&
    shape.entries !== null &&
    !Array.isArray(shape.entries)
  );
}

/**
 * @example
 * const ledger = await Ledger.open({ supportRoot, secrets: new KeyringSecretStore() });
 * const verdict = await ledger.check(discovered);
 * if (!verdict.ok) show(verdict.problem); // "changed on disk since you installed it: package.json changed; …"
 */
export class Ledger {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    /** The support folder: the review marks reads there as refused (review/reach.ts). */
    readonly supportRoot: string,
    readonly file: string,
    private readonly key: Buffer | undefined,
    /** Where the key is kept; undefined when it is out of reach (`unusable` says why). */
    readonly place: LedgerKeyPlace | undefined,
    readonly keyFile: string,
    /** Why approvals cannot be checked or recorded now. */
    readonly unusable: string | undefined,
    /** Why the secret store was not used, when the key file stands in for it. */
    readonly storeProblem: string | undefined,
  ) {}

  /** Ids recorded as they were when the ledger was made (installed before svc kept one). */
  migrated: string[] = [];

  /**
   * Opens the ledger of a support folder with its key (made the first time; then every
   * extension installed in `Extensions/` is recorded as it is, once, and listed in `migrated`).
   */
  static async open(options: { supportRoot: string; secrets?: SecretStore }): Promise<Ledger> {
    const file = join(options.supportRoot, LEDGER_FILE);
    const keyFile = join(options.supportRoot, LEDGER_KEY_FILE);
    const existing = await readShape(file);
    const where = { account: ledgerKeyAccount(options.supportRoot), keyFile };
    if (existing?.key === "secret-store") {
      try {
        const found = await ledgerKey(options.secrets, where, true);
        return new Ledger(options.supportRoot, file, found.key, found.place, keyFile, undefined, undefined);
      } catch (error) {
        const problem = (error as Error).message;
        const reason = `svc keeps the ledger's key in the secret store, which this process cannot reach (${problem}): run svc where the secret store is unlocked`;
        return new Ledger(options.supportRoot, file, undefined, undefined, keyFile, reason, problem);
      }
    }
    const found = await ledgerKey(options.secrets, where);
    const ledger = new Ledger(
      options.supportRoot,
      file,
      found.key,
      found.place,
      keyFile,
      undefined,
      found.storeProblem,
    );
    const empty = !existing || Object.keys(existing.entries).length === 0;
    if (found.created && empty) ledger.migrated = await ledger.recordInstalled(join(options.supportRoot, "Extensions"));
    else if (!existing || existing.key !== found.place) await ledger.rewrite((entries) => entries);
    return ledger;
  }

  /** The approval of `id`, when one verifies. */
  async standing(id: string): Promise<Standing> {
    if (!this.key) return { kind: "unverifiable", reason: this.unusable! };
    const shape = await readShape(this.file);
    const entry = shape && Object.hasOwn(shape.entries, id) ? shape.entries[id] : undefined;
    if (!entry) return { kind: "none" };
    const approval = entry.approval;
    if (typeof approval !== "object" || approval === null || approval.id !== id) return { kind: "forged" };
    return verifies(this.key, approval, entry.mac) ? { kind: "approved", approval } : { kind: "forged" };
  }

  /** The address each extension was installed from ("check for updates"), for approvals that verify. */
  async addresses(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const id of Object.keys((await readShape(this.file))?.entries ?? {})) {
      const standing = await this.standing(id);
      if (standing.kind === "approved" && standing.approval.address) found.set(id, standing.approval.address);
    }
    return found;
  }

  /** The extension as it is now, in the shape it would be approved in. */
  async current(ext: FoundExtension): Promise<Approval> {
    if (!ext.manifest) throw new LedgerError(`${ext.id} has no readable package.json`);
    return {
      id: ext.id,
      name: ext.manifest.name,
      version: ext.manifest.version,
      approvedAt: new Date().toISOString(),
      manifest: ext.manifest,
      tools: ext.tools.map((tool) => tool.id),
      files: await digestFiles(ext.folder),
    };
  }

  /**
   * May `ext` load? Approved and unchanged: yes. A link with no approval is a dev link: yes,
   * labelled. Anything else: no, with the problem in words.
   */
  async check(ext: FoundExtension): Promise<Verdict> {
    const standing = await this.standing(ext.id);
    if (standing.kind === "none" && (await lstat(ext.folder).catch(() => undefined))?.isSymbolicLink())
      return { ok: true, devLink: true };
    if (standing.kind === "unverifiable")
      return { ok: false, problem: `not loaded: its approval cannot be checked: ${standing.reason}` };
    if (standing.kind === "none")
      return {
        ok: false,
        problem: `not loaded: there is no record that you approved it (it was not installed by svc): ${remedy(ext.id)}`,
      };
    if (standing.kind === "forged")
      return {
        ok: false,
        problem: `not loaded: its record in the permission ledger does not verify (it was edited outside svc): ${remedy(ext.id)}`,
      };
    const approval = standing.approval;
    const revoked = await revocationOf(this.supportRoot, ext.id, approval.version, approval.signer);
    if (revoked) return { ok: false, problem: escapeForDisplay(revokedProblem(revoked, approval.version)) };
    let changes: FileChanges;
    try {
      changes = compareFiles(approval.files, await digestFiles(ext.folder));
    } catch (error) {
      const why = error instanceof TooManyFiles ? error.message : (error as Error).message;
      return { ok: false, problem: `${CHANGED_ON_DISK}: ${why}; not loaded: ${remedy(ext.id)}` };
    }
    // The manifest that would be sent is compared too: one read before the files were hashed
    // could differ from what they hold now.
    const sameManifest = ext.manifest !== undefined && canonicalJson(ext.manifest) === canonicalJson(approval.manifest);
    if (!sameManifest && !changes.changed.includes("package.json")) changes.changed.unshift("package.json");
    if (noChanges(changes)) return { ok: true };
    const gained = ext.manifest ? gainedReach(approval.manifest, ext.manifest, { supportDir: this.supportRoot }) : [];
    const asks = gained.length ? `; it now also asks to: ${gained.map((item) => item.text).join("; ")}` : "";
    return {
      ok: false,
      problem: `${CHANGED_ON_DISK}: ${describeChanges(changes)}${asks}; not loaded: ${remedy(ext.id)}`,
      changes,
      gained,
    };
  }

  /** The review an update shows, for the extension as it is on disk now. */
  async review(ext: FoundExtension): Promise<LedgerReview> {
    const now = await this.current(ext);
    const standing = await this.standing(ext.id);
    const approval = standing.kind === "approved" ? standing.approval : undefined;
    const summary = summarize(
      now.manifest,
      { supportDir: this.supportRoot },
      approval
        ? { manifest: approval.manifest, differentPackage: approval.manifest.name !== now.manifest.name }
        : undefined,
      ext.tools,
    );
    const changes = approval ? compareFiles(approval.files, now.files) : undefined;
    // File names come from the package: the line is made inert like every line of the summary.
    const heading = approval
      ? noChanges(changes!)
        ? "Its files are what you approved.\n"
        : `Changed on disk since you installed it: ${describeChanges(changes!)}.\n`
      : standing.kind === "forged"
        ? "Its record in the permission ledger does not verify, so this is reviewed as a new install.\n"
        : "There is no record that you approved it, so this is reviewed as a new install.\n";
    return {
      id: ext.id,
      summary: {
        ...summary,
        text: `${summary.text}\n${escapeForDisplay(heading.trimEnd(), { max: 400 })}\n`,
        onDisk: heading.trimEnd(),
      },
      ...(changes ? { changes } : {}),
      reviewed: reviewedToken(now),
    };
  }

  /**
   * Records what the person accepted after `review`: only while the extension is still what
   * was reviewed. False when it changed since (review again).
   */
  async accept(ext: FoundExtension, reviewed: string): Promise<boolean> {
    const now = await this.current(ext);
    if (reviewedToken(now) !== reviewed) return false;
    // The author's key stays pinned and the address remembered: a change on disk changes neither.
    const standing = await this.standing(ext.id);
    const { signer, address } = standing.kind === "approved" ? standing.approval : {};
    await this.record({ ...now, ...(signer ? { signer } : {}), ...(address ? { address } : {}) });
    return true;
  }

  /** Records an approval (an install, an update, an accept). */
  record(approval: Approval): Promise<void> {
    const key = this.requireKey();
    return this.rewrite((entries) => ({ ...entries, [approval.id]: { approval, mac: macOf(key, approval) } }));
  }

  /** Puts back what `id` had before (an install that failed after recording); `undefined` forgets it. */
  restore(id: string, entry: LedgerEntry | undefined): Promise<void> {
    return this.rewrite((entries) => {
      const next = { ...entries };
      if (entry) next[id] = entry;
      else delete next[id];
      return next;
    });
  }

  /** The raw entry of `id` (to put back with `restore`). */
  async entryOf(id: string): Promise<LedgerEntry | undefined> {
    const shape = await readShape(this.file);
    return shape && Object.hasOwn(shape.entries, id) ? shape.entries[id] : undefined;
  }

  /** Forgets `id`'s approval and grants (uninstall); true when there was an approval. */
  async forget(id: string): Promise<boolean> {
    let had = false;
    await this.rewrite(
      (entries) => {
        had = Object.hasOwn(entries, id);
        const next = { ...entries };
        delete next[id];
        return next;
      },
      (grants) => withoutKey(grants, id),
    );
    return had;
  }

  /** The origins granted to `id`, by option name; none when its record does not verify. */
  async grantedOrigins(id: string): Promise<Record<string, string>> {
    if (!this.key) return {};
    const grants = (await readShape(this.file))?.grants;
    const entry = grants && typeof grants === "object" && Object.hasOwn(grants, id) ? grants[id] : undefined;
    return verifiedOrigins(this.key, id, entry);
  }

  /**
   * Records that the person let `id` reach `origin` through its option `option`, replacing what
   * that option granted before; `undefined` revokes the option's grant.
   */
  async grant(id: string, option: string, origin: string | undefined): Promise<void> {
    const key = this.requireKey();
    await this.rewrite(
      (entries) => entries,
      (grants) => {
        // Read inside the write: two grants in a row never lose each other.
        const origins = verifiedOrigins(key, id, Object.hasOwn(grants, id) ? grants[id] : undefined);
        if (origin === undefined) delete origins[option];
        else origins[option] = origin;
        return Object.keys(origins).length === 0
          ? withoutKey(grants, id)
          : { ...grants, [id]: signGrants(key, { id, origins }) };
      },
    );
  }

  private requireKey(): Buffer {
    if (!this.key) throw new LedgerError(`cannot record the approval: ${this.unusable}`);
    return this.key;
  }

  /** Every extension installed in `extensions` (links are dev links: left out), recorded as it is. */
  private async recordInstalled(extensions: string): Promise<string[]> {
    const recorded: string[] = [];
    for (const folder of await listExtensionFolders(extensions)) {
      if ((await lstat(folder)).isSymbolicLink()) continue;
      const found = await readExtensionFolder(folder, "user");
      if (!found.manifest) continue;
      try {
        await this.record(await this.current(found));
        recorded.push(found.id);
      } catch {
        // Too large or unreadable: it stays unrecorded, and is shown as not approved.
      }
    }
    if (recorded.length === 0) await this.rewrite((entries) => entries);
    return recorded;
  }

  /** Reads the file afresh (another process may have written it), changes it, writes it whole. */
  private rewrite(
    change: (entries: Record<string, LedgerEntry>) => Record<string, LedgerEntry>,
    changeGrants: (grants: Record<string, GrantEntry>) => Record<string, GrantEntry> = (grants) => grants,
  ): Promise<void> {
    const write = this.writing.then(async () => {
      const before = await readShape(this.file);
      const place = this.place ?? before?.key ?? "key-file";
      const entries = change(before?.entries ?? {});
      const oldGrants = typeof before?.grants === "object" && before.grants !== null ? before.grants : {};
      const grants = changeGrants(oldGrants);
      const shape: LedgerShape = { v: 1, key: place, entries, ...(Object.keys(grants).length ? { grants } : {}) };
      await writeFileAtomic(this.file, `${JSON.stringify(shape, null, 2)}\n`, { mode: 0o600 });
    });
    this.writing = write.catch(() => {});
    return write;
  }
}

/** `record` without `key`. */
function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const next = { ...record };
  delete next[key];
  return next;
}

/** The reviewed state's name: a digest of everything but the time. */
function reviewedToken(approval: Approval): string {
  const { approvedAt: _at, ...rest } = approval;
  return createHash("sha256").update(canonicalJson(rest)).digest("hex");
}

/** The file's content, or undefined when it is missing or not the ledger's shape. */
async function readShape(file: string): Promise<LedgerShape | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return isShape(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
