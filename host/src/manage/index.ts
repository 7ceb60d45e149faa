/**
 * Managing extensions without editing files: list, enable, disable, uninstall, set an option,
 * run. `FolderManager` does it inside the host (and on a stopped app's support folder),
 * `HttpManager` asks the running app over `/v1/extensions`, `openManager` picks one, and
 * `runManageCommand` is the `svc-host` subcommands.
 *
 * @example
 * const { manager } = await openManager(supportPaths(supportRoot()), bundled);
 * for (const ext of await manager.list()) console.log(ext.id, ext.status);
 */
export * from "./types.js";
export { FolderManager, type FolderManagerDeps } from "./folder-manager.js";
export { HttpManager } from "./http-manager.js";
export { openManager, type OpenedManager } from "./open-manager.js";
export { describeExtensions, optionsOf } from "./describe.js";
export { removeExtension } from "./remove.js";
export {
  runManageCommand,
  manageUsage,
  isManageCommand,
  MANAGE_COMMANDS,
  type ManageCommandName,
  type ManageContext,
} from "./command.js";
export { runManageCli } from "./cli.js";
export { terminalManageIo, type ManageIo } from "./terminal.js";
