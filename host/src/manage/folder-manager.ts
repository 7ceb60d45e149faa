/**
 * The extension operations over a support folder, one implementation for both cases: inside
 * the running host (what it has loaded, changes applied at once by a rescan) and with svc
 * stopped (discovery on disk, changes that take effect at the next start).
 */
import { SecretStoreUnavailableError, HostRuleError, type SecretStore } from "../secrets/index.js";
import type { PreferenceStore } from "../preferences/index.js";
import { setDisabled, type SupportPaths } from "../support/index.js";
import { dropStaged } from "../install/staged.js";
import { describeExtensions, findExtension } from "./describe.js";
import { removeExtension } from "./remove.js";
import {
  ManageError,
  type ExtensionSetSnapshot,
  type ExtensionInfo,
  type ExtensionManager,
  type UninstallReport,
} from "./types.js";
import { LedgerError, type Ledger, type LedgerReview } from "../ledger/index.js";
import type { AgentSwitches } from "../tools/agent-switches.js";

export interface FolderManagerDeps {
  support: SupportPaths;
  /** What is known now: the host's extension set, or a fresh discovery. */
  snapshot(): Promise<ExtensionSetSnapshot>;
  /** True inside the running host. */
  running: boolean;
  /** Brings the host in step after a change on disk (a rescan); nothing when svc is stopped. */
  rescan(): Promise<void>;
  preferences: PreferenceStore;
  secrets: SecretStore;
  /** A manual run; false when the extension is not loaded. Absent when svc is stopped. */
  runNow?(id: string): boolean;
  /** The permission ledger: accept records in it, uninstall forgets. */
  ledger: Ledger;
  /** The switches for AI agents: uninstall turns the extension's off. */
  switches: Pick<AgentSwitches, "clearExtension">;
}

/** The one-line answer for an id nobody has. */
export function unknownExtension(id: string): ManageError {
  return new ManageError(`no extension ${JSON.stringify(id)}; svc-host list shows them all`, "unknown-extension");
}

/**
 * @example
 * const manager = new FolderManager({ support, snapshot: async () => extensions.snapshot(), running: true,
 *   rescan: () => extensions.refresh(), preferences: trust.preferences, secrets: trust.secrets.store,
 *   runNow: (id) => scheduler.runNow(id, "manual") });
 * await manager.disable("com.example.ci");
 */
export class FolderManager implements ExtensionManager {
  constructor(private readonly deps: FolderManagerDeps) {}

  async list(): Promise<ExtensionInfo[]> {
    return describeExtensions(await this.deps.snapshot(), this.deps.running);
  }

  enable(id: string): Promise<void> {
    return this.setEnabled(id, true);
  }

  disable(id: string): Promise<void> {
    return this.setEnabled(id, false);
  }

  async uninstall(id: string): Promise<UninstallReport> {
    const snapshot = await this.deps.snapshot();
    const found = findExtension(snapshot, id);
    if (!found) throw unknownExtension(id);
    if (found.ext.source === "bundled") {
      throw new ManageError(
        `${id} comes with svc and cannot be uninstalled; turn it off instead: svc-host disable ${id}`,
        "not-allowed",
      );
    }
    // Unloaded first, so nothing writes its data folder while it goes.
    if (found.active && !snapshot.disabled.has(id)) {
      await setDisabled(this.deps.support.disabledFile, id, true);
      await this.deps.rescan();
    }
    const report = await removeExtension({
      support: this.deps.support,
      id,
      folder: found.ext.folder,
      secrets: this.deps.secrets,
      ledger: this.deps.ledger,
      switches: this.deps.switches,
    });
    // An update staged for it (svc-host install) goes too: it would have no installed version to update.
    await dropStaged(this.deps.support.root, id);
    await this.deps.rescan();
    return report;
  }

  async setOption(id: string, name: string, value: unknown, allowed?: string): Promise<void> {
    const found = findExtension(await this.deps.snapshot(), id);
    if (!found) throw unknownExtension(id);
    const manifest = found.ext.manifest;
    if (!manifest)
      throw new ManageError(`${id} cannot be loaded (${found.ext.error ?? "broken"}); fix that first`, "invalid");
    try {
      await this.deps.preferences.change(manifest, name, value, "settings", allowed);
    } catch (error) {
      if (error instanceof SecretStoreUnavailableError) throw new ManageError(error.message, "unavailable");
      if (error instanceof HostRuleError) throw new ManageError(error.message, "invalid");
      throw error;
    }
  }

  async run(id: string): Promise<void> {
    const snapshot = await this.deps.snapshot();
    const found = findExtension(snapshot, id);
    if (!found) throw unknownExtension(id);
    if (!this.deps.runNow)
      throw new ManageError(
        "svc is not running: start it (svc-host, or npm start in the clone), then run again",
        "not-running",
      );
    if (snapshot.disabled.has(id))
      throw new ManageError(`${id} is turned off: svc-host enable ${id} first`, "not-allowed");
    const problem = found.ext.error ?? snapshot.problems.get(id);
    if (!this.deps.runNow(id))
      throw new ManageError(
        `${id} is not loaded${problem ? `: ${problem}` : ""}; svc-host list shows why`,
        "not-allowed",
      );
  }

  async review(id: string): Promise<LedgerReview> {
    const found = findExtension(await this.deps.snapshot(), id);
    if (!found) throw unknownExtension(id);
    const { ext } = found;
    if (ext.source === "bundled")
      throw new ManageError(`${id} comes with svc: there is nothing to accept`, "not-allowed");
    if (!ext.manifest)
      throw new ManageError(`${id} cannot be loaded (${ext.error ?? "broken"}); fix that first`, "invalid");
    const standing = await this.deps.ledger.standing(id);
    if (standing.kind === "none" && (await this.deps.ledger.check(ext)).ok)
      throw new ManageError(
        `${id} is a dev link (svckit dev): it reloads as you build and needs no accepting`,
        "not-allowed",
      );
    return this.deps.ledger.review(ext);
  }

  async accept(id: string, reviewed: string): Promise<void> {
    await this.review(id);
    const found = findExtension(await this.deps.snapshot(), id)!;
    let accepted: boolean;
    try {
      accepted = await this.deps.ledger.accept(found.ext, reviewed);
    } catch (error) {
      if (error instanceof LedgerError) throw new ManageError(error.message, "unavailable");
      throw error;
    }
    if (!accepted)
      throw new ManageError(
        `${id} changed again since you reviewed it: review it again (svc-host accept ${id})`,
        "not-allowed",
      );
    await this.deps.rescan();
  }

  private async setEnabled(id: string, enabled: boolean): Promise<void> {
    const found = findExtension(await this.deps.snapshot(), id);
    if (!found) throw unknownExtension(id);
    if (await setDisabled(this.deps.support.disabledFile, id, !enabled)) await this.deps.rescan();
  }
}
