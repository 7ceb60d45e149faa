/** File watching: hot reload of extension folders, and `triggers.watch` file events. */
export * from "./debounce.js";
export * from "./extension-watcher.js";
export * from "./file-triggers.js";
