/**
 * The guest's `WebSocket`, as the web platform has it. `new WebSocket(url)` calls the sync op
 * `ws.open`, which throws at once when the policy refuses the URL (so the denial's message is
 * where the developer looks); everything after arrives as host pushes of kind `ws`, in order:
 * open, message, error, close. Binary messages arrive as ArrayBuffer (there is no Blob here).
 */
import { utf8Encode } from "./encoding.ts";
import { makeError } from "./errors.ts";
import { Event, EventTarget } from "./events.ts";
import type { Bridge } from "./bridge.ts";
import { decodeBytes, encodeBytes } from "./fetch.ts";

/** What the host pushes (sandbox/src/capabilities/websocket.ts `WebSocketPush`). */
type Push =
  | { socketId: string; type: "open"; protocol: string; extensions: string }
  | { socketId: string; type: "message"; data: string; binary: boolean }
  | { socketId: string; type: "error"; message: string }
  | { socketId: string; type: "close"; code: number; reason: string; wasClean: boolean };

export class MessageEvent extends Event {
  readonly data: unknown;
  readonly origin: string;
  constructor(type: string, init: { data?: unknown; origin?: string } = {}) {
    super(type);
    this.data = init.data;
    this.origin = init.origin ?? "";
  }
}

export class CloseEvent extends Event {
  readonly code: number;
  readonly reason: string;
  readonly wasClean: boolean;
  constructor(type: string, init: { code?: number; reason?: string; wasClean?: boolean } = {}) {
    super(type);
    this.code = init.code ?? 0;
    this.reason = init.reason ?? "";
    this.wasClean = init.wasClean ?? false;
  }
}

/** An `error` event that, unlike the browser's, says what went wrong (a denial, a refusal …). */
export class ErrorEvent extends Event {
  readonly message: string;
  readonly error: Error;
  constructor(type: string, init: { message?: string } = {}) {
    super(type);
    this.message = init.message ?? "";
    this.error = new Error(this.message);
  }
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

let handlePush: (socket: WebSocket, push: Push) => void;
let bridgeRef: Bridge | undefined;
let nextSocketId = 0;
const sockets = new Map<string, WebSocket>();

function parseSocketUrl(input: string): string {
  const URLClass = (globalThis as { URL?: new (input: string) => { href: string; protocol: string; hash: string } })
    .URL;
  if (!URLClass) throw makeError("SyntaxError", "WebSocket: URL parsing is not available");
  let url: { href: string; protocol: string; hash: string };
  try {
    url = new URLClass(input);
  } catch {
    throw makeError("SyntaxError", `WebSocket: "${input}" is not a valid absolute URL`);
  }
  let href = url.href;
  // The current WHATWG spec lets http(s) stand for ws(s).
  if (url.protocol === "http:") href = `ws:${href.slice(5)}`;
  else if (url.protocol === "https:") href = `wss:${href.slice(6)}`;
  else if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw makeError("SyntaxError", `WebSocket: the URL's scheme must be ws or wss, not "${url.protocol.slice(0, -1)}"`);
  }
  if (url.hash !== "" || href.endsWith("#"))
    throw makeError("SyntaxError", "WebSocket: the URL cannot have a fragment");
  return href;
}

export class WebSocket extends EventTarget {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSING = CLOSING;
  static readonly CLOSED = CLOSED;
  readonly CONNECTING = CONNECTING;
  readonly OPEN = OPEN;
  readonly CLOSING = CLOSING;
  readonly CLOSED = CLOSED;

  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;

  readonly url: string;
  #id: string;
  #readyState = CONNECTING;
  #protocol = "";
  #extensions = "";
  #binaryType: "arraybuffer" | "blob" = "arraybuffer";

  static {
    handlePush = (socket, push) => socket.#receive(push);
  }

