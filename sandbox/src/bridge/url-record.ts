/**
 * The parsed URL the `url.parse` and `url.set` ops hand the guest (BRIDGE.md): every WHATWG URL
 * part as Node's parser gives it. A pure type, so the guest prelude (its own tsconfig, no Node
 * types) imports it from here too.
 */
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
