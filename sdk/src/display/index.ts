/** The one rule for text a stranger wrote that svc displays. */
export * from "./display-text.js";
