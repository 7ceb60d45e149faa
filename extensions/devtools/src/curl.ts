/**
 * curl: a pasted command (as browsers' "Copy as cURL" and API docs write them) taken apart into
 * method, URL, headers and body, and rewritten as `fetch` code. Shell words are read as a POSIX
 * shell would: single and double quotes, `$'…'` (bash's C-style quotes), backslashes and
 * line continuations. Nothing runs.
 */
import { code, status, table, type Block, type TableRow } from "@svc/api";

/**
 * The words of a shell command line.
 *
 * @example
 * shellWords(`curl -H 'A: b' "x y"`) // ["curl", "-H", "A: b", "x y"]
 * @throws Error for an unclosed quote.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  const C_ESCAPES: Record<string, string> = {
    n: "\n",
    t: "\t",
    r: "\r",
    "\\": "\\",
    "'": "'",
    '"': '"',
    a: "\x07",
    b: "\b",
    e: "\x1b",
    f: "\f",
    v: "\v",
    "0": "\0",
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "\\") {
      const next = line[i + 1];
      i++;
      if (next === "\n" || (next === "\r" && line[i + 1] === "\n")) {
        if (next === "\r") i++;
        continue;
      }
      if (next !== undefined) word += next;
      inWord = true;
    } else if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new Error("a ' quote is not closed");
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === "$" && line[i + 1] === "'") {
      i += 2;
      for (; i < line.length && line[i] !== "'"; i++) {
        if (line[i] === "\\" && i + 1 < line.length) {
          const e = line[++i];
          if (e === "x" || e === "u") {
            const m = (e === "x" ? /^[0-9a-fA-F]{1,2}/ : /^[0-9a-fA-F]{1,4}/).exec(line.slice(i + 1));
            if (m) {
              word += String.fromCharCode(parseInt(m[0], 16));
              i += m[0].length;
              continue;
            }
          }
          word += C_ESCAPES[e] ?? `\\${e}`;
        } else word += line[i];
      }
      if (i >= line.length) throw new Error("a $' quote is not closed");
      inWord = true;
    } else if (ch === '"') {
      i++;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && '"\\$`\n'.includes(line[i + 1] ?? "")) {
          i++;
          if (line[i] !== "\n") word += line[i];
        } else word += line[i];
      }
      if (i >= line.length) throw new Error('a " quote is not closed');
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

export interface CurlRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: string;
  form: Array<[string, string]>;
  followRedirects: boolean;
  insecure: boolean;
  compressed: boolean;
  ignored: string[];
}

/** Options that take a value, by every name curl knows them by. */
const WITH_VALUE: Record<string, string> = {
  "-X": "method",
  "--request": "method",
  "-H": "header",
  "--header": "header",
  "-d": "data",
  "--data": "data",
  "--data-raw": "data-raw",
  "--data-binary": "data",
  "--data-ascii": "data",
  "--data-urlencode": "data-urlencode",
  "--json": "json",
  "-u": "user",
  "--user": "user",
  "-A": "user-agent",
  "--user-agent": "user-agent",
  "-b": "cookie",
  "--cookie": "cookie",
  "-e": "referer",
  "--referer": "referer",
  "--url": "url",
  "-F": "form",
  "--form": "form",
  "--form-string": "form",
  "-o": "skip",
  "--output": "skip",
  "-m": "skip",
  "--max-time": "skip",
  "--connect-timeout": "skip",
  "-w": "skip",
  "--write-out": "skip",
  "--retry": "skip",
  "-x": "skip",
  "--proxy": "skip",
  "--cacert": "skip",
  "--cert": "skip",
  "--key": "skip",
  "-T": "skip",
  "--upload-file": "skip",
  "-r": "skip",
  "--range": "skip",
};
const FLAGS: Record<string, string> = {
  "-L": "location",
  "--location": "location",
  "-k": "insecure",
  "--insecure": "insecure",
  "--compressed": "compressed",
  "-G": "get",
  "--get": "get",
  "-I": "head",
  "--head": "head",
};
const SHORT_FLAGS = "sSvfiLkGIN#";

