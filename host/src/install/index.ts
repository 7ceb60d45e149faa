/**
 * Installing a `.svc` package (SPEC.md "svckit pack": "The app installs it after showing what
 * the extension is and what it can reach"): safe unpacking, manifest and code checks, a
 * plain-words summary with risky reach marked (`review/`), confirmation, an atomic move into place.
 *
 * @example
 * await installPackage("deploys-1.2.0.svc", { supportDir, confirm: (s) => ask(s.text) });
 * process.exitCode = await runInstallCommand(argv, terminalIo(supportDir)); // svc-host install
 */
export { installPackage, type InstallOptions, type InstallResult } from "./install-package.js";
export {
  runInstallCommand,
  runAcceptStagedCommand,
  terminalIo,
  INSTALL_USAGE,
  type InstallIo,
} from "./install-command.js";
export { summarize, type InstallSummary, type InstalledVersion } from "../review/index.js";
export {
  reachOf,
  gainedReach,
  grantQuestion,
  type GrantQuestion,
  type ReachItem,
  type ReachPlaces,
} from "../review/index.js";
export { unpackPackage, type Unpacked } from "./unpack.js";
export { InstallError, PACKAGE_LIMITS } from "../review/index.js";
export { hasStaged, stagedPath, stagedLabel, dropStaged, type StagedLabel } from "./staged.js";
export { runRevokeCommand, REVOKE_USAGE } from "./revoke-command.js";
export { checkForUpdate, runUpdateCommand, updateMessage, UPDATE_USAGE, type UpdateOutcome } from "./update-check.js";
export { fetchPackage, isAddress, DOWNLOAD_LIMITS } from "./fetch-package.js";
