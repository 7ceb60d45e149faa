/**
 * The app's local HTTP API (`/v1`), declared once: each route's method, path, body and answer.
 * Both sides import it. svc-host's server registers every route from this table and checks each
 * request's body with {@link checkV1Body} before its handler runs (host/src/http/serve.ts; a test
 * holds the server to exactly these routes); the one client (@svc/runtime's app-client.ts) fills
 * the path from it and checks each answer with {@link checkV1Answer}. Error answers are
 * {@link v1ErrorSchema} on every route.
 *
 * A body schema's messages are what the server answers (400) when a body does not fit: each check
 * carries its own line for the person, with the shape to send.
 *
 * A path's `:name` parts are filled by {@link v1Path}. `:id` under `/v1/blips/` may hold `/`
 * (`webhook/deploy`): it is sent percent-encoded and the server takes it either way.
 */
import { z } from "zod";
import { BLIP_STATES } from "./states.js";

export type V1Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * One route. `body` absent: the request's body is not read; a body schema made `.optional()`: the
 * request may have none. `stream`: the answer is a stream (not checked as one JSON value).
 * `relayed`: the extension chooses the answer's status and body, so neither is checked.
 */
export interface V1Route {
  method: V1Method;
  path: string;
  body?: z.ZodType;
  answer: z.ZodType;
  stream?: true;
  relayed?: true;
}

/** Every error answer: one line for a person, with the fix. */
export const v1ErrorSchema = z.object({ error: z.string() });

const ok = z.object({ ok: z.literal(true) });
/** What an extension's tool, hook or option answers is its own: the server passes it on. */
const passedOn = z.unknown();
const SET_OPTION_BODY =
  'the body should be {"value": <the new value, or null to clear it>} (a server address also "allowed": <the origin the person allowed>)';
const ACCEPT_BODY = 'the body should be {"reviewed": "<the reviewed value GET …/review answered>"}';
const TOOL_AGENTS_BODY = 'the body should be {"enabled": true} or {"enabled": false}';
const GIVE_FILES_BODY = 'the body should be {"path": "<absolute path of the file>"}';
const DISMISS_AFTER = 'invalid end: "dismissAfter" should be a number of seconds, 0 or more';

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
    body: z
      .object(
        {
          state: z
            .enum(BLIP_STATES, { error: `invalid end: "state" should be one of ${BLIP_STATES.join(", ")}` })
            .optional(),
          dismissAfter: z.number({ error: DISMISS_AFTER }).min(0, { error: DISMISS_AFTER }).optional(),
        },
        { error: 'invalid end: the body should be an object like {"state": "success", "dismissAfter": 30}' },
      )
      .optional(),
    answer: z.object({ ok: z.literal(true), id: z.string(), seq: z.number() }),
  },
  removeBlip: {
    method: "DELETE",
    path: "/v1/blips/:id",
    answer: z.object({ ok: z.literal(true), id: z.string() }),
  },
  logs: { method: "GET", path: "/v1/logs", answer: z.string(), stream: true },
  /** The body is the extension's event; with `?await=<s>` the answer is the extension's reply. */
  hook: { method: "POST", path: "/v1/hooks/:extensionId", body: z.unknown(), answer: passedOn, relayed: true },
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
    body: z.object(
      {
        // `null` clears the option; a missing value is a mistake, not a clear.
        value: z.unknown().refine((value) => value !== undefined, { error: SET_OPTION_BODY }),
        allowed: z.string({ error: SET_OPTION_BODY }).optional(),
      },
      { error: SET_OPTION_BODY },
    ),
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
    body: z.object({ reviewed: z.string({ error: ACCEPT_BODY }) }, { error: ACCEPT_BODY }),
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
  setToolAgents: {
    method: "PUT",
    path: "/v1/tools/:extensionId/:tool/agents",
    body: z.strictObject({ enabled: z.boolean({ error: TOOL_AGENTS_BODY }) }, { error: TOOL_AGENTS_BODY }),
    answer: z.object({ id: z.string(), agents: z.boolean() }),
  },
  /** The path is checked by the host (an existing regular file): its refusal says which. */
  giveFiles: {
    method: "POST",
    path: "/v1/given-files",
    body: z.strictObject({ path: z.unknown().optional() }, { error: GIVE_FILES_BODY }),
    answer: z.object({ handle: z.string() }),
  },
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

/** A route's body as its schema gives it back. */
export type V1Body<N extends V1RouteName> = (typeof V1_ROUTES)[N] extends { body: z.ZodType }
  ? z.output<(typeof V1_ROUTES)[N]["body"]>
  : undefined;

/** Whether a route reads a body, and whether it may be absent (its schema made `.optional()`). */
export function v1BodyRule(name: V1RouteName): "none" | "optional" | "required" {
  const route: V1Route = V1_ROUTES[name];
  if (!route.body) return "none";
  return route.body instanceof z.ZodOptional ? "optional" : "required";
}

/**
 * The server's check of a request body against its route: the value to use, or the first
 * problem's line for the person (the schema's own message, with the shape to send).
 *
 * @example
 * checkV1Body("acceptExtension", {}) // { ok: false, error: 'the body should be {"reviewed": …}' }
 */
export function checkV1Body<N extends V1RouteName>(
  name: N,
  body: unknown,
): { ok: true; value: V1Body<N> } | { ok: false; error: string } {
  const route: V1Route = V1_ROUTES[name];
  if (!route.body) return { ok: true, value: undefined as V1Body<N> };
  // A check without its own message (a schema added without one) still names the route and where.
  const checked = route.body.safeParse(body, {
    error: (issue) => {
      const where = issue.path?.length ? ` at ${issue.path.join(".")}` : "";
      const expected = "expected" in issue && issue.expected ? `: expected ${String(issue.expected)}` : "";
      return `the body does not fit ${route.method} ${route.path}${where} (${issue.code}${expected})`;
    },
  });
  if (checked.success) return { ok: true, value: checked.data as V1Body<N> };
  return { ok: false, error: checked.error.issues[0].message };
}

/** An answer that does not fit its route: the app and this client disagree on the contract. */
export interface V1AnswerMismatch {
  route: V1RouteName;
  status: number;
  /** One line naming the route, the status and what did not fit. */
  message: string;
}

/**
 * The client's check of an answer against its route: a 2xx answer against the route's answer
 * schema, any other against {@link v1ErrorSchema}. Undefined when it fits (a stream's or a
 * relayed answer always does).
 *
 * @example
 * checkV1Answer("health", 200, { ok: true }) // { route: "health", status: 200, message: "GET /v1/health (health) answered 200 …" }
 */
export function checkV1Answer(name: V1RouteName, status: number, body: unknown): V1AnswerMismatch | undefined {
  const route: V1Route = V1_ROUTES[name];
  if (route.stream || route.relayed) return undefined;
  const success = status >= 200 && status <= 299;
  const checked = (success ? route.answer : v1ErrorSchema).safeParse(body);
  if (checked.success) return undefined;
  const [issue] = checked.error.issues;
  const where = issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
  const what = success ? "the route's answer" : 'an error answer ({"error": "…"})';
  return {
    route: name,
    status,
    message: `${route.method} ${route.path} (${name}) answered ${status} with a body that is not ${what}${where}: ${issue.message}. Are svc and this program the same version?`,
  };
}
