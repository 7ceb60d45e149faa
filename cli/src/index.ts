/**
 * svckit's public face, for tools that drive it in-process (create-svc, tests, editors):
 * `runCli` runs a command line against a given folder and output and returns the exit code.
 */
export { runCli, mainHelp, svckitVersion } from "./run.js";
export { runAsProcess } from "./process-entry.js";
export { CliError, EXIT, type ExitCode, isCliError } from "./errors.js";
export type { CommandContext, Output } from "./command.js";
export { supportFolder } from "./support-folder.js";
export { BUNDLE_SETTINGS } from "./bundle/bundle.js";
export { packCatalog, firstPartyKey, FIRST_PARTY_KEY_ENV, type CatalogBuild } from "./pack/catalog.js";
