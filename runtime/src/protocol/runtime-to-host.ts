/** Notifications the runtime sends to the host (SPEC "Runtime to host notifications"). */
import { z } from "zod";
import { notification } from "./define.js";
import { ExtensionIdSchema, LogLevelSchema, StatusSchema } from "./common.js";
import { DENIAL_TARGET_CHARS, DENIAL_TEXT_CHARS } from "./denial-line.js";

/** A complete, stamped blip payload. The SDK schema validated it; only the stamps are restated here. */
export const StampedPayloadSchema = z.looseObject({
  id: z.string(),
  seq: z.number().int().positive(),
  emittedAt: z.union([z.number(), z.string()]),
  v: z.literal(1),
});

/** @example {"jsonrpc":"2.0","method":"blip.update","params":{"extensionId":"com.example.ci","payload":{"id":"com.example.ci/build","title":"Build","layout":"stat","data":{},"seq":3,"emittedAt":1767225600000,"v":1}}} */
export const BlipUpdate = notification(
  "blip.update",
  z.object({ extensionId: ExtensionIdSchema, payload: StampedPayloadSchema }),
);

/** @example {"jsonrpc":"2.0","method":"blip.end","params":{"extensionId":"com.example.ci","id":"com.example.ci/build","seq":4,"state":"success","dismissAfter":30}} */
export const BlipEnd = notification(
  "blip.end",
  z.object({
    extensionId: ExtensionIdSchema,
    id: z.string(),
    seq: z.number().int().positive(),
    state: z.string().optional(),
    dismissAfter: z.number().nonnegative().optional(),
  }),
);

/** @example {"jsonrpc":"2.0","method":"blip.remove","params":{"extensionId":"com.example.ci","id":"com.example.ci/build"}} */
export const BlipRemove = notification("blip.remove", z.object({ extensionId: ExtensionIdSchema, id: z.string() }));

/** @example {"jsonrpc":"2.0","method":"extension.status","params":{"extensionId":"com.example.ci","status":"idle","heapUsed":1843200,"cpuMs":12}} */
export const ExtensionStatusChanged = notification(
  "extension.status",
  z.object({
    extensionId: ExtensionIdSchema,
    status: StatusSchema,
    heapUsed: z.number().nonnegative().optional(),
    cpuMs: z.number().nonnegative().optional(),
    error: z.string().optional(),
  }),
);

/** Every valid tool in canonical form (every default spelled out). @example {"jsonrpc":"2.0","method":"extension.tools","params":{"extensionId":"com.example.dev","tools":[{"id":"jwt","title":"JWT","icon":"key", "…": "…"}]}} */
export const ExtensionTools = notification(
  "extension.tools",
  z.object({ extensionId: ExtensionIdSchema, tools: z.array(z.looseObject({ id: z.string() })) }),
);

/** @example {"jsonrpc":"2.0","method":"webhook.respond","params":{"replyId":"r-1","status":200,"body":{"ok":true}}} */
export const WebhookRespond = notification(
  "webhook.respond",
  z.object({ replyId: z.string(), status: z.number().int().min(100).max(599), body: z.unknown() }),
);

/** What the sandbox refused: sandbox/src/types.ts `Denial`, the record the fence keeps. */
export const DenialSchema = z.object({
  kind: z.enum(["fetch", "websocket", "exec", "file", "module"]),
  /** What was asked for (a URL, an executable, a path, a module name), cut to {@link DENIAL_TARGET_CHARS}. */
  target: z.string().max(DENIAL_TARGET_CHARS + 1),
  /** Why, for a person. */
  reason: z.string().max(DENIAL_TEXT_CHARS),
  /** The manifest change that would allow it, when there is one. */
  fix: z.string().max(DENIAL_TEXT_CHARS).optional(),
  /** When, in ms since the epoch. */
  at: z.number(),
});
export type DenialRecord = z.output<typeof DenialSchema>;

/**
 * A sandbox refusal, as data (our addition): Settings' "Recently refused" lists these and nothing
 * else. The runtime also says it as a `warn` log line ({@link denialLine}) for the terminal and
 * `svckit dev`; the host never reads a log line's text.
 *
 * @example {"jsonrpc":"2.0","method":"extension.denied","params":{"extensionId":"com.example.ci","denial":{"kind":"fetch","target":"x.example.com","reason":"\"x.example.com\" is not in permissions.network","fix":"add \"x.example.com\" to svc.permissions.network in package.json","at":1767225600000}}}
 */
export const ExtensionDenied = notification(
  "extension.denied",
  z.object({ extensionId: ExtensionIdSchema, denial: DenialSchema }),
);

/** @example {"jsonrpc":"2.0","method":"log","params":{"extensionId":"com.example.ci","level":"warn","message":"fetch denied: …"}} */
export const Log = notification(
  "log",
  z.object({ extensionId: ExtensionIdSchema.optional(), level: LogLevelSchema, message: z.string() }),
);
