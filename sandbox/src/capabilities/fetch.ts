/**
 * The `fetch` and `fetch.abort` ops. The host never lets undici follow a redirect: it asks for
 * `redirect: "manual"` and follows hop by hop itself, checking every Location against the
 * policy. Connections go through an Agent whose DNS lookup is guarded (address-guard.ts), with
 * no proxy, no cookie jar and no credentials of the host's.
 */
import type { Agent, Response } from "undici";
import type { OpCall, CapabilityContext, OpHandler } from "./context.js";
import { findDenial } from "./denial.js";
import { guardedLookup } from "./address-guard.js";
import { checkNetworkUrl, networkPolicyOf } from "./network-policy.js";
import { parseFetchArgs, type FetchRequest } from "./fetch-request.js";
import { readArgs } from "./args.js";
import { describeBytes } from "./limits.js";
import { loadUndici } from "./libraries.js";
import type { FetchHop, ResolvedOptions } from "./options.js";
import type { FetchResult } from "./fetch-result.js";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The body as the guest gets it: UTF-8 text when that is lossless, base64 otherwise. */
function encodeBody(bytes: Buffer): Pick<FetchResult, "body" | "bodyEncoding"> {
  try {
    return { body: strictUtf8.decode(bytes), bodyEncoding: "utf8" };
  } catch {
    return { body: bytes.toString("base64"), bodyEncoding: "base64" };
  }
}

