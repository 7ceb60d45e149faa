/**
 * `ctx` for each call into the extension, from the runtime's CallContext: fresh objects per call
 * around member functions made once per sandbox. Every member is a thin wrapper over one bridge
 * op (BRIDGE.md); the host checks and serves or forwards it.
 */
import type { LogLevel } from "../../sdk/src/log-level.ts";
import type { Bridge } from "./bridge.ts";
import { sendLog } from "./console.ts";
import { fromBase64, toBase64 } from "./encoding.ts";

export interface SandboxConfig {
  id: string;
  dataDir: string;
}

export interface CallContext {
  trigger?: { type: string };
  preferences: Record<string, unknown>;
}

type OAuthOptions = { provider?: string; connection?: string; account?: string; label?: string };

/** `"github"` or `{provider, connection, …}` → the op's argument object (only known keys kept). */
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
  const forward = (op: string, args: unknown) => bridge.call(op, args);
  const done = (promise: Promise<unknown>) => promise.then(() => undefined);
  const level = (name: LogLevel) => (...args: unknown[]) => sendLog(bridge, name, args);
  const storage = {
    get: (key: string) => bridge.call("storage.get", { key }).then(orUndefined),
    set: (key: string, value: unknown) => done(bridge.call("storage.set", { key, value })),
    delete: (key: string) => done(bridge.call("storage.delete", { key })),
  };
  const secrets = {
    get: (name: string) => forward("secrets.get", { name }).then((r) => orUndefined((r as { value?: unknown })?.value)),
    set: (name: string, value: string) => done(forward("secrets.set", { name, value })),
    delete: (name: string) => done(forward("secrets.delete", { name })),
  };
  const oauth = {
    connect: (options?: unknown) => done(forward("oauth.connect", oauthArgs(options))),
    connections: (options?: unknown) =>
      forward("oauth.connections", oauthArgs(options)).then((r) => (r as { connections?: unknown })?.connections ?? []),
    token: (options?: unknown) => forward("oauth.token", oauthArgs(options)),
    describe: (options: unknown) =>
      forward("oauth.describe", oauthArgs(options)).then((r) => (r as { connection?: unknown })?.connection),
    invalidate: (options: unknown) => done(forward("oauth.invalidate", oauthArgs(options))),
    disconnect: (options?: unknown) => done(forward("oauth.disconnect", oauthArgs(options))),
  };
  const files = {
    read: (path: string, options: { encoding?: "utf8" | "base64" } = {}) =>
      bridge.call<string>("files.read", { path, encoding: options?.encoding === "base64" ? "base64" : "utf8" }),
    write: (path: string, data: string | Uint8Array, options: { encoding?: "utf8" | "base64" } = {}) =>
      done(
        typeof data === "string"
          ? bridge.call("files.write", { path, data, encoding: options?.encoding === "base64" ? "base64" : "utf8" })
          : bridge.call("files.write", { path, data: toBase64(data), encoding: "base64" }),
      ),
    readBytes: (path: string) =>
      bridge.call<string>("files.read", { path, encoding: "base64" })
        .then((text) => (bridge.bytesFromBase64 ? bridge.bytesFromBase64(text) : fromBase64(text))),
    list: (path?: string) => bridge.call<string[]>("files.list", { path }),
    exists: (path: string) => bridge.call<boolean>("files.exists", { path }),
    remove: (path: string) => done(bridge.call("files.remove", { path })),
  };
  const log = { debug: level("debug"), info: level("info"), warn: level("warn"), error: level("error") };
  const emit = (blip: unknown) => done(forward("emit", { blip }));
  const end = (key: string, options: { state?: string; dismissAfter?: number } = {}) =>
    done(forward("end", { key, state: options?.state, dismissAfter: options?.dismissAfter }));
  const remove = (key: string) => done(forward("remove", { key }));
  const respond = (replyId: string, body: unknown, status?: number) => done(forward("respond", { replyId, body, status }));
  const openURL = (url: unknown) => done(forward("openURL", { url: String(url) }));
  const notify = (title: string, body?: string) => done(forward("notify", { title, body }));
  const setPreference = (name: string, value: unknown) => done(forward("preferences.set", { name, value }));
  const workingHours = () => forward("workingHours", {}).then((hours) => hours ?? undefined);
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
