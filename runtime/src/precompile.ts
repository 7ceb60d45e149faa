/**
 * Fills the runtime's code cache ahead of an extension's first load: svc-host install calls it
 * once the package is unpacked, so even the first start skips QuickJS's parser.
 */
import { precompileBundle } from "@svc/sandbox";
import { BUNDLE_FILE, compiledCodeDir } from "./support-folder.js";

/**
 * Compiles `code` (an extension's `dist/index.js`) for extension `id` into
 * `<dataRoot>/.compiled-code`. Parses only, nothing runs; false when it did not compile
 * (the first load then reports why).
 *
 * @example await precompileExtension(join(support, "Data"), "com.example.ci", bundleText);
 */
export function precompileExtension(dataRoot: string, id: string, code: string): Promise<boolean> {
  return precompileBundle({ id, code, dir: compiledCodeDir(dataRoot), filename: BUNDLE_FILE }).catch(() => false);
}
