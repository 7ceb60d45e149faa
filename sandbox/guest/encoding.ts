/** UTF-8 and base64 conversions shared by the prelude's parts (text.ts, url.ts, fetch.ts …). */
import { nativeFromBase64, nativeToBase64 } from "./native-base64.ts";

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64_INDEX[B64.charCodeAt(i)] = i;

/** UTF-8 bytes of a string; lone surrogates become U+FFFD, as TextEncoder does. */
export function utf8Encode(input: string): Uint8Array {
  const out = new Uint8Array(input.length * 3);
  let n = 0;
  for (let i = 0; i < input.length; i++) {
    let c = input.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = input.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else c = 0xfffd;
    }
    if (c < 0x80) out[n++] = c;
    else if (c < 0x800) {
      out[n++] = 0xc0 | (c >> 6);
      out[n++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      out[n++] = 0xe0 | (c >> 12);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    } else {
      out[n++] = 0xf0 | (c >> 18);
      out[n++] = 0x80 | ((c >> 12) & 63);
      out[n++] = 0x80 | ((c >> 6) & 63);
      out[n++] = 0x80 | (c & 63);
    }
  }
  return out.slice(0, n);
}

/**
 * Decodes UTF-8 by the WHATWG rules (maximal subpart → one U+FFFD each). Returns the text and
 * how many trailing bytes were an unfinished sequence (kept for streaming).
 */
export function utf8Decode(bytes: Uint8Array, fatal: boolean, final: boolean): { text: string; pending: number } {
  const parts: string[] = [];
  let codes: number[] = [];
  let i = 0;
  const flush = () => {
    parts.push(String.fromCharCode.apply(null, codes));
    codes = [];
  };
  const bad = () => {
    if (fatal) throw new TypeError("The encoded data was not valid for encoding utf-8");
    codes.push(0xfffd);
  };
  while (i < bytes.length) {
    if (codes.length > 8192) flush();
    const b = bytes[i];
    if (b < 0x80) {
      codes.push(b);
      i++;
      continue;
    }
    let need = 0;
    let cp = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) ((need = 1), (cp = b & 0x1f));
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      cp = b & 0xf;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      cp = b & 0x7;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else {
      bad();
      i++;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      if (i + j >= bytes.length) {
        if (!final) {
          flush();
          return { text: parts.join(""), pending: bytes.length - i };
        }
        break;
      }
      const c = bytes[i + j];
      if (c < (j === 1 ? lower : 0x80) || c > (j === 1 ? upper : 0xbf)) break;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (j <= need) {
      bad();
      i += j;
      continue;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      codes.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else codes.push(cp);
    i += need + 1;
  }
  flush();
  return { text: parts.join(""), pending: 0 };
}

/** Base64 of bytes: the host's native encoder when there is one, else a JS loop (~2 µs a byte). */
export function toBase64(bytes: Uint8Array): string {
  if (nativeToBase64) return nativeToBase64(bytes);
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += B64[n >> 18] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
  }
  if (i < bytes.length) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < bytes.length ? B64[(n >> 6) & 63] : "=") + "=";
  }
  return out;
}

/**
 * Bytes of base64 text (forgiving: ASCII whitespace ignored, padding optional); throws on anything
 * else. The host's native decoder when there is one (same rules), else a JS loop.
 */
export function fromBase64(text: string): Uint8Array {
  if (nativeFromBase64) return nativeFromBase64(text);
  const clean = text.replace(/[\t\n\f\r ]/g, "");
  const body = clean.length % 4 === 0 ? clean.replace(/={1,2}$/, "") : clean;
  if (body.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(body)) {
    throw makeDomError("InvalidCharacterError", "The string to be decoded is not correctly encoded.");
  }
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < body.length; i++) {
    acc = (acc << 6) | B64_INDEX[body.charCodeAt(i)];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

export function makeDomError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
