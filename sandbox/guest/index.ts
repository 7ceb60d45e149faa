/**
 * The prelude: runs first in every sandbox, before the extension's bundle. It captures the
 * bridge (bridge.ts deletes the raw globals), installs the web-platform globals, and leaves the
 * host its entry points under `__svc_entry`, which the host reads and deletes at once.
 * scripts/build-prelude.mjs bundles it to dist/guest-prelude.js, adding the network globals
 * (guest/fetch.ts, guest/websocket.ts) when they exist.
 */
import { bridge } from "./bridge.ts";
import { installConsole } from "./console.ts";
import { installCrypto } from "./crypto.ts";
import { installStructuredClone } from "./clone.ts";
import { installEncoding } from "./encoding.ts";
import { entry } from "./entry.ts";
import { installEvents } from "./events.ts";
import { installTimers } from "./timers.ts";
import { installUrl } from "./url.ts";

installEvents();
installEncoding();
installConsole(bridge);
installTimers(bridge);
installUrl(bridge);
installCrypto(bridge);
installStructuredClone();

/** Hands the entry points to the host; called last, after every optional part is installed. */
export function finish(): void {
  (globalThis as Record<string, unknown>).__svc_entry = entry;
}

export { bridge };
