/**
 * `svckit send` against a real loopback HTTP server. The server is a stand-in for the host
 * (see stand-in-host.ts): the host is not built yet.
 */
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStandInHost, type StandInHost } from "./stand-in-host.js";
import { svckit, tempFolder } from "./harness.js";

let folder: { dir: string; remove(): Promise<void> };
let host: StandInHost;
const env = () => ({ SVC_HOME: folder.dir });

async function writeWebhook(port: number, token: string): Promise<void> {
  await writeFile(join(folder.dir, "webhook.json"), JSON.stringify({ port, token }), { mode: 0o600 });
}

beforeAll(async () => {
  folder = await tempFolder();
  host = await startStandInHost("first-token");
  await writeFile(
    join(folder.dir, "deploy.json"),
    JSON.stringify({ title: "Deploy", layout: "progress", data: { fraction: 0.5, step: "Tests" } }),
  );
});
afterAll(async () => {
  await host.close();
  await folder.remove();
});

describe("svckit send", () => {
  it("posts the file with the bearer token and prints each blip's id and seq", async () => {
    await writeWebhook(host.port, "first-token");
    const result = await svckit(["send", "deploy.json"], { cwd: folder.dir, env: env() });
    expect(result).toMatchObject({ code: 0, stdout: "sent webhook/deploy (seq 1)" });
    const last = host.received.at(-1);
    expect(last?.headers.authorization).toBe("Bearer first-token");
    expect(last?.headers["content-type"]).toBe("application/json");
    expect(last?.headers.origin).toBeUndefined();
    expect(last?.body).toEqual({ title: "Deploy", layout: "progress", data: { fraction: 0.5, step: "Tests" } });
  });

  it("reads standard input for -, and an array sends several blips", async () => {
    await writeWebhook(host.port, "first-token");
    const stdin = JSON.stringify([
      { id: "a", title: "A" },
      { id: "ci/b", title: "B" },
    ]);
    const result = await svckit(["send", "-"], { cwd: folder.dir, env: env(), stdin });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("sent webhook/a (seq 1)\nsent ci/b (seq 1)");
  });

  it("reads webhook.json afresh on every run (the app writes a new token at each launch)", async () => {
    host.token = "second-token";
    await writeWebhook(host.port, "second-token");
    const result = await svckit(["send", "deploy.json"], { cwd: folder.dir, env: env() });
    expect(result.code).toBe(0);
    expect(host.received.at(-1)?.headers.authorization).toBe("Bearer second-token");
  });

  it("sends nothing to a port that cannot prove it holds the token in webhook.json", async () => {
    await writeWebhook(host.port, "old-token");
    const before = host.received.length;
    const result = await svckit(["send", "deploy.json"], { cwd: folder.dir, env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `something else is answering on port ${host.port}: it is not svc (it could not prove it holds svc's key). Stop it, or start svc-host again.`,
    );
    expect(host.received).toHaveLength(before);
  });

  it("prints the server's error on 400", async () => {
    await writeWebhook(host.port, host.token);
    const result = await svckit(["send", "-"], { cwd: folder.dir, env: env(), stdin: '[{"title":"ok"},{"title":3}]' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('the app rejected the payload: invalid payload at [1]: "title" should be a string');
  });

  it("says the app is not running when the connection is refused", async () => {
    const port = await closedPort();
    await writeWebhook(port, host.token);
    const result = await svckit(["send", "deploy.json"], { cwd: folder.dir, env: env() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `the app is not running: nothing answers on 127.0.0.1:${port} (connection refused). Start the app and try again.`,
    );
  });

  it("explains a missing webhook.json", async () => {
    const empty = await tempFolder();
    const result = await svckit(["send", "deploy.json"], { cwd: folder.dir, env: { SVC_HOME: empty.dir } });
    await empty.remove();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `no webhook.json in ${empty.dir}: start the app (it writes the file at every launch),\n` +
        "or set SVC_HOME to the support folder the app uses.",
    );
  });

  it("explains a webhook.json whose port is past 65535", async () => {
    const bad = await tempFolder();
    await writeFile(join(bad.dir, "webhook.json"), JSON.stringify({ port: 65536, token: "t" }));
    const result = await svckit(["send", "deploy.json"], { cwd: folder.dir, env: { SVC_HOME: bad.dir } });
    await bad.remove();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${join(bad.dir, "webhook.json")} is not {"port": <number>, "token": "<string>"}: restart the app to rewrite it.`,
    );
  });

  it("refuses a file that is not JSON before contacting the app", async () => {
    const before = host.received.length;
    const result = await svckit(["send", "-"], { cwd: folder.dir, env: env(), stdin: "{title:" });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^standard input is not JSON: /);
    expect(host.received.length).toBe(before);
  });

  it("is a usage error without a file", async () => {
    const result = await svckit(["send"], { cwd: folder.dir, env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("missing <file>\nRun `svckit send --help` for usage.");
  });
});

/** A port on which nothing listens: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
