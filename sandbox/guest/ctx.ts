/**
 * `ctx` for each call into the extension, from the runtime's CallContext: fresh objects per call
 * around member functions made once per sandbox. Every member is a thin wrapper over one bridge
 * op (BRIDGE.md); the host checks and serves or forwards it.
 */
import type { LogLevel, OpArgs } from "../src/bridge/op-table.ts";
import type { CallContext } from "../src/invocation.ts";
import type { Bridge } from "./bridge.ts";
import { sendLog } from "./console.ts";
import { fromBase64, toBase64 } from "./encoding.ts";

export interface SandboxConfig {
  id: string;
  dataDir: string;
}

type OAuthOptions = { provider?: string; connection?: string; account?: string; label?: string };

/**
 * `"github"` or `{provider, connection, …}` → the op's argument object (only known keys kept).
 * A missing `connection` is sent as is: the bridge names it (`oauth.describe: "connection" is required`).
 */
function oauthArgs(options: unknown): OAuthOptions {
  if (typeof options === "string") return { provider: options };
  const out: OAuthOptions = {};
  if (options && typeof options === "object") {
    const o = options as Record<string, unknown>;
    for (const key of ["provider", "connection", "account", "label"] as const) {
      if (o[key] !== undefined) out[key] = String(o[key]);
    }
  }
  return out;
}

/** The shape of an answer the SDK promises as `Promise<void>`. */
const nothing = () => undefined;

/** The protocol answers `null` for "not set"; the SDK promises `undefined`. */
const orUndefined = (value: unknown) => (value === null ? undefined : value);

/**
 * Host answers arrive in the protocol's shapes (`{value}`, `{connections}`, `{connection}`);
 * this is the one place that turns them into what `@svc/api`'s types promise an author.
 *
 * Returns the per-call factory. The ~40 member functions are made once per sandbox (making
 * closures is what costs in QuickJS: tens of µs per call); each call still gets fresh objects,
 * so an extension that changes its `ctx` does not change the next call's.
 *
 * @example const newContext = contextFactory(bridge, config); const ctx = newContext({ preferences: {} });
 */
export function contextFactory(bridge: Bridge, config: SandboxConfig) {
  const done = (promise: Promise<unknown>) => promise.then(nothing);
  const level =
    (name: LogLevel) =>
    (...args: unknown[]) =>
      sendLog(bridge, name, args);
  const storage = {
    get: (key: string) => bridge.callOne("storage.get", "key", key, orUndefined),
    set: (key: string, value: unknown) => bridge.call("storage.set", { key, value }, nothing),
    delete: (key: string) => bridge.callOne("storage.delete", "key", key, nothing),
  };
  const secrets = {
    get: (name: string) =>
      bridge.callOne("secrets.get", "name", name, (r) => orUndefined((r as { value?: unknown })?.value)),
    set: (name: string, value: string) => bridge.call("secrets.set", { name, value }, nothing),
    delete: (name: string) => bridge.callOne("secrets.delete", "name", name, nothing),
  };
  const oauth = {
    connect: (options?: unknown) => bridge.call("oauth.connect", oauthArgs(options), nothing),
    connections: (options?: unknown) =>
      bridge
        .call("oauth.connections", oauthArgs(options))
        .then((r) => (r as { connections?: unknown })?.connections ?? []),
    token: (options?: unknown) => bridge.call("oauth.token", oauthArgs(options)),
    describe: (options: unknown) =>
      bridge
        .call("oauth.describe", oauthArgs(options) as OpArgs<"oauth.describe">)
        .then((r) => (r as { connection?: unknown })?.connection),
    invalidate: (options: unknown) =>
      bridge.call("oauth.invalidate", oauthArgs(options) as OpArgs<"oauth.invalidate">, nothing),
    disconnect: (options?: unknown) => bridge.call("oauth.disconnect", oauthArgs(options), nothing),
  };
  const files = {
    read: (path: string, options: { encoding?: "utf8" | "base64" } = {}) =>
      bridge.call("files.read", { path, encoding: options?.encoding === "base64" ? "base64" : "utf8" }),
    write: (path: string, data: string | Uint8Array, options: { encoding?: "utf8" | "base64" } = {}) =>
      done(
        typeof data === "string"
          ? bridge.call("files.write", { path, data, encoding: options?.encoding === "base64" ? "base64" : "utf8" })
          : bridge.call("files.write", { path, data: toBase64(data), encoding: "base64" }),
      ),
    readBytes: (path: string) =>
      bridge
        .call("files.read", { path, encoding: "base64" })
        .then((text) => (bridge.bytesFromBase64 ? bridge.bytesFromBase64(text) : fromBase64(text))),
    list: (path?: string) => bridge.call("files.list", { path }),
    exists: (path: string) => bridge.call("files.exists", { path }),
    remove: (path: string) => bridge.call("files.remove", { path }, nothing),
  };
  const log = { debug: level("debug"), info: level("info"), warn: level("warn"), error: level("error") };
  const emit = (blip: object) => bridge.call("emit", { blip }, nothing);
  const end = (key: string, options: { state?: string; dismissAfter?: number } = {}) =>
    bridge.call("end", { key, state: options?.state, dismissAfter: options?.dismissAfter }, nothing);
  const remove = (key: string) => bridge.callOne("remove", "key", key, nothing);
  const respond = (replyId: string, body: unknown, status?: number) =>
    bridge.call("respond", { replyId, body, status }, nothing);
  const openURL = (url: unknown) => bridge.call("openURL", { url: String(url) }, nothing);
  const notify = (title: string, body?: string) => bridge.call("notify", { title, body }, nothing);
  const setPreference = (name: string, value: unknown) => bridge.call("preferences.set", { name, value }, nothing);
  const workingHours = () => bridge.call("workingHours", {}).then((hours) => hours ?? undefined);
  const exec = (file: string, args: string[] = [], options: { cwd?: string; timeoutMs?: number } = {}) =>
    bridge.call("exec", { file, args, cwd: options?.cwd, timeoutMs: options?.timeoutMs });
  return (call: CallContext) => ({
    extensionId: config.id,
    dataDir: config.dataDir,
    trigger: call.trigger,
    preferences: call.preferences ?? {},
    storage: { ...storage },
    emit,
    end,
    remove,
    respond,
    openURL,
    notify,
    setPreference,
    secrets: { ...secrets },
    oauth: { ...oauth },
    workingHours,
    exec,
    files: { ...files },
    log: { ...log },
  });
}
