/** Discovery: which extensions exist, which win, which are broken and why. */
export * from "./types.js";
export * from "./read-folder.js";
export * from "./catalog.js";
export * from "./bundled-list.js";
