/**
 * Picks how to manage: through the running app when one holds the support folder, else on the
 * folder directly (changes apply at the next start).
 */
import { discover } from "../discovery/index.js";
import { extensionRoots } from "../app/options.js";
import { ExtensionSecrets, KeyringSecretStore } from "../secrets/index.js";
import { PreferenceStore, preferencesFolder } from "../preferences/index.js";
import { readDisabled, runningHolder, type LockHolder, type SupportPaths } from "../support/index.js";
import { FolderManager } from "../manage/index.js";
import { HttpManager } from "./http-manager.js";
import type { ExtensionManager } from "../manage/index.js";
import { Ledger } from "../ledger/index.js";
import { AgentSwitches } from "../tools/agent-switches.js";
import { join } from "node:path";

export interface OpenedManager {
  manager: ExtensionManager;
  /** The running app, when the operations go to it. */
  app?: LockHolder;
}

/**
 * @example
 * const { manager, app } = await openManager(supportPaths(supportRoot()), bundledFolders);
 * console.log(app ? `svc is running (pid ${app.pid})` : "svc is not running");
 */
export async function openManager(support: SupportPaths, bundled: readonly string[]): Promise<OpenedManager> {
  const app = await runningHolder(support.lockFile);
  if (app) return { manager: new HttpManager(support.webhookFile), app };
  const roots = extensionRoots(bundled, support.extensions);
  const secrets = new KeyringSecretStore();
  const ledger = await Ledger.open({ supportRoot: support.root, secrets });
  const manager = new FolderManager({
    support,
    running: false,
    snapshot: async () => {
      const catalog = await discover(roots);
      // What the next start would hold back, told now.
      const problems = new Map<string, string>();
      for (const ext of catalog.active.filter((found) => found.source === "user")) {
        const verdict = await ledger.check(ext);
        if (!verdict.ok) problems.set(ext.id, verdict.problem);
      }
      return {
        catalog,
        disabled: await readDisabled(support.disabledFile),
        loaded: new Set(),
        statuses: new Map(),
        problems,
        held: new Set(problems.keys()),
        toolsOf: (id) => catalog.active.find((ext) => ext.id === id)?.tools.map((tool) => tool.id) ?? [],
      };
    },
    rescan: async () => {},
    preferences: new PreferenceStore({
      folder: preferencesFolder(support.root),
      secrets: new ExtensionSecrets(secrets),
      grants: ledger,
    }),
    secrets,
    ledger,
    // Written only when something changes: without svc running, nobody else holds the file.
    switches: {
      clearExtension: async (id) =>
        (await AgentSwitches.open(join(support.root, "agent-tools.json"), () => {})).clearExtension(id),
    },
  });
  return { manager };
}
