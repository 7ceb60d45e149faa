/**
 * The loopback address a browser comes back to after a sign-in:
 * `http://127.0.0.1:<port>/oauth/callback` (port 47812, SPEC.md). It listens on 127.0.0.1 only,
 * and only while a sign-in is pending; the OAuth service opens and closes it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** The port the redirect names. */
export const OAUTH_CALLBACK_PORT = 47812;

/** The redirect address for a port. @example redirectUriFor(47812) // "http://127.0.0.1:47812/oauth/callback" */
export function redirectUriFor(port: number): string {
  return `http://127.0.0.1:${port}/oauth/callback`;
}

/** The sign-in port is taken by another program. */
export class SignInPortTakenError extends Error {
  override readonly name = "SignInPortTakenError";
  constructor(port: number) {
    super(`cannot start the sign-in: port ${port} on 127.0.0.1 is in use by another program; close it and try again`);
  }
}

/** An answer for the browser: a status and a short page. */
export interface CallbackPage {
  status: number;
  title: string;
  message: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function send(res: ServerResponse, page: CallbackPage): void {
  const html = `<!doctype html><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>
<body style="font:16px system-ui;margin:4em auto;max-width:32em"><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p></body>`;
  res.writeHead(page.status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    // The page carries nothing secret, but it should not be framed or leak the code onwards.
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    // One answer per connection: nothing keeps the port busy once the sign-in is over.
    connection: "close",
  });
  res.end(html);
}

/**
 * @example
 * const server = new CallbackServer(47812, async (params) => ({ status: 200, title: "Signed in", message: "…" }));
 * await server.open(); … await server.close();
 */
export class CallbackServer {
  #server: Server | undefined;

  constructor(
    readonly port: number,
    private readonly onCallback: (params: URLSearchParams) => Promise<CallbackPage>,
  ) {}

  get listening(): boolean {
    return this.#server !== undefined;
  }

  /** Starts listening (once); rejects with `SignInPortTakenError` when the port is taken. */
  async open(): Promise<void> {
    if (this.#server) return;
    const server = createServer((req, res) => void this.#answer(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error: NodeJS.ErrnoException) =>
        reject(error.code === "EADDRINUSE" || error.code === "EACCES" ? new SignInPortTakenError(this.port) : error),
      );
      server.listen({ port: this.port, host: "127.0.0.1", exclusive: true }, () => resolve());
    });
    this.#server = server;
  }

  /** Stops listening; open connections are ended. */
  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  async #answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== "/oauth/callback") {
      send(res, { status: 404, title: "Not found", message: "Nothing here." });
      return;
    }
    try {
      send(res, await this.onCallback(url.searchParams));
    } catch (error) {
      send(res, { status: 500, title: "Sign-in failed", message: (error as Error).message });
    }
  }
}
