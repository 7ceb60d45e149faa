/**
 * TextEncoder/TextDecoder (UTF-8 only, as the web platform's encoder is), atob and btoa.
 * A lazy part of the prelude: installed the first time one of its globals is touched.
 */
import { fromBase64, makeDomError, toBase64, utf8Decode, utf8Encode } from "./encoding.ts";

export const GLOBALS = ["TextEncoder", "TextDecoder", "atob", "btoa"];

function toBytes(input: unknown): Uint8Array {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw new TypeError("The input must be an ArrayBuffer or an ArrayBufferView");
}

const UTF8_LABELS = ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"];

class TextEncoder {
  get encoding(): string {
    return "utf-8";
  }
  encode(input = ""): Uint8Array {
    return utf8Encode(String(input));
  }
  encodeInto(input: string, dest: Uint8Array): { read: number; written: number } {
    let read = 0;
    let written = 0;
    for (const ch of String(input)) {
      const bytes = utf8Encode(ch);
      if (written + bytes.length > dest.length) break;
      dest.set(bytes, written);
      written += bytes.length;
      read += ch.length;
    }
    return { read, written };
  }
}

class TextDecoder {
  readonly encoding = "utf-8";
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  #carry = new Uint8Array(0);
  #started = false;

  constructor(label = "utf-8", options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    if (!UTF8_LABELS.includes(String(label).trim().toLowerCase())) {
      throw new RangeError(`The encoding "${label}" is not supported (only utf-8 is)`);
    }
    this.fatal = Boolean(options.fatal);
    this.ignoreBOM = Boolean(options.ignoreBOM);
  }

  decode(input?: unknown, options: { stream?: boolean } = {}): string {
    let bytes = toBytes(input);
    if (this.#carry.length) {
      const joined = new Uint8Array(this.#carry.length + bytes.length);
      joined.set(this.#carry);
      joined.set(bytes, this.#carry.length);
      bytes = joined;
    }
    const stream = Boolean(options.stream);
    const { text, pending } = utf8Decode(bytes, this.fatal, !stream);
    this.#carry = bytes.slice(bytes.length - pending);
    let out = text;
    if (!this.#started && !this.ignoreBOM && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
    this.#started = stream && (this.#started || out.length > 0 || text.length > 0);
    if (!stream) this.#carry = new Uint8Array(0);
    return out;
  }
}

export function install(): void {
  const g = globalThis as Record<string, unknown>;
  g.TextEncoder = TextEncoder;
  g.TextDecoder = TextDecoder;
  g.btoa = (data: unknown) => {
    const text = String(data);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 255)
        throw makeDomError(
          "InvalidCharacterError",
          "The string to be encoded contains characters outside of the Latin1 range.",
        );
      bytes[i] = c;
    }
    return toBase64(bytes);
  };
  g.atob = (data: unknown) => {
    const bytes = fromBase64(String(data));
    let out = "";
    for (let i = 0; i < bytes.length; i += 8192)
      out += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 8192)));
    return out;
  };
}
