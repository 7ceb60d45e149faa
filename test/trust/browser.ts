/**
 * A person at a browser, driven with plain HTTP: follows redirects by hand, keeps cookies, and
 * answers oidc-provider's development login and consent pages (or cancels at consent), and its
 * device-flow page, where the person types the code they were shown (`userCode`).
 */

import { request as httpsRequest } from "node:https";

export interface BrowserResult {
  /** The last response: normally the svc callback page. */
  status: number;
  body: string;
  /** Every address visited, in order. */
  visited: string[];
}

class CookieJar {
  readonly #cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]) < Date.now());
      if (expired || value === "") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

function formAction(html: string, base: string): string {
  const match = /<form[^>]*action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form on the page:\n${html.slice(0, 500)}`);
  return new URL(match[1].replace(/&amp;/g, "&"), base).href;
}

function cancelLink(html: string, base: string): string {
  const match = /<a href="([^"]+\/abort)"/.exec(html);
  if (!match) throw new Error("no cancel link on the consent page");
  return new URL(match[1].replace(/&amp;/g, "&"), base).href;
}

/**
 * `fetch` for a service with a self-signed certificate (`ca`, PEM): the browser of a person who
 * trusts it. Plain node:https, as Node 20's fetch takes no certificate of its own.
 */
function fetchTrusting(ca: string): typeof globalThis.fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const request = httpsRequest(
        String(input),
        { method: init?.method ?? "GET", headers: init?.headers as Record<string, string>, ca },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(response.headers))
              for (const one of [value ?? []].flat()) headers.append(name, one);
            resolve(new Response(Buffer.concat(chunks), { status: response.statusCode, headers }));
          });
        },
      );
      request.on("error", reject);
      request.end(init?.body as string | undefined);
    });
}

/**
 * Opens `url` and signs in as `login`; at consent presses Continue, or Cancel when `deny`.
 *
 * @example
 * const page = await signInInBrowser(authorizeUrl, { login: "alice" });
 */
export async function signInInBrowser(
  url: string,
  options: { login: string; deny?: boolean; userCode?: string; trust?: string },
): Promise<BrowserResult> {
  const fetch = options.trust === undefined ? globalThis.fetch : fetchTrusting(options.trust);
  const jar = new CookieJar();
  const visited: string[] = [];
  /** The code is typed once; the page that says how it ended shows the form again. */
  let typed = false;
  let request: { url: string; method: "GET" | "POST"; body?: string } = { url, method: "GET" };
  for (let step = 0; step < 20; step++) {
    visited.push(request.url);
    const response = await fetch(request.url, {
      method: request.method,
      redirect: "manual",
      headers: {
        cookie: jar.header(),
        ...(request.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: request.body,
    });
    jar.take(response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      await response.arrayBuffer();
      request = { url: new URL(location, request.url).href, method: "GET" };
      continue;
    }
    const body = await response.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(body)?.[1];
    if (xsrf && options.userCode !== undefined && !typed) {
      typed = true;
      // The device-flow page: type the code and confirm it.
      const form = new URLSearchParams({ xsrf, user_code: options.userCode, confirm: "yes" });
      request = { url: formAction(body, request.url), method: "POST", body: form.toString() };
    } else if (body.includes('name="prompt" value="login"')) {
      const form = new URLSearchParams({ prompt: "login", login: options.login, password: "any" });
      request = { url: formAction(body, request.url), method: "POST", body: form.toString() };
    } else if (body.includes('name="prompt" value="consent"')) {
      request = options.deny
        ? { url: cancelLink(body, request.url), method: "GET" }
        : { url: formAction(body, request.url), method: "POST", body: "prompt=consent" };
    } else {
      return { status: response.status, body, visited };
    }
  }
  throw new Error(`too many steps: ${visited.join(" → ")}`);
}