  constructor(url: string | { href: string }, protocols: string | string[] = []) {
    super();
    if (!bridgeRef) throw new Error("WebSocket: not installed");
    this.url = parseSocketUrl(typeof url === "string" ? url : String(url.href));
    const list = typeof protocols === "string" ? [protocols] : [...protocols].map(String);
    for (const p of list)
      if (!TOKEN.test(p)) throw makeError("SyntaxError", `WebSocket: "${p}" is not a valid subprotocol`);
    if (new Set(list).size !== list.length) throw makeError("SyntaxError", "WebSocket: subprotocols must be unique");
    this.#id = String(++nextSocketId);
    bridgeRef.callSync("ws.open", { socketId: this.#id, url: this.url, protocols: list });
    sockets.set(this.#id, this);
  }

  get readyState(): number {
    return this.#readyState;
  }
  get protocol(): string {
    return this.#protocol;
  }
  get extensions(): string {
    return this.#extensions;
  }
  get bufferedAmount(): number {
    return 0;
  }
  /** Binary messages arrive as ArrayBuffer either way: QuickJS has no Blob. */
  get binaryType(): "arraybuffer" | "blob" {
    return this.#binaryType;
  }
  set binaryType(value: "arraybuffer" | "blob") {
    if (value === "arraybuffer" || value === "blob") this.#binaryType = value;
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    if (this.#readyState === CONNECTING)
      throw makeError("InvalidStateError", "WebSocket: still connecting; wait for open");
    if (this.#readyState !== OPEN) return; // the web platform drops sends after close, silently
    if (data instanceof ArrayBuffer) {
      bridgeRef!.callSync("ws.send", { socketId: this.#id, data: encodeBytes(new Uint8Array(data)), binary: true });
    } else if (ArrayBuffer.isView(data)) {
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      bridgeRef!.callSync("ws.send", { socketId: this.#id, data: encodeBytes(bytes), binary: true });
    } else {
      bridgeRef!.callSync("ws.send", { socketId: this.#id, data: String(data), binary: false });
    }
  }

  close(code?: number, reason?: string): void {
    if (code !== undefined && code !== 1000 && !(Number.isInteger(code) && code >= 3000 && code <= 4999)) {
      throw makeError("InvalidAccessError", "WebSocket: close code should be 1000 or from 3000 to 4999");
    }
    const text = reason === undefined ? "" : String(reason);
    if (utf8Encode(text).length > 123)
      throw makeError("SyntaxError", "WebSocket: close reason should be at most 123 bytes");
    if (this.#readyState === CLOSING || this.#readyState === CLOSED) return;
    this.#readyState = CLOSING;
    bridgeRef!.callSync("ws.close", { socketId: this.#id, code, reason: text });
  }

  #receive(push: Push): void {
    switch (push.type) {
      case "open":
        if (this.#readyState !== CONNECTING) return;
        this.#readyState = OPEN;
        this.#protocol = push.protocol;
        this.#extensions = push.extensions;
        this.dispatchEvent(new Event("open"));
        return;
      case "message": {
        if (this.#readyState !== OPEN) return;
        const data = push.binary ? decodeBytes(push.data).slice().buffer : push.data;
        this.dispatchEvent(new MessageEvent("message", { data, origin: this.url }));
        return;
      }
      case "error":
        this.dispatchEvent(new ErrorEvent("error", { message: push.message }));
        return;
      case "close":
        this.#readyState = CLOSED;
        sockets.delete(this.#id);
        this.dispatchEvent(new CloseEvent("close", { code: push.code, reason: push.reason, wasClean: push.wasClean }));
    }
  }
}

/**
 * Installs `WebSocket` (and its event classes) on the global object.
 * @example install(bridge); const ws = new WebSocket("wss://stream.example.com/"); ws.onmessage = (e) => …;
 */
export function install(bridge: Bridge): void {
  bridgeRef = bridge;
  bridge.on("ws", (push: Push) => {
    const socket = sockets.get(String(push.socketId));
    if (socket) handlePush(socket, push);
  });
  const g = globalThis as Record<string, unknown>;
  g.WebSocket = WebSocket;
  g.MessageEvent = MessageEvent;
  g.CloseEvent = CloseEvent;
  g.ErrorEvent = ErrorEvent;
}
