/**
 * A small stand-in for the host's local HTTP server, for testing `svckit send` until the host
 * lands (host/ is not built yet). It follows DESIGN.md's table for the cases `send` meets:
 * bearer token (401 + WWW-Authenticate), Origin (403), content type (415), invalid JSON
 * (400 `invalid JSON: …`), an invalid payload (400 in SPEC.md's form), and the 200 answer
 * `{"ok": true, "blips": [{"id", "seq"}]}`, and the token proof every client asks first
 * (`GET /v1/proof`, answered with the token it holds, as svc does). Once the host exists, test/cli/send.test.ts should
 * also run against the real one.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { APP_PROOF_NONCE_HEADER, APP_PROOF_ROUTE, appProof } from "@svc/runtime";

export interface StandInHost {
  port: number;
  /** The token the server accepts; tests change it to imitate a relaunch. */
  token: string;
  received: Array<{ headers: IncomingMessage["headers"]; body: unknown }>;
  close(): Promise<void>;
}

export async function startStandInHost(token: string): Promise<StandInHost> {
  const seqs = new Map<string, number>();
  const state: StandInHost = { port: 0, token, received: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method === "GET" && req.url === APP_PROOF_ROUTE)
        return answer(200, { proof: appProof(state.token, String(req.headers[APP_PROOF_NONCE_HEADER])) });
      if (req.headers.authorization !== `Bearer ${state.token}`) {
        return answer(401, { error: "missing or wrong bearer token" }, { "www-authenticate": "Bearer" });
      }
      if (req.headers.origin !== undefined) return answer(403, { error: "cross-origin requests are refused" });
      if (req.method !== "POST" || req.url !== "/v1/blips") return answer(404, { error: "not found" });
      if (!req.headers["content-type"]?.startsWith("application/json")) {
        return answer(415, { error: "content type must be application/json" });
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch (error) {
        return answer(400, { error: `invalid JSON: ${(error as Error).message}` });
      }
      state.received.push({ headers: req.headers, body });
      const payloads = Array.isArray(body) ? body : [body];
      const blips: Array<{ id: string; seq: number }> = [];
      for (const [index, payload] of payloads.entries()) {
        const title = (payload as { title?: unknown })?.title;
        if (typeof title !== "string") {
          return answer(400, { error: `invalid payload at [${index}]: "title" should be a string` });
        }
        const given = (payload as { id?: unknown }).id;
        const raw = typeof given === "string" ? given : title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
        const id = raw.includes("/") ? raw : `webhook/${raw}`;
        const seq = (seqs.get(id) ?? 0) + 1;
        seqs.set(id, seq);
        blips.push({ id, seq });
      }
      answer(200, { ok: true, blips });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
