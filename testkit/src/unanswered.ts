/**
 * An address nothing answers on, for testing what an extension does offline: a recording cannot
 * hold "no answer", so the test gives a `url` option (or a loopback entry) this address, and the
 * real fetch is refused at once, as a network that is down refuses it.
 */
import { createServer } from "node:net";

/**
 * `http://127.0.0.1:<port>`: a port a server held a moment ago and let go, so nothing listens on it.
 *
 * @example
 * const ext = await loadExtension(".", { preferences: { server: await unansweredAddress() } });
 * await ext.run(); // fetch fails: "No connection"
 */
export function unansweredAddress(): Promise<string> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });
}
