/**
 * The permission ledger: what the person approved for each installed extension (its manifest,
 * tools and the digest of every file), authenticated with a key from the secret store, and the
 * check made at every load. See host/README.md "Permission ledger".
 *
 * @example
 * const ledger = await Ledger.open({ supportRoot, secrets });
 * const verdict = await ledger.check(discovered); // { ok: false, problem: "changed on disk since you installed it: …" }
 */
export {
  Ledger,
  LedgerError,
  CHANGED_ON_DISK,
  LEDGER_FILE,
  LEDGER_KEY_FILE,
  describeChanges,
  migrationNote,
  type Standing,
  type Verdict,
  type LedgerReview,
  type FoundExtension,
} from "./ledger.js";
export { type Approval, canonicalJson } from "./approval.js";
export { ledgerKeyAccount, LEDGER_KEY_SERVICE, type LedgerKeyPlace } from "./ledger-key.js";
export { digestFiles, compareFiles, type FileChanges, type FileDigests } from "./package-files.js";
export { keepRevocation, lostKeyOf, revocationOf, revokedProblem, shownKey, REVOCATIONS_FILE } from "./revocations.js";
