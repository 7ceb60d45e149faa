/**
 * Servers the person grants, end to end: two extensions installed with the real `svc-host
 * install` (real gnome-keyring on a private D-Bus, which keys the permission ledger), the real
 * host and runtime, and a loopback HTTP server. An extension with a `url` option reaches that
 * server only once the person sets the address and allows it (`svc-host set … --yes`); exactly
 * its origin (scheme, host, port) is admitted, for that extension only; a redirect leaves it only
 * to where the manifest's list allows; clearing the option takes the grant back.
 */
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { writeSvc } from "../trust/svc-package.js";
import { startHost, useHostWorld, webhookInfo, type World } from "../host/harness.js";
import { cliEnv, GUEST_HELPERS, reportOfRun, svcHostCli } from "./fixtures.js";

const session = useSessionKeyring();
const scene = useHostWorld();
const cli = (words: string[]) => svcHostCli(cliEnv(scene.world, session.bus.address), words);

const CAL = "com.example.cal";
const OTHER = "com.example.other";

/** The person's server, and a second one on another port (never granted). */
let server: Server;
let elsewhere: Server;
let port = 0;
let otherPort = 0;

const listen = (s: Server) =>
  new Promise<number>((done) => s.listen(0, "127.0.0.1", () => done((s.address() as AddressInfo).port)));

