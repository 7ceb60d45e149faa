/**
 * @svc/sandbox — one QuickJS-ng WebAssembly interpreter per extension, and the fenced bridge to
 * the host. `SandboxPool` runs sandboxes on sandbox threads (the normal way); `Sandbox` runs one in
 * the current thread (svckit's quick one-shot loads; no watchdog there).
 */
export * from "./types.js";
export { SandboxPool, type SandboxPoolOptions } from "./threads/pool.js";
export { REPLAY_ENV, replayFiles, TEST_NOW_ENV, testClock } from "./test-switches.js";
export { Sandbox, type SandboxEnvironment } from "./sandbox.js";
export {
  createCapabilities,
  type Capabilities,
  type CapabilityOptions,
  type FetchHop,
  type FetchTransport,
} from "./capabilities/index.js";
// The HTTP recording (also @svc/sandbox/recording, which the test kit passes on to authors).
export * from "./capabilities/http-recording.js";
export { precompileBundle } from "./engine/compile-apart.js";
export { SandboxError, type SandboxErrorCode } from "./errors.js";
export {
  DEFAULT_LIMITS,
  MAX_BUNDLE_CHARS,
  MAX_EMIT_JSON_CHARS,
  MAX_CALL_JSON_CHARS,
  MAX_RESULT_JSON_CHARS,
  MAX_LOG_CHARS,
  WATCHDOG_MARGIN_MS,
  MEMORY_HEADROOM_BYTES,
  checkBundleSize,
} from "./limits.js";
export type { SandboxThreadStats } from "./threads/thread-messages.js";
export { classifyAddress, type AddressClass } from "./capabilities/address-guard.js";
/** What the fence enforces for each manifest entry, for the install review to show (it calls the same functions). */
export {
  canonicalNetworkEntry,
  networkEntryClass,
  networkEntryText,
  canonicalOrigin,
  originText,
  type GrantedOrigin,
  type HostPattern,
} from "./capabilities/network-policy.js";
export {
  resolveListedPath,
  classifyPath,
  holdsSupportFolder,
  refusedPath,
  expandHome,
  isInside,
  type ListedPath,
  type PathClass,
  type PathKind,
  type PathPlaces,
} from "./capabilities/listed-paths.js";
export { EXEC_OWNER_VARIABLE, killTagged, newTagPrefix } from "./capabilities/process-tags.js";
export { BUNDLE_PREFIX } from "./engine/compiled-code/compiled-scripts.js";
export { PRELUDE_FILENAME } from "./engine/compiled-prelude.js";
