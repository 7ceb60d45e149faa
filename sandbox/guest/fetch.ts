/**
 * The guest's `fetch`, `Headers`, `Request` and `Response`, as the web platform has them, minus
 * streams (QuickJS has no ReadableStream: bodies are whole byte arrays, there is no `.body`).
 * A request leaves as one `fetch` op; the host checks, performs and follows redirects (hop by
 * hop, each one checked) and answers with the whole response, its body in base64. An aborted
 * signal sends `fetch.abort` so the host cancels its request too.
 */
import { fromBase64, toBase64, utf8Decode, utf8Encode } from "./encoding.ts";
import { makeError } from "./errors.ts";
import type { FetchResult } from "../src/capabilities/fetch-result.ts";
import type { Bridge } from "./bridge.ts";
import { NativeDOMException } from "./events.ts";

/**
 * The bridge's native byte conversions: a JS loop over bytes in QuickJS costs about 2 µs a byte,
 * so a host-made ArrayBuffer is the only fast way to hand over large binary data.
 */
let codec: Pick<Bridge, "bytesFromBase64" | "bytesToBase64"> = {};

/** Bytes of the host's base64, natively when the bridge can. */
export function decodeBytes(text: string): Uint8Array {
  return codec.bytesFromBase64 ? codec.bytesFromBase64(text) : fromBase64(text);
}

/** Base64 of bytes for the host, natively when the bridge can. */
export function encodeBytes(bytes: Uint8Array): string {
  return codec.bytesToBase64 ? codec.bytesToBase64(bytes) : toBase64(bytes);
}