beforeAll(async () => {
  elsewhere = createServer((_req, res) => res.end("elsewhere"));
  otherPort = await listen(elsewhere);
  server = createServer((req, res) => {
    if (req.url === "/same") return void res.writeHead(302, { location: "/calendar.ics" }).end();
    if (req.url === "/away") return void res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` }).end();
    res.end("BEGIN:VCALENDAR");
  });
  port = await listen(server);
});
afterAll(() => {
  server.close();
  elsewhere.close();
});

/** What each run tries: the server's origin, a redirect within it, one out of it, another port, another spelling. */
const targets = () => ({
  granted: `http://127.0.0.1:${port}/calendar.ics`,
  sameOrigin: `http://127.0.0.1:${port}/same`,
  away: `http://127.0.0.1:${port}/away`,
  otherPort: `http://127.0.0.1:${otherPort}/`,
  byName: `http://localhost:${port}/calendar.ics`,
});

/** Fetches every target and reports what came back; at launch it also tries to set its own server. */
function calendarCode(): string {
  return `${GUEST_HELPERS}
const TARGETS = ${JSON.stringify(targets())};
module.exports = { default: { async update(ctx) {
  const seen = { trigger: ctx.trigger.type, server: ctx.preferences.server ?? null };
  for (const [name, url] of Object.entries(TARGETS)) {
    const r = await attempt(fetch(url).then((res) => res.text()));
    seen[name] = r.error ? "refused: " + r.error : r.ok;
  }
  if (ctx.trigger.type === "launch") seen.ownSet = await attempt(ctx.setPreference("server", TARGETS.otherPort));
  await report(ctx, "report", seen);
} } };`;
}

function packageJson(id: string, title: string): string {
  return JSON.stringify({
    name: id.split(".").pop(),
    version: "1.0.0",
    main: "dist/index.js",
    svc: {
      id,
      title,
      interval: "1h",
      permissions: { network: [] },
      preferences: [{ name: "server", title: "Calendar address", type: "url" }],
    },
  });
}

async function install(world: World, id: string, title: string): Promise<void> {
  const file = join(world.root, `${id}.svc`);
  await writeSvc(file, { "package.json": packageJson(id, title), "dist/index.js": calendarCode() });
  const installed = await cli(["install", file, "--yes"]);
  expect(installed).toMatchObject({ code: 0, stderr: "" });
  // The review says what the option lets it do.
  expect(installed.stdout).toContain(
    `connect to a server you choose (its option "Calendar address"), once you allow that server`,
  );
}

async function v1(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const { port: apiPort, token } = await webhookInfo(scene.world);
  const response = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

/** The fence's denial of `host:p` as the guest sees it. */
const denied = (host: string, p: number, why = `"${host}" is not in permissions.network`) =>
  `refused: fetch to ${host}:${p} denied: ${why} (add "${host}:${p}" to svc.permissions.network in package.json)`;

describe("servers the person grants, through the real host", { timeout: 120_000 }, () => {
  it("admits exactly the granted origin for that extension, until the option is cleared", async () => {
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
    await install(scene.world, CAL, "Calendar");
    await install(scene.world, OTHER, "Other");
    const before = await reportOfRun(scene.host, `${CAL}/report`, "launch");
    const refusedAll = {
      granted: denied("127.0.0.1", port),
      sameOrigin: denied("127.0.0.1", port),
      away: denied("127.0.0.1", port),
      otherPort: denied("127.0.0.1", otherPort),
      byName: denied("localhost", port),
    };
    expect(before).toEqual({
      trigger: "launch",
      server: null,
      ...refusedAll,
      ownSet: { error: '"server" is a server address option: only the person can set it, in Settings' },
    });

    // Asked without a terminal: not set; over the API without "allowed": the question comes back.
    const asked = await cli(["set", CAL, "server", targets().granted]);
    expect(asked.code).toBe(1);
    expect(asked.stdout).toBe(
      `Let Calendar connect to 127.0.0.1:${port} (http, not encrypted)?\n  http://127.0.0.1:${port}\n  ! programs on your own computer (loopback)\n`,
    );
    expect(asked.stderr).toBe(
      "svc-host set: not set: stdin is not a terminal to ask on; run again with --yes to allow it\n",
    );
    const api = await v1("PUT", `/v1/extensions/${CAL}/options/server`, { value: targets().granted });
    expect(api.json).toEqual({
      error: `Let Calendar connect to 127.0.0.1:${port} (http, not encrypted)? Not set yet: the person has to allow it first`,
    });
    // Allowing another origin than the value's is no answer.
    const wrong = await v1("PUT", `/v1/extensions/${CAL}/options/server`, {
      value: targets().granted,
      allowed: `http://127.0.0.1:${otherPort}`,
    });
    expect(api.status).toBe(400);
    expect(wrong).toEqual(api);

    const granting = scene.host.events.length;
    const set = await cli(["set", CAL, "server", targets().granted, "--yes"]);
    expect(set).toMatchObject({ code: 0, stderr: "" });
    expect(set.stdout).toContain(`Set ${CAL} server = "${targets().granted}"; it runs again with the new value\n`);
    const after = await reportOfRun(scene.host, `${CAL}/report`, "preferences", granting);
    expect(after).toEqual({
      trigger: "preferences",
      server: targets().granted,
      granted: "BEGIN:VCALENDAR",
      sameOrigin: "BEGIN:VCALENDAR",
      // A redirect out of the granted origin is checked like any request: refused.
      away: denied("127.0.0.1", otherPort, `"127.0.0.1" is listed, but not for port ${otherPort}`),
      otherPort: denied("127.0.0.1", otherPort, `"127.0.0.1" is listed, but not for port ${otherPort}`),
      // Exactly the origin: another spelling of the same machine is another origin.
      byName: denied("localhost", port),
    });
    // The ledger holds the grant, MAC'd.
    const ledger = JSON.parse(await readFile(join(scene.world.home, "ledger.json"), "utf8"));
    expect(ledger.grants).toEqual({
      [CAL]: {
        grants: { id: CAL, origins: { server: `http://127.0.0.1:${port}` } },
        mac: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });

    // The other extension, with the same code and option, gains nothing.
    const otherRun = scene.host.events.length;
    expect((await v1("POST", `/v1/extensions/${OTHER}/run`)).status).toBe(200);
    expect(await reportOfRun(scene.host, `${OTHER}/report`, "manual", otherRun)).toMatchObject({
      server: null,
      ...refusedAll,
    });

    // Cleared: refused again, and the ledger forgets it.
    const clearing = scene.host.events.length;
    expect(await cli(["set", CAL, "server", "--clear"])).toMatchObject({ code: 0, stderr: "" });
    expect(await reportOfRun(scene.host, `${CAL}/report`, "preferences", clearing)).toEqual({
      trigger: "preferences",
      server: null,
      ...refusedAll,
    });
    expect(JSON.parse(await readFile(join(scene.world.home, "ledger.json"), "utf8")).grants).toBeUndefined();
  });
});
