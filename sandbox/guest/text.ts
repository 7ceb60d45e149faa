/**
 * TextEncoder (UTF-8, as the web platform's), TextDecoder (UTF-8, UTF-16LE, UTF-16BE; the
 * legacy encodings are not carried: sdk/README.md says so), atob and btoa.
 * A lazy part of the prelude: installed the first time one of its globals is touched.
 */
import { fromBase64, makeDomError, toBase64, utf8Decode, utf8Encode } from "./encoding.ts";

export const GLOBALS = ["TextEncoder", "TextDecoder", "atob", "btoa"];

function toBytes(input: unknown): Uint8Array {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (typeof SharedArrayBuffer === "function" && input instanceof SharedArrayBuffer) return new Uint8Array(input);
  throw new TypeError("The input must be an ArrayBuffer or an ArrayBufferView");
}

/** The Encoding Standard's labels of the encodings the guest decodes, by name. */
const LABELS: Record<string, string> = {
  "unicode-1-1-utf-8": "utf-8",
  unicode11utf8: "utf-8",
  unicode20utf8: "utf-8",
  "utf-8": "utf-8",
  utf8: "utf-8",
  "x-unicode20utf8": "utf-8",
  "utf-16": "utf-16le",
  "utf-16le": "utf-16le",
  "utf-16be": "utf-16be",
};

/**
 * Decodes UTF-16 by the WHATWG rules: an unpaired surrogate is one U+FFFD. Returns the text and
 * how many trailing bytes wait for more (an odd byte, a lead surrogate) when not `final`.
 */
function utf16Decode(
  bytes: Uint8Array,
  bigEndian: boolean,
  fatal: boolean,
  final: boolean,
): { text: string; pending: number } {
  let text = "";
  let lead = -1;
  const bad = () => {
    if (fatal) throw new TypeError(`The encoded data was not valid for encoding utf-16${bigEndian ? "be" : "le"}`);
    text += "\uFFFD";
  };
  const whole = bytes.length - (bytes.length % 2);
  for (let i = 0; i < whole; i += 2) {
    const unit = bigEndian ? (bytes[i] << 8) | bytes[i + 1] : bytes[i] | (bytes[i + 1] << 8);
    if (lead >= 0) {
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        text += String.fromCharCode(lead, unit);
        lead = -1;
        continue;
      }
      lead = -1;
      bad();
    }
    if (unit >= 0xd800 && unit <= 0xdbff) lead = unit;
    else if (unit >= 0xdc00 && unit <= 0xdfff) bad();
    else text += String.fromCharCode(unit);
  }
  const pending = (lead >= 0 ? 2 : 0) + (bytes.length - whole);
  if (final && pending > 0) {
    bad();
    return { text, pending: 0 };
  }
  return { text, pending };
}

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
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  #carry = new Uint8Array(0);
  #started = false;

  constructor(label: unknown = "utf-8", options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    const encoding =
      LABELS[
        String(label)
          .replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "")
          .toLowerCase()
      ];
    if (encoding === undefined) {
      throw new RangeError(`The encoding "${label}" is not supported (utf-8, utf-16le and utf-16be are)`);
    }
    this.encoding = encoding;
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
    const { text, pending } =
      this.encoding === "utf-8"
        ? utf8Decode(bytes, this.fatal, !stream)
        : utf16Decode(bytes, this.encoding === "utf-16be", this.fatal, !stream);
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
