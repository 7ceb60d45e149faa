/**
 * The words for a refused `require` or `import()`: nothing can be loaded in the sandbox, and for
 * the names people reach for most there is a platform feature to use instead.
 */

const SUGGESTIONS: Record<string, string> = {
  http: "use fetch()",
  https: "use fetch()",
  http2: "use fetch()",
  undici: "use fetch()",
  "node-fetch": "use fetch()",
  net: "use fetch() or WebSocket",
  tls: "use fetch() or WebSocket",
  dgram: "use fetch() or WebSocket",
  dns: "use fetch() or WebSocket",
  ws: "use the global WebSocket",
  child_process: "use ctx.exec()",
  fs: "use ctx.files",
  "fs/promises": "use ctx.files",
  crypto: "use the global crypto (getRandomValues, randomUUID)",
  buffer: "use Uint8Array, TextEncoder/TextDecoder and atob/btoa",
  url: "use the global URL and URLSearchParams",
  querystring: "use URLSearchParams",
  timers: "use the global setTimeout and setInterval",
  "timers/promises": "use the global setTimeout",
  string_decoder: "use TextDecoder",
  util: "bundle what you need from it, or use TextEncoder/TextDecoder and structuredClone",
};

/**
 * The exact message a guest sees for `require(name)` or `import(name)`.
 *
 * @example moduleRefusal("node:http") // 'module "node:http" is not available in the extension sandbox; use fetch()'
 */
export function moduleRefusal(name: string): { message: string; suggestion?: string } {
  const bare = name.startsWith("node:") ? name.slice(5) : name;
  const suggestion = Object.hasOwn(SUGGESTIONS, bare) ? SUGGESTIONS[bare] : undefined;
  const base = `module "${name}" is not available in the extension sandbox`;
  return suggestion ? { message: `${base}; ${suggestion}`, suggestion } : { message: base };
}
