/**
 * How the shell reads the host's answers to `POST /v1/ui/tickets`. Here a loopback server that
 * holds the token (it answers the proof, as svc does) answers what a broken or old host could,
 * to hold the shell to loading only svc's own UI address. The real host's join, start, pause and
 * resume, and a squatter that cannot prove it holds the token, are in
 * test/desktop/host-link.test.ts and test/host-http/app-keys.test.ts.
 */
import { createServer, type Server } from "node:http";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { APP_PROOF_NONCE_HEADER, APP_PROOF_ROUTE, appProof } from "@svc/runtime";
import { HostClient } from "./host-link.js";

const TICKET = "A".repeat(43);

describe("the one-time UI address", () => {
  let folder: string;
  let server: Server;
  let answer: { status: number; body: string };
  let seen: { method?: string; url?: string; authorization?: string }[];
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), "svc-desktop-link-"));
    seen = [];
    server = createServer((req, res) => {
      if (req.url === APP_PROOF_ROUTE)
        return void res.end(JSON.stringify({ proof: appProof("tok", String(req.headers[APP_PROOF_NONCE_HEADER])) }));
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await writeFile(join(folder, "webhook.json"), JSON.stringify({ port, token: "tok" }));
  });
  afterEach(async () => {
    server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("asks with the token and takes svc's UI address", async () => {
    answer = { status: 200, body: JSON.stringify({ url: `http://127.0.0.1:47900/#t=${TICKET}` }) };
    expect(await new HostClient(folder).uiUrl()).toBe(`http://127.0.0.1:47900/#t=${TICKET}`);
    expect(seen).toEqual([{ method: "POST", url: "/v1/ui/tickets", authorization: "Bearer tok" }]);
  });

  it("refuses any other address", async () => {
    for (const url of [
      `https://evil.example/#t=${TICKET}`,
      `http://127.0.0.1/#t=${TICKET}`,
      `http://localhost:47900/#t=${TICKET}`,
      `http://127.0.0.1:47900/evil#t=${TICKET}`,
      `http://127.0.0.1:47900/#t=${TICKET}&next=x`,
      `http://127.0.0.1:65536/#t=${TICKET}`,
      "http://127.0.0.1:47900/#t=abc",
      "file:///etc/passwd",
      "http://user:pw@127.0.0.1:5/",
    ]) {
      answer = { status: 200, body: JSON.stringify({ url }) };
      await expect(new HostClient(folder).uiUrl()).rejects.toThrow(
        `POST /v1/ui/tickets gave no svc UI address: ${JSON.stringify({ url })}`,
      );
    }
    // Not even a text: the one client's check against the route table (sdk's V1_ROUTES) refuses it first.
    answer = { status: 200, body: JSON.stringify({ url: 42 }) };
    await expect(new HostClient(folder).uiUrl()).rejects.toThrow(
      "POST /v1/ui/tickets (uiTicket) answered 200 with a body that is not the route's answer at url: Invalid input: expected string, received number. Are svc and this program the same version?",
    );
  });

  it("says to update svc when the host has no UI server", async () => {
    answer = { status: 404, body: JSON.stringify({ error: "no route POST /v1/ui/tickets" }) };
    await expect(new HostClient(folder).uiUrl()).rejects.toThrow(
      "this svc-host has no UI server (POST /v1/ui/tickets is missing): update svc",
    );
  });

  it("passes the host's own error on", async () => {
    answer = { status: 401, body: JSON.stringify({ error: "missing or wrong bearer token" }) };
    await expect(new HostClient(folder).pause()).rejects.toThrow(
      "POST /v1/scheduler/pause answered 401: missing or wrong bearer token",
    );
  });

  it("says when svc is not running", async () => {
    await expect(new HostClient(join(folder, "nowhere")).uiUrl()).rejects.toThrow(
      `svc is not running: ${join(folder, "nowhere", "webhook.json")} is missing or unreadable`,
    );
    expect(await new HostClient(join(folder, "nowhere")).isLive()).toBe(false);
  });
});
