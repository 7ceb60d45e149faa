/**
 * The `ws.open`, `ws.send` and `ws.close` ops. The host connects with `ws` after the same
 * policy check as fetch (ws/wss URLs, the guarded DNS lookup, no redirects); everything that
 * happens afterwards reaches the guest as `push("ws", {socketId, type, …})` in order:
 * `open`, `message` (text, or base64 with `binary: true`), `error` (with a message), `close`.
 */
import type WebSocket from "ws";
import type { CapabilityContext, OpHandler } from "./context.js";
import { decodeBase64, readArgs } from "./args.js";
import { findDenial } from "./denial.js";
import { guardedLookup } from "./address-guard.js";
import { checkNetworkUrl, networkPolicyOf } from "./network-policy.js";
import { describeBytes } from "./limits.js";
import { loadWs } from "./libraries.js";
import type { ResolvedOptions } from "./options.js";

/** What the guest receives through `push("ws", …)`. */
export type WebSocketPush =
  | { socketId: string; type: "open"; protocol: string; extensions: string }
  | { socketId: string; type: "message"; data: string; binary: boolean }
  | { socketId: string; type: "error"; message: string }
  | { socketId: string; type: "close"; code: number; reason: string; wasClean: boolean };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Builds the WebSocket ops bound to the given options.
 * @example const ops = createWebSocketOps(resolveOptions()); ops.open({ socketId: 1, url: "wss://a.example/" }, cx);
 */
export function createWebSocketOps(options: ResolvedOptions): { open: OpHandler; send: OpHandler; close: OpHandler } {
  const { limits } = options;
  const sockets = new WeakMap<CapabilityContext, Map<string, WebSocket>>();

  function socketsOf(cx: CapabilityContext): Map<string, WebSocket> {
    let open = sockets.get(cx);
    if (!open) {
      const created = new Map<string, WebSocket>();
      cx.signal.addEventListener(
        "abort",
        () => {
          for (const socket of created.values()) socket.terminate();
        },
        { once: true },
      );
      sockets.set(cx, (open = created));
    }
    return open;
  }

  function openOp(raw: unknown, cx: CapabilityContext): null {
    const args = readArgs("ws.open", raw);
    const socketId = args.id("socketId");
    const url = args.string("url", { maxLength: 65_536 });
    const protocols = args.any("protocols") === undefined ? [] : args.stringArray("protocols", { maxItems: 16 });
    for (const p of protocols)
      if (!TOKEN.test(p)) throw new SyntaxError(`WebSocket: "${p}" is not a valid subprotocol`);
    if (cx.signal.aborted) throw new Error("WebSocket: the sandbox is closing");
    const open = socketsOf(cx);
    if (open.has(socketId)) throw new TypeError(`WebSocket: socket id ${socketId} is already in use`);
    if (open.size >= limits.wsOpenSockets) {
      throw new RangeError(`WebSocket: ${limits.wsOpenSockets} sockets are already open; close one first`);
    }
    const policy = networkPolicyOf(cx);
    const target = checkNetworkUrl(cx, policy, "websocket", url);
    const socket = new (loadWs().WebSocket)(target.href, protocols, {
      lookup: guardedLookup(cx, policy, "websocket", options.resolve),
      maxPayload: limits.wsMessageBytes,
      followRedirects: false,
      handshakeTimeout: 30_000,
      headers: {},
    });
    open.set(socketId, socket);
    wire(cx, socketId, socket, open);
    return null;
  }

  function wire(cx: CapabilityContext, socketId: string, socket: WebSocket, open: Map<string, WebSocket>): void {
    const push = (event: WebSocketPush) => cx.push("ws", event);
    socket.on("open", () => push({ socketId, type: "open", protocol: socket.protocol, extensions: socket.extensions }));
    socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], binary: boolean) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      push({ socketId, type: "message", binary, data: binary ? bytes.toString("base64") : bytes.toString("utf8") });
    });
    socket.on("unexpected-response", (_request, response) => {
      socket.terminate();
      push({
        socketId,
        type: "error",
        message: `WebSocket: ${target(socket)} answered ${response.statusCode} instead of upgrading`,
      });
    });
    let tooBig = false;
    socket.on("error", (error: Error & { code?: string }) => {
      tooBig = error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";
      const message = tooBig
        ? `WebSocket: a message from ${target(socket)} is over the limit of ${describeBytes(limits.wsMessageBytes)}`
        : (findDenial(error)?.message ?? `WebSocket: ${error.message}`);
      push({ socketId, type: "error", message });
    });
    socket.on("close", (code: number, reason: Buffer) => {
      open.delete(socketId);
      // ws reports 1006 after it sent 1009 itself; the guest learns why the socket ended.
      const finalCode = tooBig ? 1009 : code;
      push({
        socketId,
        type: "close",
        code: finalCode,
        reason: reason.toString("utf8"),
        wasClean: finalCode !== 1006 && !tooBig,
      });
    });
  }

  function sendOp(raw: unknown, cx: CapabilityContext): null {
    const args = readArgs("ws.send", raw);
    const socket = sockets.get(cx)?.get(args.id("socketId"));
    const binary = args.optionalBoolean("binary") ?? false;
    const data = args.string("data");
    const payload = binary
      ? decodeBase64("WebSocket: message", data, limits.wsMessageBytes)
      : Buffer.from(data, "utf8");
    if (payload.length > limits.wsMessageBytes) {
      throw new RangeError(`WebSocket: message is over the limit of ${describeBytes(limits.wsMessageBytes)}`);
    }
    if (!socket || socket.readyState !== socket.OPEN) throw new Error("WebSocket: the socket is not open");
    socket.send(payload, { binary });
    return null;
  }

  function closeOp(raw: unknown, cx: CapabilityContext): null {
    const args = readArgs("ws.close", raw);
    const socket = sockets.get(cx)?.get(args.id("socketId"));
    const code = args.optionalInteger("code", 1000, 4999);
    if (code !== undefined && code !== 1000 && code < 3000) {
      throw new RangeError("WebSocket: close code should be 1000 or from 3000 to 4999");
    }
    const reason = args.optionalString("reason") ?? "";
    if (Buffer.byteLength(reason) > 123) throw new SyntaxError("WebSocket: close reason should be at most 123 bytes");
    if (socket) socket.close(code ?? 1000, reason);
    return null;
  }

  return { open: openOp, send: sendOp, close: closeOp };
}

function target(socket: WebSocket): string {
  try {
    return new URL(socket.url).host;
  } catch {
    return "the server";
  }
}
