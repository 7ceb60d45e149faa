/** The one rule for text a stranger wrote that svc displays, short text for typed values, and the sign-in sentence. */
export * from "./display-text.js";
export * from "./format-value.js";
export * from "./speaker.js";
export * from "./sign-in.js";
