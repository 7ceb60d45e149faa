/**
 * Developer tools: small offline utilities in the notch, each offered first when the clipboard
 * holds what it reads (its `clipboardKinds`). Everything runs in the extension's sandbox with no
 * network and no permissions; the logic lives in one module per tool, tested beside it.
 */
import { defineExtension, tool, type ToolContext } from "@svc/api";
import { base64Tool, type Base64Action } from "./base64.js";
import { colorTool } from "./color.js";
import { curlTool } from "./curl.js";
import { hashDrop, hashTool } from "./hash.js";
import { jsonTool, type JsonAction } from "./json.js";
import { jwtTool } from "./jwt.js";
import { timestampTool } from "./timestamp.js";
import { urlTool, type UrlAction } from "./url.js";
import { uuidTool } from "./uuid.js";

/** Reading and writing files for the tools that take them: given files in, `ctx.dataDir` out. */
function io(ctx: ToolContext) {
  return {
    readBase64: (path: string) => ctx.files.read(path, { encoding: "base64" }),
    writeBase64: async (name: string, data: string) => {
      await ctx.files.write(name, data, { encoding: "base64" });
      return `${ctx.dataDir}/${name}`;
    },
    writeText: async (name: string, text: string) => {
      await ctx.files.write(name, text);
      return `${ctx.dataDir}/${name}`;
    },
  };
}

export default defineExtension({
  tools: {
    json: tool({
      id: "json",
      title: "JSON",
      icon: "curlybraces",
      summary: "Format, minify or check JSON; a mistake is shown with its line and column.",
      category: "developer",
      clipboardKinds: ["json"],
      live: true,
      fields: [
        { id: "input", type: "code", language: "json", label: "JSON" },
        {
          id: "indent",
          type: "choice",
          label: "Indent",
          options: [
            { id: "2", title: "2 spaces" },
            { id: "4", title: "4 spaces" },
            { id: "tab", title: "Tab" },
          ],
        },
        { id: "sortKeys", type: "toggle", label: "Sort keys" },
      ],
      actions: [
        { id: "format", title: "Format", role: "primary" },
        { id: "minify", title: "Minify" },
        { id: "validate", title: "Check" },
      ],
      run: (action, values) => jsonTool(action as JsonAction, values),
    }),
    jwt: tool({
      id: "jwt",
      title: "JWT",
      icon: "key",
      summary:
        "Decode a JSON Web Token's header and claims, dates read relative, and whether it has expired. The signature is not checked.",
      category: "developer",
      clipboardKinds: ["jwt"],
      live: true,
      fields: [{ id: "token", type: "text", label: "Token", placeholder: "eyJhbGciOi…" }],
      actions: [{ id: "decode", title: "Decode", role: "primary" }],
      run: (_action, values) => jwtTool(values),
    }),
    url: tool({
      id: "url",
      title: "URL",
      icon: "link",
      summary: "Take a URL apart (its query as a table), or percent-encode and decode text.",
      category: "developer",
      clipboardKinds: ["url"],
      live: true,
      fields: [{ id: "input", type: "text", label: "URL or text" }],
      actions: [
        { id: "parse", title: "Parse", role: "primary" },
        { id: "encode", title: "Encode" },
        { id: "decode", title: "Decode" },
      ],
      run: (action, values) => urlTool(action as UrlAction, values),
    }),
    base64: tool({
      id: "base64",
      title: "Base64",
      icon: "textformat.abc",
      summary: "Encode and decode Base64, standard or URL-safe, as text or files.",
      category: "developer",
      clipboardKinds: ["base64"],
      live: true,
      fields: [
        { id: "input", type: "code", label: "Text or Base64" },
        {
          id: "variant",
          type: "choice",
          label: "Alphabet",
          options: [
            { id: "standard", title: "Standard" },
            { id: "url", title: "URL-safe" },
          ],
        },
        { id: "file", type: "file", label: "File to encode" },
      ],
      actions: [
        { id: "encode", title: "Encode", role: "primary" },
        { id: "decode", title: "Decode" },
        { id: "encodeFile", title: "Encode file" },
        { id: "decodeToFile", title: "Decode to file" },
      ],
      run: (action, values, ctx) => base64Tool(action as Base64Action, values, io(ctx)),
    }),
    timestamp: tool({
      id: "timestamp",
      title: "Timestamp",
      icon: "clock",
      summary: "Epoch seconds or milliseconds, ISO 8601 and relative time, each from the other, in your time zone.",
      category: "developer",
      clipboardKinds: ["timestamp"],
      live: true,
      fields: [{ id: "input", type: "text", label: "Time", placeholder: "1767225600, 2026-01-01T00:00:00Z or now" }],
      actions: [{ id: "convert", title: "Convert", role: "primary" }],
      run: (_action, values) => timestampTool(values),
    }),
    color: tool({
      id: "color",
      title: "Colour",
      icon: "paintpalette",
      summary: "A colour as hex, rgb, hsl and oklch with a swatch, and its contrast ratio with another.",
      category: "design",
      clipboardKinds: ["color"],
      live: true,
      fields: [
        { id: "input", type: "text", label: "Colour", placeholder: "#ff8800" },
        { id: "against", type: "text", label: "Contrast with", default: "#ffffff" },
      ],
      actions: [{ id: "convert", title: "Convert", role: "primary" }],
      run: (_action, values) => colorTool(values),
    }),
    uuid: tool({
      id: "uuid",
      title: "UUID",
      icon: "number",
      summary: "Make v4 or v7 UUIDs, or check one and read its version.",
      category: "developer",
      clipboardKinds: ["uuid"],
      fields: [
        { id: "input", type: "text", label: "UUID to check" },
        {
          id: "version",
          type: "choice",
          label: "Version",
          options: [
            { id: "v4", title: "v4 (random)" },
            { id: "v7", title: "v7 (time-ordered)" },
          ],
        },
        { id: "count", type: "number", label: "How many", min: 1, max: 50, step: 1, default: 1 },
      ],
      actions: [
        { id: "generate", title: "Generate", role: "primary" },
        { id: "validate", title: "Check" },
      ],
      run: (action, values) => uuidTool(action as "generate" | "validate", values),
    }),
    curl: tool({
      id: "curl",
      title: "curl to fetch",
      icon: "terminal",
      summary: "A pasted curl command's method, URL, headers and body, and the same request as fetch code.",
      category: "developer",
      clipboardKinds: ["curl"],
      live: true,
      fields: [{ id: "command", type: "code", language: "shell", label: "curl command" }],
      actions: [{ id: "convert", title: "Convert", role: "primary" }],
      run: (_action, values) => curlTool(values),
    }),
    hash: tool({
      id: "hash",
      title: "SHA-256",
      icon: "number.square",
      summary: "SHA-256 of text or files; drop files to get a sha256sum list.",
      category: "developer",
      fields: [
        { id: "text", type: "code", label: "Text" },
        { id: "files", type: "file", label: "Files", multiple: true },
      ],
      actions: [{ id: "hash", title: "Hash", role: "primary" }],
      dropActions: [{ id: "hash", title: "Hash files", icon: "number.square", accepts: ["public.item"] }],
      run: (_action, values, ctx) => hashTool(values, io(ctx)),
      drop: (_action, files, ctx) => hashDrop(files, io(ctx)),
    }),
  },
});
