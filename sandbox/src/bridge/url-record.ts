/**
 * The parsed URL the `url.parse` and `url.set` ops hand the guest (BRIDGE.md): every WHATWG URL
 * part as Node's parser gives it. Plain TypeScript without Node types, so the guest prelude (its
 * own tsconfig) imports it from here too.
 */

/** The parts a guest may set (`url.set`), each also a getter on the guest's `URL`. */
export const SETTABLE_URL_PARTS = [
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

export interface UrlRecord {
  href: string;
  origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
}