/**
 * @example
 * parseCurl(`curl -X POST https://api.example.com -d 'a=1'`).method // "POST"
 * @throws Error saying what could not be read.
 */
export function parseCurl(command: string): CurlRequest {
  const words = shellWords(command.trim());
  if (words[0] !== "curl") throw new Error("it should start with curl");
  const request: CurlRequest = {
    method: "",
    url: "",
    headers: [],
    form: [],
    followRedirects: false,
    insecure: false,
    compressed: false,
    ignored: [],
  };
  const data: string[] = [];
  let get = false;
  let head = false;
  const header = (name: string, value: string) => request.headers.push([name, value]);
  const apply = (kind: string, value: string) => {
    switch (kind) {
      case "method":
        request.method = value.toUpperCase();
        break;
      case "header": {
        const at = value.indexOf(":");
        if (at > 0) header(value.slice(0, at).trim(), value.slice(at + 1).trim());
        break;
      }
      case "data":
        data.push(value.startsWith("@") ? `<contents of ${value.slice(1)}>` : value.replace(/[\r\n]/g, ""));
        break;
      case "data-raw":
        data.push(value);
        break;
      case "data-urlencode": {
        const at = value.indexOf("=");
        data.push(
          at === -1 ? encodeURIComponent(value) : `${value.slice(0, at + 1)}${encodeURIComponent(value.slice(at + 1))}`,
        );
        break;
      }
      case "json":
        data.push(value);
        header("Content-Type", "application/json");
        header("Accept", "application/json");
        break;
      case "user":
        header("Authorization", `Basic ${btoa(value.includes(":") ? value : `${value}:`)}`);
        break;
      case "user-agent":
        header("User-Agent", value);
        break;
      case "cookie":
        header("Cookie", value);
        break;
      case "referer":
        header("Referer", value);
        break;
      case "url":
        request.url = value;
        break;
      case "form": {
        const at = value.indexOf("=");
        request.form.push(at === -1 ? [value, ""] : [value.slice(0, at), value.slice(at + 1)]);
        break;
      }
      case "location":
        request.followRedirects = true;
        break;
      case "insecure":
        request.insecure = true;
        break;
      case "compressed":
        request.compressed = true;
        break;
      case "get":
        get = true;
        break;
      case "head":
        head = true;
        break;
    }
  };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    const eq = word.startsWith("--") ? word.indexOf("=") : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (WITH_VALUE[name]) {
      const value = eq > 0 ? word.slice(eq + 1) : words[++i];
      if (value === undefined) throw new Error(`${name} needs a value`);
      if (WITH_VALUE[name] === "skip") request.ignored.push(name);
      else apply(WITH_VALUE[name], value);
    } else if (FLAGS[word]) apply(FLAGS[word], "");
    else if (/^-[A-Za-z]/.test(word) && !word.startsWith("--")) {
      // A cluster of short options (-sSL), or one with its value attached (-XPOST, -H'A: b').
      const letter = `-${word[1]}`;
      if (WITH_VALUE[letter] && word.length > 2) {
        if (WITH_VALUE[letter] !== "skip") apply(WITH_VALUE[letter], word.slice(2));
      } else if ([...word.slice(1)].every((c) => SHORT_FLAGS.includes(c) || FLAGS[`-${c}`])) {
        for (const c of word.slice(1)) if (FLAGS[`-${c}`]) apply(FLAGS[`-${c}`], "");
      } else request.ignored.push(word);
    } else if (word.startsWith("-")) request.ignored.push(word);
    else if (!request.url) request.url = word;
    else request.ignored.push(word);
  }
  if (!request.url) throw new Error("no URL in the command");
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(request.url)) request.url = `http://${request.url}`;
  if (data.length > 0 && get) {
    request.url += (request.url.includes("?") ? "&" : "?") + data.join("&");
  } else if (data.length > 0) {
    request.body = data.join("&");
    if (!request.headers.some(([n]) => n.toLowerCase() === "content-type"))
      header("Content-Type", "application/x-www-form-urlencoded");
  }
  request.method ||= head ? "HEAD" : request.body !== undefined || request.form.length > 0 ? "POST" : "GET";
  return request;
}

