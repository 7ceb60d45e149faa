/**
 * The one client of `/v1`: the one reader of `webhook.json` (a missing and a malformed file each
 * named), the proof before the token (a port that cannot prove gets no token), the route's
 * method and path from the table, its answer checked against the table, and typed reasons for
 * every failure. Real loopback HTTP.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP_PROOF_NONCE_HEADER, APP_PROOF_ROUTE, appProof } from "./app-link.js";
import { AppAnswerError, AppUnreachableError, callRoute, readWebhookFile, WebhookFileError } from "./app-client.js";

const TOKEN = "k".repeat(43);
let dir: string;
let file: string;
let server: Server | undefined;
let seen: { method?: string; url?: string; authorization?: string; body: string }[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-app-client-"));
  file = join(dir, "webhook.json");
  seen = [];
});
afterEach(async () => {
  if (server) await new Promise((resolve) => server!.close(resolve));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A server that proves it holds `proves` (or answers the proof wrongly), and answers `answer` (default 200 `{ok: true}`). */
async function serve(proves: string, answer = { status: 200, text: '{"ok":true}' }): Promise<number> {
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      if (req.url === APP_PROOF_ROUTE) {
        const nonce = String(req.headers[APP_PROOF_NONCE_HEADER]);
        return void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ proof: appProof(proves, nonce) }));
      }
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.text);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await writeFile(file, JSON.stringify({ port, token: TOKEN }));
  return port;
}

describe("reading webhook.json", () => {
  it("names a missing file", async () => {
    const error = await readWebhookFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookFileError);
    expect(error).toMatchObject({
      reason: "missing",
      path: file,
      message: `no ${file}: is svc running? (it writes this file at every launch)`,
    });
  });

  it("names a file that is not {port, token}", async () => {
    for (const text of ["not json", '{"port": 0, "token": "x"}', '{"port": 65536, "token": "x"}', '{"port": 1}']) {
      await writeFile(file, text);
      await expect(readWebhookFile(file)).rejects.toMatchObject({
        reason: "invalid",
        message: `${file} is not {"port": <number>, "token": "<string>"}: restart svc to rewrite it`,
      });
    }
  });

  it("takes ports 1 and 65535", async () => {
    for (const port of [1, 65535]) {
      await writeFile(file, JSON.stringify({ port, token: TOKEN }));
      expect(await readWebhookFile(file)).toEqual({ port, token: TOKEN });
    }
  });
});

describe("calling a route", () => {
  it("proves first, then sends the route's method and filled path with the token and the body", async () => {
    await serve(TOKEN);
    const answer = await callRoute(file, "setOption", { id: "webhook/deploy", name: "a b" }, { body: { value: 1 } });
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    expect(seen.map(({ method, url, authorization }) => ({ method, url: url?.split("?")[0], authorization }))).toEqual([
      { method: "GET", url: APP_PROOF_ROUTE, authorization: undefined },
      { method: "PUT", url: "/v1/extensions/webhook%2Fdeploy/options/a%20b", authorization: `Bearer ${TOKEN}` },
    ]);
    expect(seen[1]!.body).toBe('{"value":1}');
  });

  it("sends nothing but the proof's nonce to a port that cannot prove it holds the token", async () => {
    const port = await serve("someone else's token");
    const error = await callRoute(file, "listExtensions", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppUnreachableError);
    expect(error).toMatchObject({ reason: "not-svc", port });
    expect(seen.map(({ method, url, authorization }) => ({ method, url, authorization }))).toEqual([
      { method: "GET", url: APP_PROOF_ROUTE, authorization: undefined },
    ]);
  });

  it("says the port is refused when nothing listens", async () => {
    const port = await serve(TOKEN);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(callRoute(file, "health", {})).rejects.toMatchObject({ reason: "refused", port });
  });

  it("appends the query and checks the answer against the route", async () => {
    await serve(TOKEN, { status: 202, text: '{"ok":true}' });
    const answer = await callRoute(file, "hook", { extensionId: "deploys" }, { body: {}, query: { await: "30" } });
    expect(answer).toEqual({ status: 202, body: { ok: true } });
    expect(seen[1]!.url).toBe("/v1/hooks/deploys?await=30");
  });

  it("refuses an answer that is not the route's, naming the route", async () => {
    await serve(TOKEN, { status: 200, text: '{"extensions":[{"id":7}]}' });
    const error = await callRoute(file, "listExtensions", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppAnswerError);
    expect(error).toMatchObject({
      route: "listExtensions",
      status: 200,
      message:
        "GET /v1/extensions (listExtensions) answered 200 with a body that is not the route's answer at extensions.0.id: Invalid input: expected string, received number. Are svc and this program the same version?",
    });
  });

  it("refuses an error answer that is not {error}, and takes one that is", async () => {
    await serve(TOKEN, { status: 404, text: "<html>not found</html>" });
    await expect(callRoute(file, "uiTicket", {})).rejects.toMatchObject({
      name: "AppAnswerError",
      message:
        'POST /v1/ui/tickets (uiTicket) answered 404 with a body that is not an error answer ({"error": "…"}): Invalid input: expected object, received string. Are svc and this program the same version?',
    });
    await new Promise((resolve) => server!.close(resolve));
    await serve(TOKEN, { status: 404, text: '{"error":"no route"}' });
    expect(await callRoute(file, "uiTicket", {})).toEqual({ status: 404, body: { error: "no route" } });
  });
});
