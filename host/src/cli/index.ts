/**
 * The terminal face of managing extensions: the `svc-host list`, `enable`, `disable`,
 * `uninstall`, `accept`, `set` and `run` subcommands. `openManager` picks who answers: the
 * running app over `/v1/extensions` (`HttpManager`), or the support folder when svc is stopped
 * (`FolderManager`, manage/).
 *
 * @example
 * const { manager } = await openManager(supportPaths(supportRoot()), bundled);
 * for (const ext of await manager.list()) console.log(ext.id, ext.status);
 */
export { HttpManager } from "./http-manager.js";
export { openManager, type OpenedManager } from "./open-manager.js";
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