interface FetchState {
  /** The sandbox's guarded connection, made by its first hop that passed the policy. */
  agent(): Agent;
  inFlight: Map<string, AbortController>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Headers describing a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location"];
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Builds the fetch ops bound to the given options.
 * @example const { fetch, abort } = createFetchOps(resolveOptions());
 */
export function createFetchOps(options: ResolvedOptions): { fetch: OpHandler; abort: OpHandler } {
  const states = new WeakMap<CapabilityContext, FetchState>();

  function stateOf(cx: CapabilityContext): FetchState {
    let state = states.get(cx);
    if (state) return state;
    const lookup = guardedLookup(cx, networkPolicyOf(cx), "fetch", options.resolve);
    let agent: Agent | undefined;
    const created: FetchState = {
      // Made (and undici loaded) only for a hop the policy let through: a refused fetch loads nothing.
      agent: () => (agent ??= new (loadUndici().Agent)({ connect: { lookup, timeout: 30_000 } })),
      inFlight: new Map(),
    };
    cx.signal.addEventListener(
      "abort",
      () => {
        for (const controller of created.inFlight.values()) controller.abort();
        void agent?.destroy().catch(() => undefined);
      },
      { once: true },
    );
    states.set(cx, created);
    return created;
  }

  async function fetchOp(raw: unknown, cx: CapabilityContext, call: OpCall = {}): Promise<FetchResult> {
    const request = parseFetchArgs(raw, options.limits);
    if (cx.signal.aborted) throw new Error("fetch: the sandbox is closing");
    const state = stateOf(cx);
    if (state.inFlight.has(request.requestId)) {
      throw new TypeError(`fetch: request id ${request.requestId} is already in flight`);
    }
    if (state.inFlight.size >= options.limits.fetchConcurrent) {
      throw new RangeError(
        `fetch: ${options.limits.fetchConcurrent} requests are already in flight; wait for one to finish`,
      );
    }
    const controller = new AbortController();
    state.inFlight.set(request.requestId, controller);
    // One deadline for the whole request: every redirect, the headers and the last body byte.
    const deadline = AbortSignal.timeout(options.limits.fetchTimeoutMs);
    // And the invocation that made it: when that ends early (its deadline), so does the request.
    const signal = AbortSignal.any([controller.signal, deadline, ...(call.signal ? [call.signal] : [])]);
    try {
      return await follow(cx, state, request, signal);
    } catch (error) {
      if (call.signal?.aborted && !controller.signal.aborted) {
        throw new Error("fetch: the call that started the request ended, so the request was stopped");
      }
      if (deadline.aborted && !controller.signal.aborted) {
        throw new Error(
          `fetch: ${safeHost(request.url)} did not answer in full within ${options.limits.fetchTimeoutMs} ms; the request was stopped`,
        );
      }
      throw explain(error, request, signal);
    } finally {
      state.inFlight.delete(request.requestId);
    }
  }

  async function follow(
    cx: CapabilityContext,
    state: FetchState,
    request: FetchRequest,
    signal: AbortSignal,
  ): Promise<FetchResult> {
    const policy = networkPolicyOf(cx);
    let url = checkNetworkUrl(cx, policy, "fetch", request.url);
    let { method, body } = request;
    let headers = request.headers;
    for (let hops = 0; ; hops++) {
      const hop = { url: url.href, method, headers, body, signal };
      const response = await (options.transport
        ? options.transport(hop, (h) => carry(state, h), cx.id)
        : carry(state, hop));
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || location === null || request.redirect === "manual") {
        return {
          status: response.status,
          statusText: response.statusText,
          url: url.href,
          headers: [...response.headers],
          ...encodeBody(await readCapped(response, url, signal)),
          redirected: hops > 0,
        };
      }
      await response.body?.cancel().catch(() => undefined);
      if (request.redirect === "error") {
        throw new TypeError(`fetch: ${url.href} answered with a redirect (${response.status}) and redirect is "error"`);
      }
      if (hops >= options.limits.fetchMaxRedirects) {
        throw new TypeError(
          `fetch: too many redirects (more than ${options.limits.fetchMaxRedirects}) starting at ${request.url}`,
        );
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new TypeError(`fetch: ${url.href} redirected to an invalid location`);
      }
      next = checkNetworkUrl(cx, policy, "fetch", next.href);
      const becomesGet = response.status === 303 ? method !== "HEAD" : response.status <= 302 && method === "POST";
      if (becomesGet) {
        method = "GET";
        body = undefined;
        headers = headers.filter(([name]) => !BODY_HEADERS.includes(name));
      }
      if (next.origin !== url.origin) headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.includes(name));
      url = next;
    }
  }

  /** Sends one hop over the guarded connection, never following a redirect itself. */
  function carry(state: FetchState, hop: FetchHop): Promise<Response> {
    return loadUndici().fetch(hop.url, {
      method: hop.method,
      headers: hop.headers,
      body: hop.body,
      redirect: "manual",
      dispatcher: state.agent(),
      signal: hop.signal,
    });
  }

  /** Reads the (decompressed) body, stopping the transfer as soon as it passes the cap. */
  async function readCapped(response: Response, url: URL, signal: AbortSignal): Promise<Buffer> {
    if (response.body === null || NULL_BODY.has(response.status)) return Buffer.alloc(0);
    const cap = options.limits.fetchResponseBytes;
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > cap) {
        await response.body.cancel().catch(() => undefined);
        throw new RangeError(`fetch: the response body from ${url.host} is over the limit of ${describeBytes(cap)}`);
      }
      if (signal.aborted) break;
      chunks.push(chunk);
    }
    return Buffer.concat(chunks, total);
  }

  function explain(error: unknown, request: FetchRequest, signal: AbortSignal): Error {
    const denial = findDenial(error);
    if (denial) return denial;
    if (signal.aborted) return Object.assign(new Error("fetch: the request was aborted"), { name: "AbortError" });
    if (error instanceof RangeError || (error instanceof TypeError && error.message.startsWith("fetch: ")))
      return error;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return new TypeError(`fetch: could not complete the request to ${safeHost(request.url)}: ${cause}`);
  }

  function abortOp(raw: unknown, cx: CapabilityContext): null {
    const requestId = readArgs("fetch.abort", raw).id("requestId");
    states.get(cx)?.inFlight.get(requestId)?.abort();
    return null;
  }

  return { fetch: fetchOp, abort: abortOp };
}

function safeHost(raw: string): string {
  try {
    return new URL(raw).host;
  } catch {
    return "the server";
  }
}
