/**
 * The one table of bridge operations (BRIDGE.md): every op a guest can call through
 * `__svc_call`/`__svc_callSync`, whether it is sync or async, who serves it, and the types of its
 * arguments and result. Everything else derives from it:
 *
 * - the guest prelude's typed `bridge.call`/`callSync` (`OpArgs`, `OpResult`: types only, the
 *   prelude carries no zod), so a misspelt op or a wrong argument does not compile;
 * - the argument checks of the forwarded ops (forwarded-args.ts), from the fields below;
 * - `ForwardedOp`, which the runtime's forwarding table must cover entirely;
 * - BRIDGE.md's op tables, which op-table.test.ts checks against this one.
 *
 * Forwarded ops are checked here, against their fields (forwarded-fields.ts): the sandbox keeps only these keys,
 * each of the right type, and the runtime validates the rest (payload schema, secret names,
 * preference kinds). The sandbox's own ops are checked by their handlers (named in `servedBy`'s
 * comment); for them the table gives the types the guest sends and receives.
 *
 * A pure module (no Node, no zod: every sandbox thread loads it), so the guest's tsconfig (no Node
 * types) can read it.
 */
import { LOG_LEVELS, type LogLevel } from "@svc/api/log-level";
import {
  anObject,
  anyLength,
  anything,
  finiteNumber,
  integer,
  oneOf,
  optionalText,
  secretName,
  text,
  type ArgsOf,
  type Field,
} from "./forwarded-fields.js";
import type { FetchResult } from "../capabilities/fetch-result.js";
import type { UrlRecord } from "./url-record.js";

export type OpKind = "sync" | "async";
/** Who answers: the sandbox itself, a fenced capability (capabilities/), or the runtime (forwarded). */
export type OpServer = "sandbox" | "capability" | "runtime";

/** One row of the table. `types` is never set: it carries the argument and result types. */
export interface OpSpec<Kind extends OpKind, Server extends OpServer, Args, Result> {
  readonly kind: Kind;
  readonly servedBy: Server;
  readonly types?: (args: Args) => Result;
}

/** A forwarded op's row: its fields are the checks the sandbox makes before it forwards. */
export interface ForwardedSpec<Fields extends Record<string, Field<unknown>>, Result> extends OpSpec<
  "async",
  "runtime",
  ArgsOf<Fields>,
  Result
> {
  readonly fields: Fields;
}

const sandboxSync = <Args, Result>(): OpSpec<"sync", "sandbox", Args, Result> => ({
  kind: "sync",
  servedBy: "sandbox",
});
const sandboxAsync = <Args, Result>(): OpSpec<"async", "sandbox", Args, Result> => ({
  kind: "async",
  servedBy: "sandbox",
});
const capabilitySync = <Args, Result>(): OpSpec<"sync", "capability", Args, Result> => ({
  kind: "sync",
  servedBy: "capability",
});
const capabilityAsync = <Args, Result>(): OpSpec<"async", "capability", Args, Result> => ({
  kind: "async",
  servedBy: "capability",
});
/** `forwarded<Result>()(fields)`: the result type given, the argument type inferred from the fields. */
const forwarded =
  <Result>() =>
  <Fields extends Record<string, Field<unknown>>>(fields: Fields): ForwardedSpec<Fields, Result> => ({
    kind: "async",
    servedBy: "runtime",
    fields,
  });

const level = oneOf(LOG_LEVELS);

type WorkingHours = { start: number; end: number; weekdaysOnly: boolean };
type Empty = Record<string, never>;
type FileEncoding = "utf8" | "base64";

/**
 * Every bridge op. Results of forwarded ops are what the runtime answers (the protocol's `host.*`
 * results; runtime/src/forwarder.ts checks that they agree); the guest's ctx.ts turns them into
 * what `@svc/api`'s `Ctx` promises.
 */
