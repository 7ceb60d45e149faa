/** The one rule for text a stranger wrote that svc displays, and short text for typed values. */
export * from "./display-text.js";
export * from "./format-value.js";
export * from "./speaker.js";
