/**
 * The capabilities' libraries, loaded on first use. Every sandbox thread (and the owner, which
 * imports this package) would otherwise hold them from the start — importing undici costs ~17 MB
 * and ~100 ms, ws ~4 MB, `@svc/api` (zod) ~8 MB and ~75 ms — though many extensions never fetch,
 * and few open a WebSocket or run a program. The first such op on a thread pays the load, once.
 */
import { createRequire } from "node:module";

type Undici = typeof import("undici");
type Ws = typeof import("ws");
type Api = typeof import("@svc/api");

const require = createRequire(import.meta.url);
let undici: Undici | undefined;
let ws: Ws | undefined;
let api: Promise<Api> | undefined;

/** undici (CommonJS), loaded by the first fetch. */
export function loadUndici(): Undici {
  return (undici ??= require("undici") as Undici);
}

/** ws (CommonJS), loaded by the first `ws.open`: synchronously, as that op answers at once. */
export function loadWs(): Ws {
  return (ws ??= require("ws") as Ws);
}

/** `@svc/api` (an ES module), loaded by the first exec. */
export function loadApi(): Promise<Api> {
  return (api ??= import("@svc/api"));
}
