/**
 * The permission ledger end to end: the real `svc-host install` records what the person
 * approved (keyed by a real gnome-keyring on a private D-Bus), the real host checks it at every
 * load. A package that rewrites its own package.json with more (what `cp` would do), changes its
 * code, or edits the ledger without the key is not loaded, and every display says "changed on
 * disk since you installed it" (or why the approval does not count) with the way out; `svc-host
 * accept` shows the update review and records it; uninstall forgets the approval and the
 * extension's switches for AI agents.
 */
import { createHash } from "node:crypto";
import { access, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseManifest, type Manifest } from "@svc/api";
import { gainedReach } from "../../host/src/review/index.js";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { ledgerKeyAccount, LEDGER_KEY_SERVICE } from "../../host/src/ledger/index.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { writeSvc } from "../trust/svc-package.js";
import {
  counterCode,
  startHost,
  useHostWorld,
  webhookInfo,
  writeExtension,
  type HostEvent,
  type World,
} from "../host/harness.js";
import { cliEnv, GUEST_HELPERS, nextReport, reportOfRun, svcHostCli } from "./fixtures.js";

const session = useSessionKeyring();
const scene = useHostWorld();

const ID = "com.example.copier";
const REMEDY = `accept it (svc-host accept ${ID}, or Settings) or remove it (svc-host uninstall ${ID})`;

const cli = (words: string[]) => svcHostCli(cliEnv(scene.world, session.bus.address), words);

/** Where the code's `sh` writes when it is allowed to run. */
const marker = (world: World) => join(world.userHome, "sh-ran");

function copierJson(permissions: Record<string, unknown>): string {
  return JSON.stringify({
    name: "copier",
    version: "1.0.0",
    main: "dist/index.js",
    svc: {
      id: ID,
      title: "Copier",
      interval: "1h",
      permissions,
    },
  });
}

/** Every run tries `sh`; the fence refuses it unless the manifest allows it. */
function copierCode(world: World): string {
  return `${GUEST_HELPERS}
module.exports = { default: {
  tools: { plain: { id: "plain", title: "Plain", icon: "circle", run: () => [{ type: "status", text: "plain", tone: "positive" }] } },
  async update(ctx) {
    const sh = await attempt(ctx.exec("sh", ["-c", "echo ran > " + ${JSON.stringify(JSON.stringify(marker(world)))}]));
    await report(ctx, "report", { trigger: ctx.trigger.type, sh: sh.error ? "refused" : "ran" });
  },
} };`;
}

const APPROVED = { exec: ["cp"] };
const WIDER = { exec: ["cp", "sh"], runAnyCommand: true };

function manifest(text: string): Manifest {
  const parsed = parseManifest(JSON.parse(text));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.manifest;
}

/** "it now also asks to: …", worded by the review's own function. */
function asks(from: Record<string, unknown>, to: Record<string, unknown>): string {
  const gained = gainedReach(manifest(copierJson(from)), manifest(copierJson(to)), {
    supportDir: scene.world.home,
  });
  return `; it now also asks to: ${gained.map((item) => item.text).join("; ")}`;
}

/** Packs the copier and installs it with the real `svc-host install --yes`; resolves with its folder. */
async function installCopier(world: World): Promise<string> {
  const file = join(world.root, "copier-1.0.0.svc");
  await writeSvc(file, {
    "package.json": copierJson(APPROVED),
    "dist/index.js": copierCode(world),
    "dist/tools.json": JSON.stringify([{ id: "plain", title: "Plain", icon: "circle" }]),
  });
  const installed = await cli(["install", file, "--yes"]);
  expect(installed).toMatchObject({ code: 0, stderr: "" });
  return join(world.user, ID);
}

/** Starts the host, installs the copier, and waits for its first run (sh refused). */
async function runningCopier(): Promise<string> {
  scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
  const folder = await installCopier(scene.world);
  expect(await nextReport(scene.host, `${ID}/report`)).toEqual({ trigger: "launch", sh: "refused" });
  return folder;
}

const heldWith = (from: number, problem: string) =>
  scene.host!.waitFor((e) => e.type === "extension.error" && e.id === ID && e.error === problem, {
    from,
    timeoutMs: 15_000,
  });

async function listed(): Promise<any> {
  const list = await cli(["list", "--json"]);
  expect(list.code).toBe(0);
  return JSON.parse(list.stdout).find((e: { id: string }) => e.id === ID);
}

