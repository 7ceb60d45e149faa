/**
 * @svc/host — svc-host, the app core minus the UI: discovery and hot reload of extensions,
 * scheduling, triggers, runtime supervision, the blip store, the local HTTP server, a
 * terminal display, and the trust pieces (secrets, preferences, OAuth, installing `.svc` files).
 */
export { startHost, type Host } from "./app/host.js";
export { settingsFromEnv, extensionRoots, type HostOptions, type EnvSettings } from "./app/options.js";
export { ExtensionSet } from "./app/extension-set.js";
export { openTrust, type Trust, type TrustOptions, type TrustServices } from "./app/trust.js";
export { urlOpener, type OpenUrl, type UrlOpenerOptions } from "./app/open-url.js";
export * from "./clock/index.js";
export * from "./scheduler/index.js";
export * from "./discovery/index.js";
export * from "./events/index.js";
export * from "./display/index.js";
export * from "./preferences/index.js";
export * from "./watch/index.js";
export * from "./supervisor/index.js";
export * from "./control/index.js";
export * from "./secrets/index.js";
export * from "./oauth/index.js";
export * from "./install/index.js";
export * from "./review/index.js";
