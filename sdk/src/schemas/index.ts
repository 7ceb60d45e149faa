/**
 * The zod schemas of @svc/api: the single source of truth for payloads, layouts, typed values,
 * result blocks, tool specs, the manifest and the host records. Types are inferred from them.
 */
export * from "./limits.js";
export * from "./text.js";
export * from "./values.js";
export * from "./states.js";
export * from "./actions.js";
export * from "./layouts.js";
export * from "./payload.js";
export * from "./blocks.js";
export * from "./fields.js";
export * from "./tool-spec.js";
export * from "./permissions.js";
export * from "./programs.js";
export * from "./preferences.js";
export * from "./oauth.js";
export * from "./manifest.js";
export * from "./records.js";
export * from "./catalog.js";
export * from "./v1-routes.js";
