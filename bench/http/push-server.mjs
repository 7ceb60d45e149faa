// One HTTP server for bench/http-push.mjs, in its own process so the load generator does not
// share its thread: `svc` is the host's real server (startHttpServer from host/dist, a real
// BlipStore in a temp folder); `baseline` is a bare express app that parses the same JSON body
// and answers 200. Prints `{"port", "token"}` on one line once listening; SIGTERM stops it.
import express from "express";
import { createServer } from "node:http";
import { join } from "node:path";
import { tempDir } from "../lib/temp.mjs";

const kind = process.argv[2];

async function startSvc() {
  const { startHttpServer } = await import("../../host/dist/http/index.js");
  const { BlipStore } = await import("../../host/dist/store/index.js");
  const dir = tempDir("svc-bench-http-");
  const store = await BlipStore.open(join(dir, "blips.json"), { log: () => {} });
  const hooks = { status: () => "unknown", deliver: () => {} };
  const server = await startHttpServer({ store, hooks, port: 0, log: () => {} });
  return { port: server.port, token: server.token, close: async () => (await server.close(), await store.dispose()) };
}

async function startBaseline() {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(express.json({ limit: "1mb" }));
  app.post("/v1/blips", (req, res) => void res.status(200).json({ ok: true }));
  const server = createServer(app);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: server.address().port, token: "unused", close: () => new Promise((resolve) => server.close(resolve)) };
}

const running = kind === "svc" ? await startSvc() : kind === "baseline" ? await startBaseline() : undefined;
if (!running) {
  console.error("usage: node bench/http/push-server.mjs svc|baseline");
  process.exit(2);
}
process.stdout.write(`${JSON.stringify({ port: running.port, token: running.token })}\n`);
process.on("SIGTERM", () => void running.close().finally(() => process.exit(0)));