async function v1(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const { port, token } = await webhookInfo(scene.world);
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: await response.json() };
}

const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("the permission ledger through the real host", { timeout: 120_000 }, () => {
  it("does not load a package.json rewritten with more; sh never runs until the person accepts", async () => {
    const folder = await runningCopier();
    // The ledger is signed with a key in the secret store, and says so.
    expect(await new KeyringSecretStore().get(LEDGER_KEY_SERVICE, ledgerKeyAccount(scene.world.home))).toMatch(
      /^[A-Za-z0-9+/]{43}=$/,
    );
    expect(scene.host!.events).toContainEqual({
      type: "log",
      level: "info",
      message: `permission ledger ${join(scene.world.home, "ledger.json")}: approvals are signed with a key kept in the secret store`,
    });

    // What `cp new.json package.json` does: the watcher sees it; the host does not load it.
    const from = scene.host!.events.length;
    await writeFile(join(folder, "package.json"), copierJson(WIDER));
    const problem = `changed on disk since you installed it: package.json changed${asks(APPROVED, WIDER)}; not loaded: ${REMEDY}`;
    await heldWith(from, problem);
    await scene.host!.waitFor((e) => e.type === "extension.unloaded" && e.id === ID, { from });

    expect(await listed()).toMatchObject({ id: ID, origin: "user", status: "changed", error: problem });
    const table = await cli(["list"]);
    expect(table.stdout).toMatch(
      new RegExp(
        `^${ID.replaceAll(".", "\\.")} +1\\.0\\.0 +user +yes +changed +plain +changed on disk since you installed it: package\\.json changed; `,
        "m",
      ),
    );
    const api = await v1("GET", "/v1/extensions");
    expect(api.json.extensions.find((e: { id: string }) => e.id === ID)).toMatchObject({
      status: "changed",
      error: problem,
    });
    expect(await v1("POST", `/v1/extensions/${ID}/run`)).toEqual({
      status: 409,
      json: { error: `${ID} is not loaded: ${problem}; svc-host list shows why` },
    });
    expect(scene.host!.events.slice(from).filter((e: HostEvent) => e.type === "run.start" && e.id === ID)).toEqual([]);
    await expect(access(marker(scene.world))).rejects.toThrow(/ENOENT/);

    // Accepting shows the update review; without a terminal it needs --yes.
    const asked = await cli(["accept", ID]);
    expect(asked.code).toBe(1);
    expect(asked.stderr).toBe(
      "svc-host accept: not accepted: stdin is not a terminal to ask on; run again with --yes to agree\n",
    );
    expect(asked.stdout).toContain("This updates the installed Copier 1.0.0.\nCompared with 1.0.0, it can now also:\n");
    expect(asked.stdout).toContain("\nChanged on disk since you installed it: package.json changed.\n");
    await expect(access(marker(scene.world))).rejects.toThrow(/ENOENT/);

    const accepting = scene.host!.events.length;
    const accepted = await cli(["accept", ID, "--yes"]);
    expect(accepted).toMatchObject({ code: 0, stderr: "" });
    expect(accepted.stdout).toMatch(/Accepted Copier 1\.0\.0 \(com\.example\.copier\); it loads now\n$/);
    expect(await reportOfRun(scene.host!, `${ID}/report`, "launch", accepting)).toEqual({
      trigger: "launch",
      sh: "ran",
    });
    expect(await readFile(marker(scene.world), "utf8")).toBe("ran\n");
    expect((await listed()).status).not.toBe("changed");
  });

  it("does not load a changed code file, and removes it when asked", async () => {
    const folder = await runningCopier();
    const from = scene.host!.events.length;
    await writeFile(join(folder, "dist", "index.js"), copierCode(scene.world).replace("refused", "REFUSED"));
    await heldWith(from, `changed on disk since you installed it: dist/index.js changed; not loaded: ${REMEDY}`);
    expect((await listed()).status).toBe("changed");

    const removed = await cli(["uninstall", ID, "--yes"]);
    expect(removed).toMatchObject({ code: 0, stderr: "" });
    expect(removed.stdout).toContain(`  removed its approval in ${join(scene.world.home, "ledger.json")}\n`);
    await expect(access(folder)).rejects.toThrow(/ENOENT/);
    expect(JSON.parse(await readFile(join(scene.world.home, "ledger.json"), "utf8")).entries).toEqual({});
  });

  it("does not load an extension whose approval was edited without the key", async () => {
    const folder = await runningCopier();
    const ledgerFile = join(scene.world.home, "ledger.json");
    const ledger = JSON.parse(await readFile(ledgerFile, "utf8"));
    const wider = copierJson(WIDER);
    // Everything a file writer can compute: the new manifest and the file's true digest. Not the MAC.
    ledger.entries[ID].approval.manifest = manifest(wider);
    ledger.entries[ID].approval.files["package.json"] = sha256(wider);
    await writeFile(ledgerFile, JSON.stringify(ledger));
    const from = scene.host!.events.length;
    await writeFile(join(folder, "package.json"), wider);
    const problem = `not loaded: its record in the permission ledger does not verify (it was edited outside svc): ${REMEDY}`;
    await heldWith(from, problem);
    expect(await listed()).toMatchObject({ status: "changed", error: problem });
    await expect(access(marker(scene.world))).rejects.toThrow(/ENOENT/);
  });

  it("checks again when the runtime restarts: a code change hidden behind a broken package.json is not loaded", async () => {
    const folder = await runningCopier();
    const started = await scene.host!.waitFor((e) => e.type === "runtime" && e.state === "started");
    // A half-written package.json keeps the last good version running (no reload, no check)…
    const from = scene.host!.events.length;
    await writeFile(join(folder, "dist", "index.js"), copierCode(scene.world).replace("refused", "REFUSED"));
    await writeFile(join(folder, "package.json"), "{");
    await scene.host!.waitFor(
      (e) => e.type === "extension.error" && e.id === ID && /still running the last good version/.test(e.error),
      { from },
    );
    // …until the runtime dies: the restarted one would read the new code from disk.
    const crash = scene.host!.events.length;
    process.kill(started.pid, "SIGKILL");
    await scene.host!.waitFor((e) => e.type === "runtime" && e.state === "restored", { from: crash });
    await heldWith(
      crash,
      `changed on disk since you installed it: dist/index.js, package.json changed; not loaded: ${REMEDY}`,
    );
    expect(scene.host!.events.slice(crash).filter((e) => e.type === "extension.loaded" && e.id === ID)).toEqual([]);
  });

  it("forgets the approval and the agent switches at uninstall: the same id installed again starts with none", async () => {
    await runningCopier();
    await scene.host!.waitFor((e) => e.type === "extension.tools" && e.id === ID);
    expect(await v1("PUT", `/v1/tools/${ID}/plain/agents`, { enabled: true })).toEqual({
      status: 200,
      json: { id: `${ID}/plain`, agents: true },
    });
    const removed = await cli(["uninstall", ID, "--yes"]);
    expect(removed.stdout).toContain("  removed its tools' switches for AI agents\n");
    expect(JSON.parse(await readFile(join(scene.world.home, "agent-tools.json"), "utf8"))).toEqual({ enabled: [] });

    const again = scene.host!.events.length;
    await installCopier(scene.world);
    await scene.host!.waitFor((e) => e.type === "extension.tools" && e.id === ID, { from: again });
    const tools = (await v1("GET", "/v1/tools")).json.tools;
    expect(tools.find((tool: { id: string }) => tool.id === `${ID}/plain`)).toMatchObject({ agents: false });
  });

  it("records what was installed before the ledger once, says so, and never again after ledger.json is deleted", async () => {
    await writeExtension(join(scene.world.user, "old"), {
      svc: { id: "com.example.old", title: "Old" },
      code: counterCode(),
    });
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
    expect(scene.host.events).toContainEqual({
      type: "log",
      level: "info",
      message:
        "permission ledger is new: recorded 1 installed extension as approved as they are now (com.example.old); from now on each loads only while its files match",
    });
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "com.example.old/main");
    await scene.host.stop();

    await rm(join(scene.world.home, "ledger.json"));
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
    await scene.host.waitFor(
      (e) =>
        e.type === "extension.error" &&
        e.id === "com.example.old" &&
        e.error ===
          "not loaded: there is no record that you approved it (it was not installed by svc): accept it (svc-host accept com.example.old, or Settings) or remove it (svc-host uninstall com.example.old)",
    );
    expect(scene.host.events.filter((e) => e.type === "log" && /permission ledger is new/.test(e.message))).toEqual([]);
  });
});
