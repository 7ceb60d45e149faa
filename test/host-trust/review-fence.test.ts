/**
 * The review is the fence, end to end (issue 31, attacks 1, 2 and the OAuth part of 4): a `.svc`
 * packed by the real `svckit pack` is reviewed by the real `svc-host install`, installed into a
 * running host, and run by the real svc-runtime. What the review shows is what the fence
 * enforces: every spelling of loopback and the metadata service is marked, every path is shown
 * as it resolves, svc's own folder is refused, `cp` is refused, and an update moving a sign-in
 * address or adding scopes says so.
 */
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHost, useHostWorld, type World } from "../host/harness.js";
import { svcHost } from "./svc-host.js";
import { svckitProcess } from "../cli/harness.js";
import { writeFixture } from "../cli/fixtures.js";
import { GUEST_HELPERS, nextReport } from "./fixtures.js";

const scene = useHostWorld();
const ID = "com.example.fence";

/** Packs an extension in its own project folder; resolves with its `.svc`. */
async function pack(folder: string, svc: Record<string, unknown>, source?: string, version = "1.0.0"): Promise<string> {
  const dir = join(scene.world.root, folder);
  await writeFixture(dir, { pkg: { name: "fence", version }, svc: { id: ID, title: "Fence", ...svc }, source });
  const packed = await svckitProcess(["pack"], { cwd: dir });
  expect(packed).toMatchObject({ code: 0 });
  return join(dir, `fence-${version}.svc`);
}

/**
 * The person's home as the attack found it: keys, a shell history, and svc's support folder
 * where Linux keeps it (`~/.local/share/Svc`, here a symlink to the world's SVC_HOME).
 */
async function personsHome(world: World): Promise<void> {
  const home = world.userHome;
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY");
  await mkdir(join(home, ".aws"));
  await mkdir(join(home, "Documents"));
  await mkdir(join(home, "Projects"));
  await writeFile(join(home, ".bash_history"), "export TOKEN=…");
  await mkdir(join(home, ".local", "share"), { recursive: true });
  await symlink(world.home, join(home, ".local", "share", "Svc"));
}

const ATTACK_PERMISSIONS = {
  network: ["2130706433:47811", "2852039166", "0xa9fea9fe", "0x7f.1:8080", "127.1", "api.example.com"],
  files: [
    "~/Documents/../.ssh",
    "~//.aws",
    "~/Projects/../",
    "~/.local/share/Svc",
    "/proc",
    "/home/bob/.ssh",
    "~/.bash_history",
  ],
  exec: ["cp", "df"],
};

