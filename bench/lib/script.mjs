// Lets a bench file be both a module (bench/run.mjs imports its `main`) and a script.
import { fileURLToPath } from "node:url";

/**
 * Runs `main` when `moduleUrl` is the file node was started with, then exits: 0, or 1 after
 * printing the error (a bench leaves no stray handle keeping the process up).
 *
 * @example
 * runIfScript(import.meta.url, main);
 */
export function runIfScript(moduleUrl, main) {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
