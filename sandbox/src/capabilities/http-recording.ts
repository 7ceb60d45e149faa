/**
 * HTTP record and replay behind the network fence. The sandbox checks every hop of a guest's
 * fetch against `permissions.network` first, then hands it to this transport: recording sends
 * it to the real network and keeps the answer; replaying answers from the file and never touches
 * the network. A request with no recorded answer fails, naming it.
 *
 * What is written: each hop's method, URL and body, and the answer's status, headers and body.
 * Request headers are never written (that is where authorization lives), nor `set-cookie`; every
 * secret the test gave (secrets, passwords, tokens) is replaced by `[secret]` wherever it appears,
 * and live requests are matched after the same replacement.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Response } from "undici";
import { loadUndici } from "./libraries.js";
import type { FetchHop, FetchTransport } from "./options.js";

const FORMAT_VERSION = 1;
const SECRET = "[secret]";
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/**
 * Answer headers not written: a cookie is a credential; the body is stored decoded, so its encoding and length no
 * longer apply.
 */
const DROPPED_HEADERS = new Set([
  "set-cookie",
  "set-cookie2",
  "content-encoding",
  "content-length",
  "transfer-encoding",
]);

/** One recorded hop. */
export type RecordedExchange = RecordedRequest &
  (
    | { response: RecordedResponse; failure?: undefined }
    /**
     * No answer at all: the request failed on the way (no network, DNS, refused), with the
     * network error's words, e.g. `getaddrinfo ENOTFOUND api.example.com`. Replayed as the same
     * failure, so a test can show what an extension does offline.
     */
    | { failure: string; response?: undefined }
  );

export interface RecordedRequest {
  method: string;
  url: string;
  /** The request body as text (UTF-8), when there was one. */
  body?: string;
  /**
   * Written by hand, never recorded: request headers this answer needs, by lower-case name (a
   * 304 to `if-none-match`). Such an answer is given only to a request carrying them, and before
   * any answer that names none; a test thus fails when a conditional request was not sent.
   */
  when?: Record<string, string>;
}

export interface RecordedResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  /** `utf8` when the bytes are text, else `base64`. */
  bodyEncoding: "utf8" | "base64";
}

export interface RecordingFile {
  version: number;
  /** Where the answers' shape comes from (a recording written by hand names its documentation); kept on save. */
  source?: string;
  exchanges: RecordedExchange[];
}

