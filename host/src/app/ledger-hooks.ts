/**
 * The host's side of the permission ledger (host/src/ledger): opened at start with the host's
 * secret store, and said plainly in the terminal where its key is, what it recorded when it was
 * new, and when approvals cannot be checked.
 */
import { Ledger, migrationNote } from "../ledger/index.js";
import type { SecretStore } from "../secrets/index.js";
import type { AppLogLevel } from "../display/index.js";
import { LINUX_SECRET_SERVICE_FIX } from "./trust.js";

/**
 * @example
 * const ledger = await openLedger(support.root, trust.secrets.store, log);
 * new ExtensionSet({ …, approve: (ext) => ledger.check(ext) });
 */
export async function openLedger(
  supportRoot: string,
  store: SecretStore,
  log: (level: AppLogLevel, message: string) => void,
): Promise<Ledger> {
  const ledger = await Ledger.open({ supportRoot, secrets: store });
  const fix = process.platform === "linux" ? `; to use one: ${LINUX_SECRET_SERVICE_FIX}` : "";
  if (ledger.unusable)
    log("warn", `permission ledger ${ledger.file}: ${ledger.unusable}; installed extensions stay unloaded until then`);
  else if (ledger.place === "key-file")
    log(
      "warn",
      `permission ledger ${ledger.file}: no secret store (${ledger.storeProblem}), so its key is in ${ledger.keyFile} (mode 0600): a program running as you can read it and forge an approval${fix}`,
    );
  else log("info", `permission ledger ${ledger.file}: approvals are signed with a key kept in the secret store`);
  if (ledger.migrated.length) log("info", migrationNote(ledger.migrated));
  return ledger;
}
