/**
 * Bytes ⇄ text and base64 in the sandbox, which has `atob`, `btoa`, `TextEncoder` and
 * `TextDecoder` but no `Buffer`.
 */

/** Bytes → standard base64. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Base64 (standard or URL-safe, padded or not, white space ignored) → bytes.
 *
 * @example
 * base64ToBytes("aGk") // Uint8Array [104, 105]
 * @throws Error naming the first character that is not base64.
 */
export function base64ToBytes(input: string): Uint8Array {
  const compact = input.replace(/\s+/g, "");
  const bad = /[^A-Za-z0-9+/=_-]/.exec(compact);
  if (bad) throw new Error(`${JSON.stringify(bad[0])} at position ${bad.index + 1} is not a base64 character`);
  const standard = compact.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (standard.includes("=")) throw new Error(`"=" may only end the text`);
  if (standard.length % 4 === 1)
    throw new Error(`${standard.length} base64 characters cannot be whole bytes: one is missing or extra`);
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** UTF-8 text of the bytes, or undefined when they are not UTF-8. */
export function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A hex dump of the first `max` bytes: `00000000  68 69 …  |hi|`. */
export function hexDump(bytes: Uint8Array, max = 256): string {
  const lines: string[] = [];
  for (let i = 0; i < Math.min(bytes.length, max); i += 16) {
    const row = bytes.subarray(i, Math.min(i + 16, bytes.length, max));
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${i.toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  |${ascii}|`);
  }
  if (bytes.length > max) lines.push(`… ${bytes.length - max} more bytes`);
  return lines.join("\n");
}
