/** The guest prelude's source (dist/guest-prelude.js, built by scripts/build-prelude.mjs), read once per thread. */
import { readFile } from "node:fs/promises";

let source: Promise<string> | undefined;

/**
 * @example const code = await preludeSource();
 */
export function preludeSource(): Promise<string> {
  source ??= readFile(new URL("../../dist/guest-prelude.js", import.meta.url), "utf8").catch(
    (error: NodeJS.ErrnoException) => {
      source = undefined;
      throw new Error(
        `the sandbox prelude is missing (${error.code ?? error.message}): run "npm run build -w sandbox"`,
      );
    },
  );
  return source;
}