interface SignalLike {
  aborted: boolean;
  reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

type HeadersInit = Headers | Iterable<readonly [string, string]> | Record<string, string>;
type BodyInit = string | ArrayBuffer | ArrayBufferView | { toString(): string } | null;
type RedirectMode = "follow" | "manual" | "error";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_METHODS = ["CONNECT", "TRACE", "TRACK"];
const NORMALIZED_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"];
const NULL_BODY_STATUS = [101, 103, 204, 205, 304];
const REDIRECT_STATUS = [301, 302, 303, 307, 308];

function headerName(name: unknown): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers: "${text}" is not a valid header name`);
  return text.toLowerCase();
}

function headerValue(value: unknown): string {
  const text = String(value).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
  if (/[\r\n\0]/.test(text)) throw new TypeError("Headers: a header value cannot contain a line break or NUL");
  return text;
}

let headerList: (headers: Headers) => [string, string][];

export class Headers {
  #list: [string, string][] = [];

  static {
    headerList = (headers) => headers.#list;
  }

  constructor(init?: HeadersInit) {
    if (init === undefined) return;
    // WebIDL's (sequence or record): an object with an iterator is a sequence of pairs, its own
    // iterator if it has one (a Headers whose iterator was replaced too); anything else is refused
    if ((typeof init !== "object" && typeof init !== "function") || init === null) {
      throw new TypeError("Headers: init should be an object, an array of pairs or Headers");
    }
    if (typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
      for (const pair of init as Iterable<readonly [string, string]>) {
        if (typeof pair !== "object" || pair === null)
          throw new TypeError("Headers: each header pair should be a sequence");
        const entry = [...(pair as Iterable<string>)];
        if (entry.length !== 2) throw new TypeError("Headers: each header pair needs a name and a value");
        this.append(entry[0], entry[1]);
      }
    } else {
      for (const name of Object.keys(init)) this.append(name, (init as Record<string, string>)[name]);
    }
  }

  append(name: string, value: string): void {
    this.#list.push([headerName(name), headerValue(value)]);
  }
  delete(name: string): void {
    const key = headerName(name);
    this.#list = this.#list.filter(([n]) => n !== key);
  }
  get(name: string): string | null {
    const key = headerName(name);
    const values = this.#list.filter(([n]) => n === key).map(([, v]) => v);
    return values.length === 0 ? null : values.join(", ");
  }
  getSetCookie(): string[] {
    return this.#list.filter(([n]) => n === "set-cookie").map(([, v]) => v);
  }
  has(name: string): boolean {
    const key = headerName(name);
    return this.#list.some(([n]) => n === key);
  }
  set(name: string, value: string): void {
    const key = headerName(name);
    const at = this.#list.findIndex(([n]) => n === key);
    if (at < 0) return this.append(key, value);
    this.#list[at] = [key, headerValue(value)];
    this.#list = this.#list.filter(([n], i) => n !== key || i === at);
  }
  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this) callback.call(thisArg, value, name, this);
  }
  entries(): IterableIterator<[string, string]> {
    return headersIterator(this, "entries") as IterableIterator<[string, string]>;
  }
  keys(): IterableIterator<string> {
    return headersIterator(this, "keys") as IterableIterator<string>;
  }
  values(): IterableIterator<string> {
    return headersIterator(this, "values") as IterableIterator<string>;
  }
  declare [Symbol.iterator]: () => IterableIterator<[string, string]>;
  get [Symbol.toStringTag](): string {
    return "Headers";
  }
  static {
    // WebIDL: @@iterator is the same function as entries
    Object.defineProperty(Headers.prototype, Symbol.iterator, {
      value: Headers.prototype.entries,
      writable: true,
      configurable: true,
    });
  }
}

/** Sorted by name, values of one name combined; Set-Cookie lines stay apart, as the spec says. */
function sortedPairs(headers: Headers): [string, string][] {
  const names = [...new Set(headerList(headers).map(([n]) => n))].sort();
  const pairs: [string, string][] = [];
  for (const name of names) {
    if (name === "set-cookie") for (const value of headers.getSetCookie()) pairs.push([name, value]);
    else pairs.push([name, headers.get(name) as string]);
  }
  return pairs;
}

/**
 * WebIDL's pair iterator: `next` reads the sorted list again at the iterator's index each time,
 * so a header deleted or added while iterating is seen as in browsers and Node; its prototype
 * is a "Headers Iterator" inheriting %IteratorPrototype%, with an enumerable `next`.
 */
type IteratorKind = "entries" | "keys" | "values";
const iteratorStates = new WeakMap<object, { headers: Headers; kind: IteratorKind; index: number }>();
const HeadersIteratorPrototype = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
Object.defineProperty(HeadersIteratorPrototype, "next", {
  enumerable: true,
  writable: true,
  configurable: true,
  value: {
    next(this: unknown) {
      const state = typeof this === "object" && this !== null ? iteratorStates.get(this) : undefined;
      if (!state) throw new TypeError("next() called on an object that is not a Headers iterator");
      const pairs = sortedPairs(state.headers);
      if (state.index >= pairs.length) return { value: undefined, done: true };
      const [name, value] = pairs[state.index++];
      return { value: state.kind === "keys" ? name : state.kind === "values" ? value : [name, value], done: false };
    },
  }.next,
});
Object.defineProperty(HeadersIteratorPrototype, Symbol.toStringTag, { value: "Headers Iterator", configurable: true });

function headersIterator(headers: Headers, kind: IteratorKind): Iterator<unknown> {
  headerList(headers); // a Headers, or TypeError
  const iterator = Object.create(HeadersIteratorPrototype);
  iteratorStates.set(iterator, { headers, kind, index: 0 });
  return iterator;
}

/**
 * A body held whole: text (kept as a string: strings cross the bridge natively), bytes, or the
 * host's base64, decoded only when first read.
 */
type Source = { text: string } | { bytes: Uint8Array } | { base64: string } | null;

/** Turns a BodyInit into bytes and the Content-Type it implies. */
function extractBody(init: BodyInit | undefined): { source: Source; type: string | null } {
  if (init === undefined || init === null) return { source: null, type: null };
  if (typeof init === "string") return { source: { text: init }, type: "text/plain;charset=UTF-8" };
  if (init instanceof ArrayBuffer) return { source: { bytes: new Uint8Array(init.slice(0)) }, type: null };
  if (ArrayBuffer.isView(init)) {
    const view = new Uint8Array(init.buffer, init.byteOffset, init.byteLength);
    return { source: { bytes: view.slice() }, type: null };
  }
  const Params = (globalThis as { URLSearchParams?: new () => object }).URLSearchParams;
  const type =
    Params && init instanceof Params ? "application/x-www-form-urlencoded;charset=UTF-8" : "text/plain;charset=UTF-8";
  return { source: { text: String(init) }, type };
}

let bodySource: (body: Body) => Source;
let setBodySource: (body: Body, source: Source) => void;

class Body {
  #source: Source;
  #used = false;

  static {
    bodySource = (body) => {
      if (body.#used) throw new TypeError("Body is unusable: Body has already been read");
      return body.#source;
    };
    setBodySource = (body, source) => {
      body.#source = source;
    };
  }

  constructor(source: Source) {
    this.#source = source;
  }
  get bodyUsed(): boolean {
    return this.#used;
  }
  #consume(): Source {
    const source = bodySource(this);
    this.#used = true;
    return source;
  }
  #consumeBytes(): Uint8Array {
    const source = this.#consume();
    if (source === null) return new Uint8Array(0);
    if ("text" in source) return utf8Encode(source.text);
    return "bytes" in source ? source.bytes : decodeBytes(source.base64);
  }
  async text(): Promise<string> {
    const source = this.#consume();
    if (source !== null && "text" in source) return source.text;
    const bytes = source === null ? new Uint8Array(0) : "bytes" in source ? source.bytes : decodeBytes(source.base64);
    return utf8Decode(bytes, false, false).text;
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#consumeBytes().slice().buffer;
  }
  async bytes(): Promise<Uint8Array> {
    return this.#consumeBytes().slice();
  }
}

function parseUrl(input: string, what: string): string {
  const URLClass = (globalThis as { URL?: new (input: string) => { href: string; username: string; password: string } })
    .URL;
  if (!URLClass) return input;
  let url: { href: string; username: string; password: string };
  try {
    url = new URLClass(input);
  } catch {
    throw new TypeError(`${what}: "${input}" is not a valid absolute URL`);
  }
  if (url.username || url.password)
    throw new TypeError(`${what}: a URL with a user name or password cannot be used; send credentials in a header`);
  return url.href;
}

export interface RequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: BodyInit;
  redirect?: RedirectMode;
  signal?: SignalLike | null;
}

export class Request extends Body {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly redirect: RedirectMode;
  readonly signal: SignalLike | null;

  constructor(input: string | { href: string } | Request, init: RequestInit = {}) {
    const from = input instanceof Request ? input : null;
    const rawMethod = init.method ?? from?.method ?? "GET";
    if (!TOKEN.test(rawMethod)) throw new TypeError(`Request: "${rawMethod}" is not a valid HTTP method`);
    const upper = rawMethod.toUpperCase();
    if (FORBIDDEN_METHODS.includes(upper)) throw new TypeError(`Request: the ${upper} method is not allowed`);
    const method = NORMALIZED_METHODS.includes(upper) ? upper : rawMethod;
    const body =
      init.body !== undefined ? extractBody(init.body) : { source: from ? bodySource(from) : null, type: null };
    if (body.source !== null && (method === "GET" || method === "HEAD")) {
      throw new TypeError(`Request: a ${method} request cannot have a body`);
    }
    super(body.source);
    this.url = from
      ? from.url
      : parseUrl(typeof input === "string" ? input : String((input as { href: string }).href ?? input), "Request");
    this.method = method;
    this.headers = new Headers(init.headers ?? from?.headers);
    if (body.type && !this.headers.has("content-type")) this.headers.set("content-type", body.type);
    const redirect = init.redirect ?? from?.redirect ?? "follow";
    if (!["follow", "manual", "error"].includes(redirect))
      throw new TypeError(`Request: redirect should be "follow", "manual" or "error"`);
    this.redirect = redirect;
    this.signal = init.signal !== undefined ? init.signal : (from?.signal ?? null);
  }

  clone(): Request {
    return new Request(this);
  }
}

export interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

let fromHost: (result: FetchResult) => Response;

export class Response extends Body {
  #status: number;
  #statusText: string;
  #headers: Headers;
  #url = "";
  #redirected = false;
  #type: "basic" | "default" | "error" = "default";

  static {
    fromHost = (result) => {
      const response = new Response(null);
      response.#status = result.status;
      response.#statusText = result.statusText;
      response.#headers = new Headers(result.headers);
      response.#url = result.url;
      response.#redirected = result.redirected;
      response.#type = "basic";
      const empty = NULL_BODY_STATUS.includes(result.status) || result.body === "";
      const source = result.bodyEncoding === "utf8" ? { text: result.body } : { base64: result.body };
      setBodySource(response, empty ? null : source);
      return response;
    };
  }

  constructor(body: BodyInit = null, init: ResponseInit = {}) {
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599)
      throw new RangeError(`Response: status ${status} is not from 200 to 599`);
    const extracted = extractBody(body);
    if (extracted.source !== null && NULL_BODY_STATUS.includes(status))
      throw new TypeError(`Response: a ${status} response cannot have a body`);
    super(extracted.source);
    this.#status = status;
    this.#statusText = init.statusText ?? "";
    this.#headers = new Headers(init.headers);
    if (extracted.type && !this.#headers.has("content-type")) this.#headers.set("content-type", extracted.type);
  }

  get status(): number {
    return this.#status;
  }
  get statusText(): string {
    return this.#statusText;
  }
  get headers(): Headers {
    return this.#headers;
  }
  get ok(): boolean {
    return this.#status >= 200 && this.#status <= 299;
  }
  get url(): string {
    return this.#url;
  }
  get redirected(): boolean {
    return this.#redirected;
  }
  get type(): string {
    return this.#type;
  }

  clone(): Response {
    const copy = new Response(null);
    copy.#status = this.#status;
    copy.#statusText = this.#statusText;
    copy.#headers = new Headers(this.#headers);
    copy.#url = this.#url;
    copy.#redirected = this.#redirected;
    copy.#type = this.#type;
    setBodySource(copy, bodySource(this));
    return copy;
  }

  static json(data: unknown, init: ResponseInit = {}): Response {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError("Response.json: the data cannot be turned into JSON");
    const headers = new Headers(init.headers);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
    return new Response(text, { ...init, headers });
  }

  static redirect(url: string, status = 302): Response {
    if (!REDIRECT_STATUS.includes(status))
      throw new RangeError(`Response.redirect: ${status} is not a redirect status`);
    const response = new Response(null, { status });
    response.#headers.set("location", parseUrl(String(url), "Response.redirect"));
    return response;
  }

  static error(): Response {
    const response = new Response(null);
    response.#status = 0;
    response.#type = "error";
    return response;
  }
}

let nextRequestId = 0;

/**
 * Installs `fetch`, `Headers`, `Request` and `Response` on the global object.
 * @example install(bridge); const r = await fetch("https://api.example.com/v1"); await r.json();
 */
export function install(bridge: Bridge): void {
  codec = { bytesFromBase64: bridge.bytesFromBase64, bytesToBase64: bridge.bytesToBase64 };
  async function fetch(input: string | { href: string } | Request, init?: RequestInit): Promise<Response> {
    const request = new Request(input, init);
    const signal = request.signal;
    if (signal?.aborted) throw signal.reason;
    const source = bodySource(request);
    const requestId = ++nextRequestId;
    const args = {
      requestId,
      url: request.url,
      method: request.method,
      headers: headerList(request.headers),
      body:
        source === null
          ? undefined
          : "text" in source
            ? source.text
            : "bytes" in source
              ? encodeBytes(source.bytes)
              : source.base64,
      bodyEncoding: source !== null && "text" in source ? ("utf8" as const) : ("base64" as const),
      redirect: request.redirect,
    };
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        bridge.callSync("fetch.abort", { requestId });
        reject(signal?.reason ?? new NativeDOMException("This operation was aborted", "AbortError"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      bridge.call("fetch", args).then(
        (result: FetchResult) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(fromHost(result));
        },
        (error: unknown) => {
          signal?.removeEventListener("abort", onAbort);
          reject(signal?.aborted ? signal.reason : error);
        },
      );
    });
  }
  const g = globalThis as Record<string, unknown>;
  g.fetch = fetch;
  g.Headers = Headers;
  g.Request = Request;
  g.Response = Response;
}
