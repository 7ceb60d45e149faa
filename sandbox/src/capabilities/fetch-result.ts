/**
 * What the `fetch` op answers the guest (BRIDGE.md). `body` is the text itself when the bytes
 * are valid UTF-8 (the common case, and decoding bytes in QuickJS is slow), else base64;
 * `bodyEncoding` says which. A pure type, so the guest prelude (no Node types) imports it too.
 */
export interface FetchResult {
  status: number;
  statusText: string;
  url: string;
  headers: [string, string][];
  body: string;
  bodyEncoding: "utf8" | "base64";
  redirected: boolean;
}
