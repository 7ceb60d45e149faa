/** Requests the host sends to the runtime (SPEC "Host to runtime requests"). */
import { z } from "zod";
import { isoDateSchema } from "@svc/api";
import { request } from "./define.js";
import { EmptySchema, ExtensionIdSchema, TriggerTypeSchema } from "./common.js";

const absolutePath = z
  .string()
  .min(1)
  .refine((p) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p), {
    message: "should be an absolute path",
  });

/**
 * `initialize`: the first request. `protocolVersion` is any integer here so that another
 * version is answered with UnsupportedProtocolVersion rather than InvalidParams. `dataDir` is
 * the support folder's `Data/` directory: extension `x.y` keeps its files in `<dataDir>/x.y/`.
 *
 * @example {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"dataDir":"/Users/me/Library/Application Support/Svc/Data","locale":"en-GB","timeZone":"Europe/London"}}
 */
export const Initialize = request(
  "initialize",
  z.object({
    protocolVersion: z.number().int(),
    dataDir: absolutePath,
    locale: z.string().optional(),
    timeZone: z.string().optional(),
  }),
  z.object({ protocolVersion: z.number().int(), runtimeVersion: z.string(), nodeVersion: z.string() }),
);

const PermissionsSchema = z.looseObject({
  network: z.array(z.string()).default([]),
  files: z.array(z.string()).default([]),
  exec: z.array(z.string()).default([]),
  runAnyCommand: z.boolean().default(false),
});

/**
 * The manifest as `extension.load` carries it: the `svc` object plus `version`. Only what the runtime uses is checked.
 */
export const LoadManifestSchema = z.looseObject({
  id: z.string().optional(),
  title: z.string().optional(),
  version: z.string().optional(),
  permissions: PermissionsSchema.default({ network: [], files: [], exec: [], runAnyCommand: false }),
});

/**
 * `extension.load`: (re)loads the extension's `dist/index.js` in a fresh sandbox and sends
 * `extension.tools` and `extension.status` `loaded`. With `lazy: true` (our addition) the runtime
 * only records it; its code loads on the first request that needs it (a tool run, a run, an
 * event, an action), which is how tools run without starting extension code at discovery.
 *
 * @example {"jsonrpc":"2.0","id":2,"method":"extension.load","params":{"id":"com.example.weather","path":"/x/Extensions/com.example.weather","manifest":{"id":"com.example.weather","version":"1.0.0","permissions":{"network":["api.example.com"]}},"preferences":{"city":"Oslo"}}}
 */
export const ExtensionLoad = request(
  "extension.load",
  z.object({
    id: ExtensionIdSchema,
    path: absolutePath,
    manifest: LoadManifestSchema,
    preferences: z.record(z.string(), z.unknown()).default({}),
    /**
     * Origins the person granted through `url` options (our addition), from the host's permission
     * ledger: the fence admits exactly these beside `manifest.permissions.network`. Kept outside
     * `manifest` so nothing the extension writes can add one.
     */
    grantedOrigins: z.array(z.string()).optional(),
    lazy: z.boolean().optional(),
  }),
  EmptySchema,
);

/** `extension.unload`: disposes the sandbox and forgets the extension. @example {"jsonrpc":"2.0","id":3,"method":"extension.unload","params":{"id":"com.example.weather"}} */
export const ExtensionUnload = request("extension.unload", z.object({ id: ExtensionIdSchema }), EmptySchema);

/**
 * `extension.run`: calls `update(ctx)`; resolves when it settles. `{}` for a tools-only extension.
 *
 * @example {"jsonrpc":"2.0","id":4,"method":"extension.run","params":{"id":"com.example.weather","trigger":{"type":"interval"}}}
 */
export const ExtensionRun = request(
  "extension.run",
  z.object({ id: ExtensionIdSchema, trigger: z.object({ type: TriggerTypeSchema }) }),
  z.object({ nextRunAfter: z.number().nonnegative().optional() }),
);

export const WebhookEventSchema = z.object({
  type: z.literal("webhook"),
  body: z.unknown(),
  /** When the request arrived, ISO 8601 (as every time in `@svc/api`: `emittedAt`, `connectedAt`). */
  receivedAt: isoDateSchema,
});
export const FileEventSchema = z.object({ type: z.literal("file"), paths: z.array(z.string()) });

