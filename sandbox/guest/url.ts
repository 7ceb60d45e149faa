/**
 * URL and URLSearchParams. Parsing and every setter go through the host's WHATWG parser (sync
 * ops `url.parse`, `url.set`), so the guest sees exactly Node's results; URLSearchParams is the
 * application/x-www-form-urlencoded algorithm, done here. A lazy part of the prelude.
 */
import type { Bridge } from "./bridge.ts";
import { utf8Decode, utf8Encode } from "./encoding.ts";
import type { UrlRecord } from "../src/bridge/url-record.ts";

const PARTS = [
  "href",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
] as const;

function formEncode(text: string): string {
  let out = "";
  for (const byte of utf8Encode(text)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9*\-._]/.test(c)) out += c;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function formDecode(text: string): string {
  const bytes: number[] = [];
  const raw = utf8Encode(text.replace(/\+/g, " "));
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    if (b === 0x25 && i + 2 < raw.length && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
      bytes.push(parseInt(String.fromCharCode(raw[i + 1], raw[i + 2]), 16));
      i += 2;
    } else bytes.push(b);
  }
  return utf8Decode(new Uint8Array(bytes), false, true).text;
}

export const GLOBALS = ["URL", "URLSearchParams"];

export function install(bridge: Bridge): void {
  class URLSearchParams {
    #list: [string, string][] = [];
    #onChange: ((query: string) => void) | undefined;

    constructor(init: unknown = "") {
      if (typeof init === "string") this.#parse(init);
      else if (init instanceof URLSearchParams) this.#list = init.#list.map(([k, v]) => [k, v]);
      else if (init && typeof init === "object" && typeof (init as Iterable<unknown>)[Symbol.iterator] === "function") {
        for (const pair of init as Iterable<unknown>) {
          const items = [...(pair as Iterable<unknown>)];
          if (items.length !== 2) throw new TypeError("URLSearchParams: each pair must have exactly two items");
          this.#list.push([String(items[0]), String(items[1])]);
        }
      } else if (init && typeof init === "object") {
        for (const key of Object.keys(init)) this.#list.push([key, String((init as Record<string, unknown>)[key])]);
      } else if (init !== undefined && init !== null) this.#parse(String(init));
    }

    #parse(query: string): void {
      this.#list = [];
      for (const piece of query.replace(/^\?/, "").split("&")) {
        if (!piece) continue;
        const at = piece.indexOf("=");
        const name = at < 0 ? piece : piece.slice(0, at);
        const value = at < 0 ? "" : piece.slice(at + 1);
        this.#list.push([formDecode(name), formDecode(value)]);
      }
    }

    #changed(): void {
      this.#onChange?.(this.toString());
    }

    /** @internal links these params to a URL's query. */
    static link(params: URLSearchParams, query: string, onChange: (query: string) => void): void {
      params.#parse(query);
      params.#onChange = onChange;
    }

    get size(): number {
      return this.#list.length;
    }
    append(name: string, value: string): void {
      this.#list.push([String(name), String(value)]);
      this.#changed();
    }
    delete(name: string, value?: string): void {
      this.#list = this.#list.filter(([k, v]) => !(k === String(name) && (value === undefined || v === String(value))));
      this.#changed();
    }
    get(name: string): string | null {
      return this.#list.find(([k]) => k === String(name))?.[1] ?? null;
    }
    getAll(name: string): string[] {
      return this.#list.filter(([k]) => k === String(name)).map(([, v]) => v);
    }
    has(name: string, value?: string): boolean {
      return this.#list.some(([k, v]) => k === String(name) && (value === undefined || v === String(value)));
    }
    set(name: string, value: string): void {
      const key = String(name);
      const at = this.#list.findIndex(([k]) => k === key);
      if (at < 0) this.#list.push([key, String(value)]);
      else {
        this.#list[at] = [key, String(value)];
        this.#list = this.#list.filter(([k], i) => k !== key || i === at);
      }
      this.#changed();
    }
    sort(): void {
      this.#list = this.#list
        .map((pair, i) => [pair, i] as const)
        .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]))
        .map(([pair]) => pair);
      this.#changed();
    }
    forEach(callback: (value: string, key: string, parent: URLSearchParams) => void, thisArg?: unknown): void {
      for (const [k, v] of [...this.#list]) callback.call(thisArg, v, k, this);
    }
    *entries(): IterableIterator<[string, string]> {
      for (const [k, v] of this.#list) yield [k, v];
    }
    *keys(): IterableIterator<string> {
      for (const [k] of this.#list) yield k;
    }
    *values(): IterableIterator<string> {
      for (const [, v] of this.#list) yield v;
    }
    [Symbol.iterator](): IterableIterator<[string, string]> {
      return this.entries();
    }
    toString(): string {
      return this.#list.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join("&");
    }
  }

  function parse(input: unknown, base?: unknown): UrlRecord | null {
    const args: { input: string; base?: string } = { input: String(input) };
    if (base !== undefined) args.base = String(base);
    return bridge.callSync("url.parse", args);
  }

  // Each URL's parsed record and linked params, out of reach of extension code.
  const records = new WeakMap<object, { record: UrlRecord; params: URLSearchParams }>();
  const state = (url: object) => {
    const found = records.get(url);
    if (!found) throw new TypeError("Illegal invocation: not a URL");
    return found;
  };
  const link = (url: object) => {
    const s = state(url);
    URLSearchParams.link(s.params, s.record.search, (query) => setPart(url, "search", query));
  };
  const setPart = (url: object, part: string, value: unknown) => {
    const s = state(url);
    s.record = bridge.callSync("url.set", { href: s.record.href, part, value: String(value) });
    if (part !== "search") link(url);
  };

  class URL {
    constructor(input: unknown, base?: unknown) {
      const record = parse(String(input), base === undefined ? undefined : String(base));
      if (!record) throw new TypeError(`Invalid URL: ${String(input)}`);
      records.set(this, { record, params: new URLSearchParams() });
      link(this);
    }
    static canParse(input: unknown, base?: unknown): boolean {
      return parse(input, base) !== null;
    }
    static parse(input: unknown, base?: unknown): URL | null {
      try {
        return new URL(input, base);
      } catch {
        return null;
      }
    }
    get origin(): string {
      return state(this).record.origin;
    }
    get searchParams(): URLSearchParams {
      return state(this).params;
    }
    toString(): string {
      return state(this).record.href;
    }
    toJSON(): string {
      return state(this).record.href;
    }
  }

  for (const part of PARTS) {
    Object.defineProperty(URL.prototype, part, {
      get(this: URL) {
        return state(this).record[part];
      },
      set(this: URL, value: unknown) {
        if (part === "href" && !parse(value)) throw new TypeError(`Invalid URL: ${String(value)}`);
        setPart(this, part, value);
      },
      enumerable: true,
      configurable: true,
    });
  }

  const g = globalThis as Record<string, unknown>;
  g.URL = URL;
  g.URLSearchParams = URLSearchParams;
}
