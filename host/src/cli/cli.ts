/**
 * The `svc-host` subcommands' entry: the support folder and bundled extensions from the
 * environment (as the host itself reads them), the process's terminal, the exit code.
 */
import { fileURLToPath } from "node:url";
import { settingsFromEnv } from "../app/options.js";
import { supportPaths, supportRoot } from "../support/index.js";
import { runManageCommand, type ManageCommandName } from "./command.js";
import { openManager } from "./open-manager.js";
import { terminalManageIo } from "./terminal.js";

/**
 * @example
 * if (isManageCommand(first)) process.exitCode = await runManageCli(first, rest);
 */
export function runManageCli(command: ManageCommandName, argv: readonly string[]): Promise<number> {
  // host/dist/manage/ → the repository's extensions/, as host/dist/main.js finds them.
  const defaultBundled = fileURLToPath(new URL("../../../extensions/", import.meta.url));
  const io = terminalManageIo();
  const { bundled } = settingsFromEnv(process.env, defaultBundled, (message) => io.err(`svc-host: ${message}\n`));
  return runManageCommand(command, argv, { io, open: () => openManager(supportPaths(supportRoot()), bundled) });
}
