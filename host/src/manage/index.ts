/**
 * Managing extensions without editing files: list, enable, disable, uninstall, set an option,
 * run. `FolderManager` does it inside the host (and on a stopped app's support folder); the
 * terminal's `svc-host` subcommands are `cli/`, the `/v1/extensions` routes `http/`.
 *
 * @example
 * const manager = new FolderManager({ support, secrets, preferences, ledger, switches, snapshot });
 * for (const ext of await manager.list()) console.log(ext.id, ext.status);
 */
export * from "./types.js";
export { FolderManager, unknownExtension, type FolderManagerDeps } from "./folder-manager.js";
export { describeExtensions, optionsOf } from "./describe.js";
export { removeExtension } from "./remove.js";
