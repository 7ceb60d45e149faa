/**
 * The bundle's `require`. Nothing can be required: svckit inlines every dependency, and Node's
 * modules do not exist here. The host words the refusal (with a suggestion where there is one)
 * and records it as a denial, so the message is the same for `require` and `import()`.
 */
import type { Bridge } from "./bridge.ts";

export function makeRequire(bridge: Bridge): (name: string) => never {
  return function require(name: string): never {
    bridge.callSync("module.require", { name: String(name) });
    throw new Error(`module "${String(name)}" is not available in the extension sandbox`);
  };
}
