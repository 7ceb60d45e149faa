/**
 * @svc/host — svc-host, the app core minus the UI: discovery and hot reload of extensions,
 * scheduling, triggers, runtime supervision, the blip store, the local HTTP server and a
 * terminal display.
 */
export { startHost, type Host } from "./app/host.js";
export { settingsFromEnv, extensionRoots, type HostOptions, type EnvSettings } from "./app/options.js";
export { ExtensionSet } from "./app/extension-set.js";
export * from "./clock/index.js";
export * from "./scheduler/index.js";
export * from "./discovery/index.js";
export * from "./display/index.js";
export * from "./preferences/index.js";
export * from "./watch/index.js";
export * from "./supervisor/index.js";
export * from "./control/index.js";