export const BRIDGE_OPS = {
  // The sandbox's own ops.
  "timer.sleep": sandboxAsync<{ id: number; ms: number }, null>(), // timer-ops.ts
  "timer.cancel": sandboxSync<{ id: number }, null>(),
  "url.parse": sandboxSync<{ input: string; base?: string }, UrlRecord | null>(), // builtin-ops.ts
  "url.set": sandboxSync<{ href: string; part: string; value: string }, UrlRecord>(),
  "crypto.random": sandboxSync<{ n: number }, string>(),
  "crypto.subtle": sandboxAsync<{ method: string; [argument: string]: unknown }, unknown>(), // subtle-ops.ts
  "intl.make": sandboxSync<
    { kind: string; locales: unknown; options: unknown },
    { id: number; resolved: Record<string, unknown> }
  >(), // intl-ops.ts
  "intl.call": sandboxSync<{ id: number; method: string; args: unknown[] }, unknown>(),
  "intl.query": sandboxSync<{ what: string; [argument: string]: unknown }, unknown>(),
  "module.require": sandboxSync<{ name: string }, never>(),
  "invoke.done": sandboxSync<
    { callId: number; ok: boolean; value?: unknown; error?: { name: string; message: string; stack?: string } },
    null
  >(),
  // The fenced capabilities (capabilities/).
  fetch: capabilityAsync<
    {
      requestId: number;
      url: string;
      method: string;
      headers: [string, string][];
      body?: string;
      bodyEncoding: FileEncoding;
      redirect: string;
    },
    FetchResult
  >(),
  "fetch.abort": capabilitySync<{ requestId: number }, null>(),
  "ws.open": capabilitySync<{ socketId: string; url: string; protocols: string[] }, null>(),
  "ws.send": capabilitySync<{ socketId: string; data: string; binary: boolean }, null>(),
  "ws.close": capabilitySync<{ socketId: string; code?: number; reason?: string }, null>(),
  exec: capabilityAsync<
    { file: string; args: string[]; cwd?: string; timeoutMs?: number },
    { stdout: string; stderr: string; code: number }
  >(),
  "files.read": capabilityAsync<{ path: string; encoding: FileEncoding }, string>(),
  "files.write": capabilityAsync<{ path: string; data: string; encoding: FileEncoding }, null>(),
  "files.list": capabilityAsync<{ path?: string }, string[]>(),
  "files.exists": capabilityAsync<{ path: string }, boolean>(),
  "files.remove": capabilityAsync<{ path: string }, null>(),
  "storage.get": capabilityAsync<{ key: string }, unknown>(),
  "storage.set": capabilityAsync<{ key: string; value: unknown }, null>(),
  "storage.delete": capabilityAsync<{ key: string }, null>(),
  // Forwarded to the runtime (`ForwardedCalls`), checked here first.
  emit: forwarded<null>()({ blip: anObject }),
  end: forwarded<null>()({ key: text, state: optionalText, dismissAfter: finiteNumber }),
  remove: forwarded<null>()({ key: text }),
  respond: forwarded<null>()({ replyId: text, body: anything, status: integer }),
  log: forwarded<null>()({ level, message: anyLength }),
  openURL: forwarded<Empty>()({ url: text }),
  notify: forwarded<Empty>()({ title: text, body: optionalText }),
  "secrets.get": forwarded<{ value: string | null }>()({ name: secretName }),
  "secrets.set": forwarded<Empty>()({ name: secretName, value: text }),
  "secrets.delete": forwarded<Empty>()({ name: secretName }),
  "preferences.set": forwarded<Empty>()({ name: text, value: anything }),
  "oauth.connect": forwarded<Empty>()({ provider: optionalText }),
  "oauth.connections": forwarded<{ connections: unknown[] }>()({ provider: optionalText }),
  "oauth.token": forwarded<{ token: string | null; connection?: unknown }>()({
    provider: optionalText,
    connection: optionalText,
  }),
  "oauth.describe": forwarded<{ connection: unknown }>()({
    provider: optionalText,
    connection: text,
    account: optionalText,
    label: optionalText,
  }),
  "oauth.invalidate": forwarded<Empty>()({ provider: optionalText, connection: text }),
  "oauth.disconnect": forwarded<Empty>()({ provider: optionalText, connection: optionalText }),
  workingHours: forwarded<WorkingHours | null>()({}),
};

type Table = typeof BRIDGE_OPS;
export type BridgeOp = keyof Table;
/** The arguments the guest sends with `op` (for a union of ops, any one op's). */
export type OpArgs<Op extends BridgeOp> = Op extends BridgeOp
  ? Table[Op] extends { types?: (args: infer Args) => unknown }
    ? Args
    : never
  : never;
/** What `op` answers the guest. */
export type OpResult<Op extends BridgeOp> = Op extends BridgeOp
  ? Table[Op] extends { types?: (args: never) => infer Result }
    ? Result
    : never
  : never;
/** Ops the guest calls with `bridge.call` (answered later) and with `bridge.callSync` (answered at once). */
export type AsyncOp = { [Op in BridgeOp]: Table[Op]["kind"] extends "async" ? Op : never }[BridgeOp];
export type SyncOp = { [Op in BridgeOp]: Table[Op]["kind"] extends "sync" ? Op : never }[BridgeOp];
/** The ops of one kind that one server answers (`OpsOf<"sync", "sandbox">`: the router's own sync ops). */
export type OpsOf<Kind extends OpKind, Server extends OpServer> = {
  [Op in BridgeOp]: Table[Op]["kind"] extends Kind ? (Table[Op]["servedBy"] extends Server ? Op : never) : never;
}[BridgeOp];
/** The ops the sandbox forwards to the runtime rather than serving itself. */
export type ForwardedOp = { [Op in BridgeOp]: Table[Op]["servedBy"] extends "runtime" ? Op : never }[BridgeOp];
/** A forwarded op's arguments once the sandbox checked them. */
export type ForwardedArgs<Op extends ForwardedOp> =
  Table[Op] extends ForwardedSpec<infer Fields, unknown> ? ArgsOf<Fields> : never;

export { LOG_LEVELS, type LogLevel };
