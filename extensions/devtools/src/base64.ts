/** Base64: text and files, standard or URL-safe. */
import { code, files, status, table, type Block } from "@svc/api";
import { base64ToBytes, bytesToBase64, hexDump, utf8OrUndefined } from "./bytes.js";

export type Base64Action = "encode" | "decode" | "encodeFile" | "decodeToFile";
export type Base64Variant = "standard" | "url";

export interface Base64Io {
  readBase64(path: string): Promise<string>;
  writeBase64(name: string, base64: string): Promise<string>;
}

const toUrlSafe = (b64: string) => b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/**
 * @example
 * await base64Tool("encode", { input: "héllo", variant: "standard", file: [] }, io) // [code("aMOpbGxv")]
 */
export async function base64Tool(
  action: Base64Action,
  values: { input: string; variant: string; file: string[] },
  io: Base64Io,
): Promise<Block[]> {
  const shape = (b64: string) => (values.variant === "url" ? toUrlSafe(b64) : b64);
  if (action === "encodeFile") {
    const [path] = values.file;
    if (!path) return [status("Choose a file to encode.")];
    const encoded = shape(await io.readBase64(path));
    return [code(encoded), table({ File: path.split("/").pop() ?? path, "Base64 characters": encoded.length })];
  }
  if (values.input.trim() === "")
    return [status(action === "encode" ? "Type text to encode." : "Paste base64 to decode.")];
  if (action === "encode") return [code(shape(bytesToBase64(new TextEncoder().encode(values.input))))];
  let bytes: Uint8Array;
  try {
    bytes = base64ToBytes(values.input);
  } catch (error) {
    return [status(`Not base64: ${(error as Error).message}`, "critical")];
  }
  if (action === "decodeToFile") {
    const path = await io.writeBase64("decoded.bin", bytesToBase64(bytes));
    return [status(`Decoded ${bytes.length} bytes into a file`, "positive"), files([path])];
  }
  const text = utf8OrUndefined(bytes);
  if (text !== undefined) return [code(text), table({ Bytes: bytes.length })];
  return [status(`Binary, ${bytes.length} bytes: not UTF-8 text`, "warning"), code(hexDump(bytes))];
}
