/**
 * `svc-host set` and `svc-host uninstall` with a real gnome-keyring on a private D-Bus and the
 * real host: a password option is typed at a hidden prompt on a real terminal (a pty from
 * `script`), never taken from argv; uninstalling forgets every secret of the extension.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";
import { useSessionKeyring } from "../trust/session-keyring.js";
import { HOST_MAIN, startHost, useHostWorld, writeExtension, type World } from "../host/harness.js";
import { cliEnv, GUEST_HELPERS, filesContaining, reportOfRun } from "./fixtures.js";

const session = useSessionKeyring();
const scene = useHostWorld();
const keyring = new KeyringSecretStore();

const env = (world: World) => cliEnv(world, session.bus.address);

const shQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Runs `svc-host <args>` on a pseudo-terminal (util-linux `script`), typing each answer only
 * once its prompt has been shown. Resolves with the exit code and everything the terminal showed.
 */
function onTerminal(
  world: World,
  args: string[],
  answers: { after: string; type: string }[],
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, HOST_MAIN, ...args].map(shQuote).join(" ");
  const child = spawn("script", ["-qefc", command, "/dev/null"], { env: env(world) });
  let screen = "";
  const pending = [...answers];
  child.stdout.on("data", (chunk) => {
    screen += chunk;
    if (pending.length && screen.includes(pending[0].after)) child.stdin.write(pending.shift()!.type);
  });
  child.stderr.on("data", (chunk) => (screen += chunk));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, screen })));
}

function cli(
  world: World,
  args: string[],
  input = "",
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [HOST_MAIN, ...args], { env: env(world) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const OAUTH = {
  demo: {
    authorizeUrl: "https://auth.example.com/authorize",
    tokenUrl: "https://auth.example.com/token",
    clientId: "svc-test",
    scopes: ["read"],
  },
};

function prefsCode(password: string): string {
  return `${GUEST_HELPERS}
const WANTED = ${JSON.stringify([...password].reverse().join(""))}.split("").reverse().join("");
module.exports = { default: { async update(ctx) {
  await report(ctx, "report", { trigger: ctx.trigger.type, token: ctx.preferences.token === WANTED ? "the typed one" : ctx.preferences.token === undefined ? "unset" : "another" });
} } };`;
}

describe("svc-host set and uninstall with a real secret store", { timeout: 90_000 }, () => {
  it("asks for a password without echo, never takes one from argv, and the extension gets it", async () => {
    const password = `pw-${randomUUID()}`;
    await writeExtension(join(scene.world.user, "prefs"), {
      svc: {
        id: "test.prefs",
        title: "Prefs",
        permissions: { network: ["auth.example.com"] },
        preferences: [{ name: "token", title: "API token", type: "password" }],
        oauth: OAUTH,
      },
      code: prefsCode(password),
    });
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
    expect(await reportOfRun(scene.host, "test.prefs/report", "launch")).toEqual({ trigger: "launch", token: "unset" });

    expect(await cli(scene.world, ["set", "test.prefs", "token", password])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'svc-host set: "token" is a password option: leave the value out and type it when asked (the shell\'s history would keep it)\nusage: svc-host set <id> <option> [value] [--yes] | --clear\n',
    });
    expect(await keyring.get("svc.test.prefs", "pref.token")).toBeNull();

    const typed = await onTerminal(
      scene.world,
      ["set", "test.prefs", "token"],
      [{ after: "API token (token, not shown): ", type: `${password}\r` }],
    );
    expect(typed.code).toBe(0);
    expect(typed.screen).toContain("Set test.prefs token; it runs again with the new value");
    expect(typed.screen).not.toContain(password);
    expect(await keyring.get("svc.test.prefs", "pref.token")).toBe(password);
    expect(await reportOfRun(scene.host, "test.prefs/report", "preferences")).toEqual({
      trigger: "preferences",
      token: "the typed one",
    });
    expect(await filesContaining(scene.world.home, password)).toEqual([]);
  });

  it("uninstalls after a yes on the terminal, forgetting its secrets, password options and sign-ins", async () => {
    await writeExtension(join(scene.world.user, "prefs"), {
      svc: {
        id: "test.prefs",
        title: "Prefs",
        permissions: { network: ["auth.example.com"] },
        preferences: [{ name: "token", title: "API token", type: "password" }],
        oauth: OAUTH,
      },
      code: prefsCode("x"),
    });
    for (const account of ["secret.apiKey", "pref.token", "oauth.demo"])
      await keyring.set("svc.test.prefs", account, "stored");
    await keyring.set("svc.test.prefsother", "secret.apiKey", "a neighbour's");
    scene.host = await startHost(scene.world, { DBUS_SESSION_BUS_ADDRESS: session.bus.address });
    await reportOfRun(scene.host, "test.prefs/report", "launch");

    const refused = await onTerminal(scene.world, ["uninstall", "test.prefs"], [{ after: "[y/N] ", type: "n\r" }]);
    expect(refused.code).toBe(1);
    expect(refused.screen).toContain("Not uninstalled.");
    expect(await keyring.get("svc.test.prefs", "secret.apiKey")).toBe("stored");

    const agreed = await onTerminal(
      scene.world,
      ["uninstall", "test.prefs"],
      [{ after: "Uninstall Prefs 1.0.0 (test.prefs)? [y/N] ", type: "y\r" }],
    );
    expect(agreed.screen).toContain(`Uninstalled Prefs 1.0.0\r\n  removed ${join(scene.world.user, "prefs")}\r\n`);
    expect(agreed.screen).toContain("  forgot 3 from the secret store: oauth.demo, pref.token, secret.apiKey\r\n");
    expect(agreed.code).toBe(0);
    expect(await keyring.accounts("svc.test.prefs")).toEqual([]);
    expect(await keyring.get("svc.test.prefsother", "secret.apiKey")).toBe("a neighbour's");
    await expect(lstat(join(scene.world.user, "prefs"))).rejects.toMatchObject({ code: "ENOENT" });
    await scene.host.waitFor((e) => e.type === "extension.unloaded" && e.id === "test.prefs");
  });
});