/** A request that found no recorded answer. */
export class UnmatchedRequestError extends TypeError {
  constructor(
    readonly request: string,
    file: string,
    recorded: readonly string[],
  ) {
    const known =
      recorded.length > 0
        ? `; it holds: ${[...new Set(recorded)].slice(0, 5).join(", ")}${recorded.length > 5 ? ", …" : ""}`
        : "; it holds none";
    super(
      `fetch: ${request} has no recorded response in ${file}${known}. Record it again against the real API: svckit test --record`,
    );
    this.name = "UnmatchedRequestError";
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function encode(bytes: Uint8Array): { body: string; bodyEncoding: "utf8" | "base64" } {
  try {
    return { body: strictUtf8.decode(bytes), bodyEncoding: "utf8" };
  } catch {
    return { body: Buffer.from(bytes).toString("base64"), bodyEncoding: "base64" };
  }
}

/**
 * One recording file, in one mode.
 *
 * @example
 * const recording = await HttpRecording.open("test/recordings/deploys.json", { mode: "replay", secrets: () => ["k-1"] });
 * createCapabilities({ transport: recording.transport });
 * // … after the test:
 * recording.unmatched; // ["GET https://api.example.com/v2/x"]
 * await recording.save(); // writes the file when recording
 */
export class HttpRecording {
  /** Requests that found no answer while replaying, as `METHOD url`. */
  readonly unmatched: string[] = [];
  /** Every answer given while replaying, in order: how many calls, and which got a 304. */
  readonly served: { method: string; url: string; status: number }[] = [];
  private readonly failures: UnmatchedRequestError[] = [];
  private readonly used = new Map<string, number>();

  private constructor(
    readonly file: string,
    readonly mode: "record" | "replay",
    private readonly exchanges: RecordedExchange[],
    private readonly secrets: () => readonly string[],
    /** The file's `source`, written again on save. */
    private readonly source?: string,
  ) {}

  /**
   * Replay reads the file (a missing file replays nothing: every request is unmatched); record
   * starts empty and `save` replaces the file.
   */
  static async open(
    file: string,
    options: { mode: "record" | "replay"; secrets?: () => readonly string[] },
  ): Promise<HttpRecording> {
    const secrets = options.secrets ?? (() => []);
    if (options.mode === "record") return new HttpRecording(file, "record", [], secrets, await sourceOf(file));
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new HttpRecording(file, "replay", [], secrets);
      throw error;
    }
    let parsed: RecordingFile;
    try {
      parsed = JSON.parse(text) as RecordingFile;
    } catch (error) {
      throw new Error(
        `${file} is not a recording (not JSON: ${(error as Error).message}); record it again with svckit test --record`,
      );
    }
    if (parsed?.version !== FORMAT_VERSION || !Array.isArray(parsed.exchanges)) {
      throw new Error(
        `${file} is not a recording of version ${FORMAT_VERSION}; record it again with svckit test --record`,
      );
    }
    return new HttpRecording(file, "replay", parsed.exchanges, secrets, parsed.source);
  }

  /** The sandbox's fetch transport. */
  readonly transport: FetchTransport = (hop, network) =>
    this.mode === "record" ? this.record(hop, network) : this.replay(hop);

  /** Writes the file atomically when recording (and something was recorded or the file is new). */
  async save(): Promise<void> {
    if (this.mode !== "record") return;
    await mkdir(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await writeFile(temp, formatRecording(this.exchanges, this.source));
    await rename(temp, this.file);
  }

  /**
   * The first request that found no answer since the last call, if any: the test kit fails the
   * test with it even when the extension caught the fetch's rejection.
   */
  takeFailure(): UnmatchedRequestError | undefined {
    const first = this.failures[0];
    this.failures.length = 0;
    return first;
  }

  /** Every known secret replaced, longest first (so a secret inside another goes too). */
  private redact(text: string): string {
    const secrets = [...new Set(this.secrets().filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
    let out = text;
    for (const secret of secrets) {
      out = out.split(secret).join(SECRET);
      const encoded = encodeURIComponent(secret);
      if (encoded !== secret) out = out.split(encoded).join(SECRET);
    }
    return out;
  }

  private requestOf(hop: FetchHop): { method: string; url: string; body?: string } {
    const body = hop.body === undefined ? undefined : this.redact(hop.body.toString("utf8"));
    return { method: hop.method, url: this.redact(hop.url), ...(body === undefined ? {} : { body }) };
  }

  private async record(hop: FetchHop, network: (hop: FetchHop) => Promise<Response>): Promise<Response> {
    let response: Response;
    try {
      response = await network(hop);
    } catch (error) {
      this.exchanges.push({ ...this.requestOf(hop), failure: this.redact(failureOf(error)) });
      throw error;
    }
    const bytes = NULL_BODY.has(response.status) ? new Uint8Array(0) : new Uint8Array(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name.toLowerCase()));
    const stored = encode(bytes);
    this.exchanges.push({
      ...this.requestOf(hop),
      response: {
        status: response.status,
        statusText: response.statusText,
        headers: headers.map(([name, value]) => [name, this.redact(value)]),
        body: stored.bodyEncoding === "utf8" ? this.redact(stored.body) : stored.body,
        bodyEncoding: stored.bodyEncoding,
      },
    });
    return build(response.status, response.statusText, headers, bytes);
  }

  private async replay(hop: FetchHop): Promise<Response> {
    const request = this.requestOf(hop);
    const key = keyOf(request);
    const sent = new Map(hop.headers.map(([name, value]) => [name.toLowerCase(), value]));
    const fits = (e: RecordedExchange) =>
      keyOf(e) === key && Object.entries(e.when ?? {}).every(([name, value]) => sent.get(name.toLowerCase()) === value);
    const candidates = this.exchanges.filter(fits);
    const conditional = candidates.filter((e) => e.when !== undefined);
    const matches = conditional.length > 0 ? conditional : candidates;
    if (matches.length === 0) {
      const name = `${request.method} ${request.url}`;
      this.unmatched.push(name);
      const error = new UnmatchedRequestError(
        name,
        this.file,
        this.exchanges.map((e) => `${e.method} ${e.url}`),
      );
      this.failures.push(error);
      throw error;
    }
    // The same request again gets the next recorded answer; past the last, the last again.
    const turn = conditional.length > 0 ? `${key} when ${JSON.stringify(conditional[0].when)}` : key;
    const n = this.used.get(turn) ?? 0;
    this.used.set(turn, n + 1);
    const { response, failure } = matches[Math.min(n, matches.length - 1)]!;
    this.served.push({ method: request.method, url: request.url, status: failure !== undefined ? 0 : response.status });
    // As undici words a request that got no answer: the cause holds the network's words and code.
    if (failure !== undefined) {
      const code = /\bE[A-Z]+\b/.exec(failure)?.[0];
      throw new TypeError("fetch failed", { cause: Object.assign(new Error(failure), code ? { code } : {}) });
    }
    const bytes =
      response.bodyEncoding === "base64" ? Buffer.from(response.body, "base64") : Buffer.from(response.body, "utf8");
    return build(response.status, response.statusText, response.headers, bytes);
  }
}

/**
 * One exchange answering JSON, for recordings written by hand or by a tool (svckit new's).
 *
 * @example
 * formatRecording([jsonExchange("GET", "https://api.example.com/usage", { used: 3 })])
 */
export function jsonExchange(method: string, url: string, json: unknown, status = 200): RecordedExchange {
  return {
    method,
    url,
    response: {
      status,
      statusText: status === 200 ? "OK" : "",
      headers: [["content-type", "application/json"]],
      body: JSON.stringify(json),
      bodyEncoding: "utf8",
    },
  };
}

/** A recording file's text; `source` says where its shape comes from. */
export function formatRecording(exchanges: RecordedExchange[], source?: string): string {
  const file: RecordingFile = { version: FORMAT_VERSION, ...(source === undefined ? {} : { source }), exchanges };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** The `source` of the recording at `file`, if there is one to keep (recording again replaces the rest). */
async function sourceOf(file: string): Promise<string | undefined> {
  try {
    const source = (JSON.parse(await readFile(file, "utf8")) as Partial<RecordingFile>).source;
    return typeof source === "string" ? source : undefined;
  } catch {
    return undefined; // no file yet, or one that is not JSON: recording writes it whole
  }
}

/** The words of a network failure: undici's `fetch failed` carries them in its cause. */
function failureOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

function keyOf(request: { method: string; url: string; body?: string }): string {
  return JSON.stringify([request.method, request.url, request.body ?? null]);
}

/** An answer as undici's fetch gives one (undici is loaded on first use: see libraries.ts). */
function build(status: number, statusText: string, headers: [string, string][], bytes: Uint8Array): Response {
  const { Response } = loadUndici();
  return new Response(NULL_BODY.has(status) ? null : bytes, { status, statusText, headers });
}
