/** URL: its parts and query as tables, percent-encoding and decoding. */
import { code, status, table, type Block, type TableRow } from "@svc/api";

const DEFAULT_PORTS: Record<string, string> = {
  "http:": "80",
  "https:": "443",
  "ws:": "80",
  "wss:": "443",
  "ftp:": "21",
};

function parse(input: string): URL | undefined {
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

function parts(url: URL): TableRow[] {
  const link = url.protocol === "http:" || url.protocol === "https:";
  const rows: TableRow[] = [{ name: "Scheme", value: url.protocol.slice(0, -1) }];
  if (url.username) rows.push({ name: "User", value: decodeURIComponent(url.username) });
  if (url.password) rows.push({ name: "Password", value: "•".repeat(8) });
  if (url.hostname) rows.push({ name: "Host", value: url.hostname });
  if (url.hostname)
    rows.push({ name: "Port", value: url.port || `${DEFAULT_PORTS[url.protocol] ?? "none"} (default)` });
  rows.push({ name: "Path", value: url.pathname || "/" });
  if (url.search) rows.push({ name: "Query", value: url.search.slice(1) });
  if (url.hash) rows.push({ name: "Fragment", value: url.hash.slice(1) });
  if (url.origin && url.origin !== "null")
    rows.push({ name: "Origin", value: url.origin, ...(link ? { url: url.origin } : {}) });
  return rows;
}

export type UrlAction = "parse" | "encode" | "decode";

/**
 * @example
 * urlTool("parse", { input: "https://example.com/a?b=1" })
 */
export function urlTool(action: UrlAction, values: { input: string }): Block[] {
  const input = values.input.trim();
  if (input === "") return [status("Paste a URL to take it apart, or text to encode.")];
  if (action === "encode") return [code(encodeURIComponent(values.input))];
  if (action === "decode") {
    try {
      return [code(decodeURIComponent(values.input.replace(/\+/g, " ")))];
    } catch {
      const bad = /%(?![0-9a-fA-F]{2})|(?:%[0-9a-fA-F]{2})+/.exec(values.input);
      return [
        status(
          `Not valid percent-encoding${bad ? ` near ${JSON.stringify(bad[0].slice(0, 12))} at position ${bad.index + 1}` : ""}`,
          "critical",
        ),
      ];
    }
  }
  const url = parse(input);
  if (!url) {
    const hint = /^[\w.-]+\.[a-z]{2,}(?:[/:?#]|$)/i.test(input)
      ? `: it has no scheme; try https://${input.slice(0, 60)}`
      : "";
    return [status(`Not a URL${hint}`, "critical")];
  }
  const blocks: Block[] = [table(parts(url))];
  const query = [...url.searchParams.entries()].map(([name, value]) => ({ name, value }));
  if (query.length > 0) blocks.push(table(query));
  if (url.href !== input) blocks.push(status("Normalized:"), code(url.href));
  return blocks;
}