describe("the install review shows what the fence enforces", () => {
  it("marks every spelling of loopback and the metadata service, every path as it resolves, svc's folder refused, cp refused", async () => {
    await personsHome(scene.world);
    const file = await pack("attack", { permissions: ATTACK_PERMISSIONS });
    const shown = await svcHost(["install", file], scene.world.home, { HOME: scene.world.userHome });
    expect(shown.code).toBe(1);
    const support = scene.world.home;
    expect(shown.stdout).toBe(
      [
        `Fence 1.0.0 (${ID})`,
        "! Unsigned: anyone could have made this.",
        "",
        "It can:",
        '  ! connect to 127.0.0.1:47811 (written "2130706433:47811") — programs on your own computer (loopback)',
        '  ! connect to 169.254.169.254 (written "2852039166") — the cloud metadata service, which hands out this machine\'s credentials',
        '  ! connect to 169.254.169.254 (written "0xa9fea9fe") — the cloud metadata service, which hands out this machine\'s credentials',
        '  ! connect to 127.0.0.1:8080 (written "0x7f.1:8080") — programs on your own computer (loopback)',
        '  ! connect to 127.0.0.1 (written "127.1") — programs on your own computer (loopback)',
        "  • connect to api.example.com",
        '  ! read files in ~/.ssh (written "~/Documents/../.ssh") — a folder that holds keys, passwords or settings',
        '  ! read files in ~/.aws (written "~//.aws") — a folder that holds keys, passwords or settings',
        '  ! read files in ~ (written "~/Projects/../") — your whole home folder',
        `  ! read files in ${support} (written "~/.local/share/Svc") — refused: it is svc's own folder (its token, its settings, every extension's files), which no extension may read`,
        "  ! read files in /proc — the running system's process, kernel and device files",
        "  ! read files in /home/bob/.ssh — another person's home folder",
        "  ! read files in ~/.bash_history — your shell and program histories, which keep the passwords and tokens you typed",
        "  ! run the program cp — it writes files anywhere (any package, svc's own files, ~/.bashrc), so svc refuses it (the package does not ask to run any command)",
        "  • run the program df",
        "It runs every 1m.",
        "Programs it runs can do anything your account can.",
        "",
      ].join("\n"),
    );
    expect(shown.stderr).toBe(
      "svc-host install: not installed: stdin is not a terminal to ask on; run again with --yes to agree\n",
    );
  });

  it("installed, it reads only what the review showed: svc's folder and its own package are refused, cp is refused", async () => {
    await personsHome(scene.world);
    const packageJson = join(scene.world.user, ID, "package.json");
    const source = `import { defineExtension } from "@svc/api";
${GUEST_HELPERS}
export default defineExtension({
  async update(ctx) {
    const tries: Record<string, unknown> = {};
    for (const path of ["~/.local/share/Svc/webhook.json", ${JSON.stringify(packageJson)}, ${JSON.stringify(join(scene.world.home, "webhook.json"))}, "~/.ssh/id_ed25519"]) {
      tries[path] = await attempt(ctx.files.read(path));
    }
    tries.cp = await attempt(ctx.exec("cp", ["/etc/hostname", ${JSON.stringify(packageJson)}]));
    await ctx.files.write("mine.txt", "mine");
    tries.own = await attempt(ctx.files.read("mine.txt"));
    await report(ctx, "tries", tries);
  },
});
`;
    const file = await pack("installed", { permissions: ATTACK_PERMISSIONS }, source);
    scene.host = await startHost(scene.world);
    const from = scene.host.events.length;
    expect(await svcHost(["install", file, "--yes"], scene.world.home, { HOME: scene.world.userHome })).toMatchObject({
      code: 0,
      stderr: "",
    });
    const before = await readFile(packageJson, "utf8");
    const tries = await nextReport(scene.host, `${ID}/tries`, from, 30_000);
    const svcFolder = (raw: string, verb: string) => ({
      error: `file access to ${raw} denied: "${raw}" ${verb} inside svc's own folder (its token, its settings, every extension's files), which no extension may read but for its own data folder (keep the extension's files under ctx.dataDir)`,
    });
    const webhook = join(scene.world.home, "webhook.json");
    expect(tries).toEqual({
      "~/.local/share/Svc/webhook.json": svcFolder("~/.local/share/Svc/webhook.json", "leads"),
      [packageJson]: svcFolder(packageJson, "is"),
      [webhook]: svcFolder(webhook, "is"),
      // Shown as "read files in ~/.ssh" and marked: the fence allows exactly that.
      "~/.ssh/id_ed25519": { ok: "PRIVATE KEY" },
      cp: {
        error:
          'exec of cp denied: "cp" writes files anywhere (any installed package, svc\'s own files, ~/.bashrc), so listing it would let the extension do whatever you can (only if it must: add "runAnyCommand": true to svc.permissions in package.json; the install summary then says it can run any command)',
      },
      own: { ok: "mine" },
    });
    expect(await readFile(packageJson, "utf8")).toBe(before);
  });
});

describe("an update's review", () => {
  it("shows new OAuth scopes and a token address moved to another listed host", async () => {
    const github = {
      title: "GitHub",
      authorizeUrl: "https://github.com/login/oauth/authorize",
      tokenUrl: "https://github.com/login/oauth/access_token",
      clientId: "Iv1.abc",
      scopes: ["read:user"],
    };
    const network = ["github.com", "uploads.example.com"];
    const first = await pack("v1", { permissions: { network }, oauth: { github } });
    expect(await svcHost(["install", first, "--yes"], scene.world.home, { HOME: scene.world.userHome })).toMatchObject({
      code: 0,
      stderr: "",
    });
    const next = await pack(
      "v2",
      {
        permissions: { network },
        oauth: {
          github: {
            ...github,
            scopes: ["read:user", "repo", "delete_repo", "admin:org"],
            tokenUrl: "https://uploads.example.com/token",
          },
        },
      },
      undefined,
      "1.1.0",
    );
    const shown = await svcHost(["install", next], scene.world.home, { HOME: scene.world.userHome });
    // An update that gains anything is staged (issue "Who made it"): shown, not installed.
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      `Staged, not installed: Fence 1.1.0 can do more than the installed 1.0.0, which keeps running. To review and accept it: svc-host accept ${ID}\n`,
    );
    expect(shown.stdout).not.toContain("It can reach nothing that 1.0.0 could not.");
    expect(shown.stdout).toContain(
      [
        "This updates the installed Fence 1.0.0.",
        "Compared with 1.0.0, it can now also:",
        "  ! ask GitHub for more access: repo, delete_repo, admin:org — it asks your account for more than you approved",
        "  ! send your GitHub sign-in and its tokens to another address: https://uploads.example.com/token (was https://github.com/login/oauth/access_token) — your sign-in would go somewhere you did not approve",
        "",
      ].join("\n"),
    );
  });
});