const q = (s: string) => JSON.stringify(s);

/** The request as `fetch` code. */
export function fetchCode(r: CurlRequest): string {
  const lines: string[] = [];
  const options: string[] = [];
  if (r.method !== "GET") options.push(`  method: ${q(r.method)},`);
  const headers = r.form.length > 0 ? r.headers.filter(([n]) => n.toLowerCase() !== "content-type") : r.headers;
  if (headers.length > 0) options.push("  headers: {", ...headers.map(([n, v]) => `    ${q(n)}: ${q(v)},`), "  },");
  if (r.form.length > 0) {
    lines.push("const form = new FormData();");
    for (const [name, value] of r.form) {
      lines.push(
        value.startsWith("@")
          ? `form.append(${q(name)}, /* the file ${value.slice(1)} */ new Blob([]));`
          : `form.append(${q(name)}, ${q(value)});`,
      );
    }
    options.push("  body: form,");
  } else if (r.body !== undefined) {
    const isJson = headers.some(([n, v]) => n.toLowerCase() === "content-type" && v.includes("json"));
    let body = q(r.body);
    if (isJson) {
      try {
        body = `JSON.stringify(${JSON.stringify(JSON.parse(r.body), null, 2).replace(/\n/g, "\n  ")})`;
      } catch {
        // Not JSON after all: keep it as the string it is.
      }
    }
    options.push(`  body: ${body},`);
  }
  if (!r.followRedirects) options.push(`  redirect: "manual", // curl does not follow redirects without -L`);
  lines.push(
    options.length > 0
      ? `const response = await fetch(${q(r.url)}, {\n${options.join("\n")}\n});`
      : `const response = await fetch(${q(r.url)});`,
  );
  return lines.join("\n");
}

/**
 * @example
 * curlTool({ command: "curl https://example.com" })
 */
export function curlTool(values: { command: string }): Block[] {
  if (values.command.trim() === "")
    return [status("Paste a curl command to see its parts and the same request as fetch.")];
  let r: CurlRequest;
  try {
    r = parseCurl(values.command);
  } catch (error) {
    return [status(`Not a curl command I can read: ${(error as Error).message}`, "critical")];
  }
  let url: URL | undefined;
  try {
    url = new URL(r.url);
  } catch {
    url = undefined;
  }
  const link = url && (url.protocol === "http:" || url.protocol === "https:") ? { url: url.href } : {};
  const rows: TableRow[] = [
    { name: "Method", value: r.method },
    { name: "URL", value: r.url, ...link },
  ];
  for (const [name, value] of r.headers) rows.push({ name, value });
  if (r.body !== undefined)
    rows.push({ name: "Body", value: r.body.length > 2000 ? `${r.body.slice(0, 2000)}…` : r.body });
  for (const [name, value] of r.form) rows.push({ name: `Form: ${name}`, value });
  const notes = [
    r.followRedirects && "follows redirects",
    r.insecure && "skips TLS checks (-k)",
    r.compressed && "asks for compression",
  ].filter(Boolean);
  if (notes.length > 0) rows.push({ name: "Options", value: notes.join(", ") });
  const blocks: Block[] = [table(rows)];
  const query = url ? [...url.searchParams.entries()].map(([name, value]) => ({ name, value })) : [];
  if (query.length > 0) blocks.push(table(query));
  blocks.push(code(fetchCode(r), "javascript"));
  if (r.insecure) blocks.push(status("fetch cannot skip TLS certificate checks as curl -k does", "warning"));
  if (r.ignored.length > 0) blocks.push(status(`Left out: ${r.ignored.join(" ")}`));
  return blocks;
}
