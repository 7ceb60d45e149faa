/**
 * The app's local HTTP API (`/v1`), declared once: each route's method, path, body and answer.
 * svc-host's server registers its routes from this table (host/src/http/, which a test holds to
 * exactly these), and every local client (svc-hook, svckit, `svc-host` subcommands, the desktop
 * shell) names a route from it instead of spelling the path again. Error answers are
 * {@link v1ErrorSchema} on every route.
 *
 * A path's `:name` parts are filled by {@link v1Path}. `:id` under `/v1/blips/` may hold `/`
 * (`webhook/deploy`): it is sent percent-encoded and the server takes it either way.
 */
import { z } from "zod";
import { blipStateSchema } from "./states.js";

export type V1Method = "GET" | "POST" | "PUT" | "DELETE";

/** One route. `body` absent: the request has none. `stream`: the answer is server-sent events. */
export interface V1Route {
  method: V1Method;
  path: string;
  body?: z.ZodType;
  answer: z.ZodType;
  stream?: true;
}

/** Every error answer: one line for a person, with the fix. */
export const v1ErrorSchema = z.object({ error: z.string() });

const ok = z.object({ ok: z.literal(true) });
/** What an extension's tool, hook or option answers is its own: the server passes it on. */
const passedOn = z.unknown();
const schedulerState = z.object({ paused: z.boolean(), onBattery: z.boolean() });

/** `GET /v1/extensions`'s entries (host/src/manage/types.ts `ExtensionInfo`; never an option's value). */
export const v1ExtensionInfoSchema = z.object({
  id: z.string(),
  title: z.string().optional(),
  version: z.string().optional(),
  origin: z.enum(["bundled", "user", "dev"]),
  folder: z.string(),
  enabled: z.boolean(),
  status: z.string(),
  tools: z.array(z.string()),
  error: z.string().optional(),
  options: z.array(
    z.object({
      name: z.string(),
      title: z.string(),
      type: z.string(),
      required: z.boolean(),
      choices: z.array(z.string()).optional(),
    }),
  ),
});

export const V1_ROUTES = {
  /** Needs no token: the server proves it holds it (@svc/runtime's app-link.ts). */
  proof: { method: "GET", path: "/v1/proof", answer: z.object({ proof: z.string() }) },
  health: { method: "GET", path: "/v1/health", answer: z.object({ ok: z.literal(true), version: z.string() }) },
  /** The body is one push payload or an array of them (checked by `preparePush`). */
  pushBlips: {
    method: "POST",
    path: "/v1/blips",
    body: z.unknown(),
    answer: z.object({ ok: z.literal(true), blips: z.array(z.object({ id: z.string(), seq: z.number() })) }),
  },
  endBlip: {
    method: "POST",
    path: "/v1/blips/:id/end",
    body: z.object({ state: blipStateSchema.optional(), dismissAfter: z.number().min(0).optional() }).optional(),
    answer: z.object({ ok: z.literal(true), id: z.string(), seq: z.number() }),
  },
  removeBlip: {
    method: "DELETE",
    path: "/v1/blips/:id",
    answer: z.object({ ok: z.literal(true), id: z.string() }),
  },
  logs: { method: "GET", path: "/v1/logs", answer: z.string(), stream: true },
  /** The body is the extension's event; with `?await=<s>` the answer is the extension's reply. */
  hook: { method: "POST", path: "/v1/hooks/:extensionId", body: z.unknown(), answer: passedOn },
  uiTicket: { method: "POST", path: "/v1/ui/tickets", answer: z.object({ url: z.string() }) },
  listExtensions: {
    method: "GET",
    path: "/v1/extensions",
    answer: z.object({ extensions: z.array(v1ExtensionInfoSchema) }),
  },
  enableExtension: { method: "POST", path: "/v1/extensions/:id/enable", answer: ok },
  disableExtension: { method: "POST", path: "/v1/extensions/:id/disable", answer: ok },
  runExtension: { method: "POST", path: "/v1/extensions/:id/run", answer: ok },
  setOption: {
    method: "PUT",
    path: "/v1/extensions/:id/options/:name",
    body: z.object({ value: z.unknown(), allowed: z.string().optional() }),
    answer: ok,
  },
  /** The ledger's review of the extension as it is on disk now (host/src/ledger `LedgerReview`). */
  reviewExtension: {
    method: "GET",
    path: "/v1/extensions/:id/review",
    answer: z.object({ id: z.string(), reviewed: z.string() }).passthrough(),
  },
  acceptExtension: {
    method: "POST",
    path: "/v1/extensions/:id/accept",
    body: z.object({ reviewed: z.string() }),
    answer: ok,
  },
  uninstallExtension: {
    method: "DELETE",
    path: "/v1/extensions/:id",
    answer: z.object({
      id: z.string(),
      removed: z.array(z.string()),
      secrets: z.array(z.string()),
      problems: z.array(z.string()),
    }),
  },
  scheduler: { method: "GET", path: "/v1/scheduler", answer: schedulerState },
  pauseScheduler: { method: "POST", path: "/v1/scheduler/pause", answer: ok.extend({ paused: z.literal(true) }) },
  resumeScheduler: { method: "POST", path: "/v1/scheduler/resume", answer: ok.extend({ paused: z.literal(false) }) },
  onBattery: { method: "POST", path: "/v1/scheduler/on-battery", answer: ok.extend({ onBattery: z.literal(true) }) },
  onPower: { method: "POST", path: "/v1/scheduler/on-power", answer: ok.extend({ onBattery: z.literal(false) }) },
  listTools: { method: "GET", path: "/v1/tools", answer: z.object({ tools: z.array(z.unknown()) }) },
  runTool: { method: "POST", path: "/v1/tools/:extensionId/:tool", body: z.unknown().optional(), answer: passedOn },
  dropOnTool: { method: "POST", path: "/v1/tools/:extensionId/:tool/drop", body: z.unknown(), answer: passedOn },
  setToolAgents: { method: "PUT", path: "/v1/tools/:extensionId/:tool/agents", body: z.unknown(), answer: passedOn },
  giveFiles: { method: "POST", path: "/v1/given-files", body: z.unknown(), answer: passedOn },
} as const satisfies Record<string, V1Route>;

export type V1RouteName = keyof typeof V1_ROUTES;

/** The `:name` parts of a path, e.g. `"id" | "name"` for `/v1/extensions/:id/options/:name`. */
type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a route's path needs (none for a path without `:` parts). */
export type V1Params<N extends V1RouteName> = Record<ParamsOf<(typeof V1_ROUTES)[N]["path"]>, string>;

/**
 * A route's path with its `:name` parts filled, each percent-encoded.
 *
 * @example
 * v1Path("setOption", { id: "deploys", name: "token" }) // "/v1/extensions/deploys/options/token"
 */
export function v1Path<N extends V1RouteName>(name: N, params: V1Params<N>): string {
  const values = params as Record<string, string>;
  return V1_ROUTES[name].path.replace(/:([A-Za-z]+)/g, (_all, part: string) => {
    const value = values[part];
    if (value === undefined) throw new Error(`${name}: no value for :${part}`);
    return encodeURIComponent(value);
  });
}
