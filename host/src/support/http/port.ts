/**
 * Which port to ask for, and listening with the fallback SPEC.md promises: 47811 (or
 * `SVC_PORT`), else any free port when that one is taken.
 */
import type { Server } from "node:http";

/** SPEC.md Limits: the HTTP server's default port. */
/** The only address svc listens on. */
export const LOOPBACK = "127.0.0.1";

export const DEFAULT_PORT = 47811;

/**
 * The port from `SVC_PORT`, else 47811. `0` means "any free port".
 *
 * @example
 * preferredPort({ SVC_PORT: "48000" }) // 48000
 * @throws Error when `SVC_PORT` is not a whole number 0–65535.
 */
export function preferredPort(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.SVC_PORT;
  if (raw === undefined || raw === "") return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535)
    throw new Error(`SVC_PORT should be a port number 0–65535, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function listenOnce(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/**
 * Listens on `host:port`; when the port is taken, on a free port instead. Returns the port.
 *
 * @example
 * const port = await listenWithFallback(server, 47811, "127.0.0.1");
 */
export async function listenWithFallback(
  server: Server,
  port: number,
  host: string,
): Promise<{ port: number; fellBack: boolean }> {
  try {
    await listenOnce(server, port, host);
    return { port: (server.address() as { port: number }).port, fellBack: false };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EADDRINUSE" && code !== "EACCES") throw error;
    await listenOnce(server, 0, host);
    return { port: (server.address() as { port: number }).port, fellBack: true };
  }
}