/**
 * `extension.event`: calls `onEvent(ctx, event)`; `replyId` (when a reply is awaited) is put on
 * the event, and only that extension may answer it with `ctx.respond`.
 *
 * @example {"jsonrpc":"2.0","id":5,"method":"extension.event","params":{"id":"com.example.ci","event":{"type":"webhook","body":{"ok":true},"receivedAt":"2026-01-01T00:00:00.000Z"},"replyId":"r-1"}}
 */
export const ExtensionEvent = request(
  "extension.event",
  z.object({
    id: ExtensionIdSchema,
    event: z.discriminatedUnion("type", [WebhookEventSchema, FileEventSchema]),
    replyId: z.string().min(1).max(256).optional(),
  }),
  EmptySchema,
);

/**
 * `extension.action`: calls `onAction(ctx, {blipId, key, actionId, input, itemId})`. The result
 * names each blip the extension updated (`blip.update` or `blip.end`) while the action ran, with
 * the seq of its last update; it is sent after those notifications.
 *
 * @example {"jsonrpc":"2.0","id":6,"method":"extension.action","params":{"id":"com.example.ci","blipId":"com.example.ci/build","actionId":"retry"}}
 */
export const ExtensionAction = request(
  "extension.action",
  z.object({
    id: ExtensionIdSchema,
    blipId: z.string().min(1),
    actionId: z.string().min(1),
    input: z.unknown().optional(),
    itemId: z.string().optional(),
  }),
  z.object({ emitted: z.record(z.string(), z.number().int()).optional() }),
);

/** A result block as it crosses the pipe; the SDK's schema checked it before it was sent. */
const BlockSchema = z.looseObject({ type: z.string() });

/** Names one tool run so `tool.cancel` can reach it (our addition). */
const RunIdSchema = z.string().min(1).max(64);

/**
 * `tool.run`: runs one action of one tool with the values normalized against its spec. `runId`
 * (our addition) names the run for `tool.cancel`.
 *
 * @example {"jsonrpc":"2.0","id":7,"method":"tool.run","params":{"id":"com.example.dev","tool":"jwt","action":"decode","values":{"token":"eyJ…"}}}
 */
export const ToolRun = request(
  "tool.run",
  z.object({
    id: ExtensionIdSchema,
    tool: z.string().min(1),
    action: z.string(),
    values: z.record(z.string(), z.unknown()).default({}),
    runId: RunIdSchema.optional(),
  }),
  z.object({ blocks: z.array(BlockSchema) }),
);

/**
 * `tool.cancel` (our addition; SPEC.md has no cancel): aborts the `ctx.signal` of the run with
 * that `runId`, which then answers -32006 `tool "<name>" was cancelled` at once.
 * `cancelled` is false when no such run is under way.
 *
 * @example {"jsonrpc":"2.0","id":9,"method":"tool.cancel","params":{"id":"com.example.dev","runId":"r-17"}}
 */
export const ToolCancel = request(
  "tool.cancel",
  z.object({ id: ExtensionIdSchema, runId: RunIdSchema }),
  z.object({ cancelled: z.boolean() }),
);

/**
 * `tool.drop`: hands dropped files to the tool's `drop()`.
 *
 * @example {"jsonrpc":"2.0","id":8,"method":"tool.drop","params":{"id":"com.example.img","tool":"shrink","action":"png","files":["/Users/me/a.png"]}}
 */
export const ToolDrop = request(
  "tool.drop",
  z.object({ id: ExtensionIdSchema, tool: z.string().min(1), action: z.string(), files: z.array(absolutePath) }),
  z.object({ message: z.string(), outputs: z.array(z.string()), copiedText: z.string().optional() }),
);

/** `shutdown`: answered, then sandboxes are disposed, files flushed and the process exits 0. @example {"jsonrpc":"2.0","id":9,"method":"shutdown","params":{}} */
export const Shutdown = request("shutdown", EmptySchema, EmptySchema);

/**
 * Test-only (served when the env `SVC_RUNTIME_TEST_HOOKS=1`): moves the runtime's clock (the one
 * the crash-restart window reads) forward by `ms`. Answers the clock's new time.
 *
 * @example {"jsonrpc":"2.0","id":10,"method":"test.advanceClock","params":{"ms":300000}}
 */
export const TestAdvanceClock = request(
  "test.advanceClock",
  z.object({ ms: z.number().int().nonnegative() }),
  z.object({ now: z.number() }),
);
