/**
 * A real Secret Service for tests: a private D-Bus session bus and an unlocked gnome-keyring on
 * it, both children of the test process, in a temp folder (the person's own keyrings are never
 * touched), ended by `stop()`. The bus has no service files, so nothing is ever auto-started:
 * `startBusWithoutKeyring()` is a machine whose session has no Secret Service at all.
 *
 * The keyring library reads `DBUS_SESSION_BUS_ADDRESS` from this process's environment: tests
 * set it with `useBus(address)` (vitest runs each test file in its own process), or all at
 * once with `useSessionKeyring()`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { KeyringSecretStore } from "../../host/src/secrets/index.js";

const PROVISION = fileURLToPath(new URL("../../scripts/provision-secret-service.sh", import.meta.url));

export interface RunningBus {
  /** The value for `DBUS_SESSION_BUS_ADDRESS`. */
  address: string;
  /** Ends the daemons (keyring first) and removes the temp folder. */
  stop(): Promise<void>;
}

function hasCommand(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
}

/** Installs gnome-keyring and dbus when missing (Debian, as root); throws with the fix if it cannot. */
export function provisionSecretService(): void {
  if (hasCommand("gnome-keyring-daemon") && hasCommand("dbus-daemon")) return;
  const result = spawnSync("sh", [PROVISION], { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`could not provision a Secret Service: run sh ${PROVISION}`);
}

/** Points this process's keyring calls at a bus (or at nothing with `undefined`). */
export function useBus(address: string | undefined): void {
  if (address === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = address;
}

function busConfig(socket: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socket}</listen>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
  await ended(child);
  clearTimeout(timer);
}

/** Reads the bus address the daemon prints on its first stdout line. */
function readAddress(daemon: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    daemon.stdout!.setEncoding("utf8");
    daemon.stdout!.on("data", (chunk: string) => {
      out += chunk;
      const line = out.split("\n");
      if (line.length > 1) resolve(line[0].trim());
    });
    daemon.once("exit", (code) => reject(new Error(`dbus-daemon ended (${code}) before printing its address`)));
  });
}

async function startBus(folder: string): Promise<{ daemon: ChildProcess; address: string }> {
  const config = join(folder, "bus.conf");
  writeFileSync(config, busConfig(join(folder, "bus.socket")));
  const daemon = spawn("dbus-daemon", [`--config-file=${config}`, "--nofork", "--nopidfile", "--print-address=1"], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  return { daemon, address: await readAddress(daemon) };
}

/** Polls until the keyring answers on the bus (it registers its name a moment after starting). */
async function waitForKeyring(address: string, keyring: ChildProcess): Promise<void> {
  const before = process.env.DBUS_SESSION_BUS_ADDRESS;
  useBus(address);
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await new KeyringSecretStore().get("svc.test", "ready");
        return;
      } catch (error) {
        if (keyring.exitCode !== null) throw new Error("gnome-keyring-daemon ended while starting");
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } finally {
    useBus(before);
  }
}

/** A bus with an unlocked gnome-keyring (login keyring, password `test`) on it. */
export async function startSessionKeyring(): Promise<RunningBus> {
  provisionSecretService();
  const folder = mkdtempSync(join(tmpdir(), "svc-keyring-"));
  const home = join(folder, "home");
  const runtimeDir = join(folder, "run");
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(runtimeDir, { mode: 0o700 });
  const { daemon, address } = await startBus(folder);
  const keyring = spawn("gnome-keyring-daemon", ["--foreground", "--unlock", "--components=secrets"], {
    stdio: ["pipe", "ignore", "ignore"],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: address,
    },
  });
  // --unlock reads the login keyring's password from stdin; a new keyring is created with it.
  keyring.stdin!.end("test\n");
  const stop = async () => {
    await stopChild(keyring);
    await stopChild(daemon);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await waitForKeyring(address, keyring);
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, stop };
}

/** A session bus with no Secret Service on it: what a headless machine without a keyring has. */
export async function startBusWithoutKeyring(): Promise<RunningBus> {
  provisionSecretService();
  const folder = mkdtempSync(join(tmpdir(), "svc-bus-"));
  const { daemon, address } = await startBus(folder);
  return {
    address,
    stop: async () => {
      await stopChild(daemon);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * For the tests of a file (or `describe` block): starts a bus (by default with an unlocked
 * keyring) before them, points this process's keyring calls at it, and stops it after them.
 *
 * @example
 * const session = useSessionKeyring();
 * it("sees the bus", () => expect(session.bus.address).toMatch(/^unix:/));
 */
export function useSessionKeyring(start: () => Promise<RunningBus> = startSessionKeyring): {
  readonly bus: RunningBus;
} {
  let bus: RunningBus | undefined;
  beforeAll(async () => {
    bus = await start();
    useBus(bus.address);
  }, 120_000);
  afterAll(async () => {
    useBus(undefined);
    await bus?.stop();
  });
  return {
    get bus(): RunningBus {
      if (!bus) throw new Error("useSessionKeyring(): the bus exists only while the tests run");
      return bus;
    },
  };
}
