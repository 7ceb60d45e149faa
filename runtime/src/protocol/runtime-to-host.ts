/** Notifications the runtime sends to the host (SPEC "Runtime to host notifications"). */
import { z } from "zod";
import { notification } from "./define.js";
import { ExtensionIdSchema, LogLevelSchema, StatusSchema } from "./common.js";

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

/** @example {"jsonrpc":"2.0","method":"log","params":{"extensionId":"com.example.ci","level":"warn","message":"fetch denied: …"}} */
export const Log = notification(
  "log",
  z.object({ extensionId: ExtensionIdSchema.optional(), level: LogLevelSchema, message: z.string() }),
);
