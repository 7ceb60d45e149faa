/**
 * The prelude: runs first in every sandbox, before the extension's bundle. It captures the
 * bridge (bridge.ts deletes the raw globals), installs the small globals at once and the larger
 * ones lazily (lazy.ts), and leaves the host its entry points under `__svc_entry`, which the
 * host reads and deletes at once. scripts/build-prelude.mjs bundles it to dist/guest-prelude.js.
 */
import { bridge } from "./bridge.ts";
import { installConsole } from "./console.ts";
import { installCrypto } from "./crypto.ts";
import * as encoding from "./encoding.ts";
import { entry } from "./entry.ts";
import * as errors from "./errors.ts";
import * as events from "./events.ts";
import type { IntlApi } from "./intl.ts";
import { installLazyParts, type LazyPart } from "./lazy.ts";
import { installLocaleMethods } from "./locale-methods.ts";
import { installLocalTime } from "./local-time.ts";
import { installAnchoredRegExp } from "./anchored-regexp.ts";
import { installUnicodeSets } from "./unicode-sets.ts";
import { installTimers } from "./timers.ts";

/** Modules a lazy part shares with the core instead of bundling its own copy. */
const SHARED = { events, encoding, errors };

/**
 * Installs everything and hands the entry points to the host.
 *
 * @example start(PARTS) // called once by the generated prelude entry
 */
export function start(parts: Record<string, LazyPart>): void {
  installLocalTime();
  installAnchoredRegExp();
  events.installEvents();
  installConsole(bridge);
  installTimers(bridge);
  const loaders = installLazyParts(parts, bridge, SHARED);
  installCrypto(bridge, loaders.subtle);
  installUnicodeSets(loaders["unicode-sets-translate"] as () => (source: string) => string);
  const loadIntl = loaders.intl as () => IntlApi;
  installLocaleMethods(loadIntl);
  (globalThis as Record<string, unknown>).__svc_entry = entry;
}
