import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-file.js";
import { installHookLauncher } from "./hook-launcher.js";
import { prepareSupportFolder } from "./support-folder.js";
import { newToken, readWebhookFile, removeWebhookFile, WebhookFileError, writeWebhookFile } from "./webhook-file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-support-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

function sh(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("prepareSupportFolder", () => {
  it("creates Extensions/, Data/, bin/ and bin/svc-hook, all the person's alone", async () => {
    const paths = await prepareSupportFolder({ root: join(dir, "Svc"), helperPath: "/nowhere/main.js" });
    expect((await readdir(paths.root)).sort()).toEqual(["Data", "Extensions", "bin"]);
    for (const folder of [paths.root, paths.extensions, paths.data, paths.bin])
      expect(await modeOf(folder)).toBe(0o700);
    expect(await modeOf(paths.hookLauncher)).toBe(0o700);
    // Running it again (next launch) is fine.
    await prepareSupportFolder({ root: join(dir, "Svc"), helperPath: "/nowhere/main.js" });
  });

  it("makes a folder an older svc left 0755 with 0644 files private again, and leaves links and packages alone", async () => {
    const root = join(dir, "Svc");
    await mkdir(join(root, "Extensions", "com.example.a"), { recursive: true, mode: 0o755 });
    await mkdir(join(root, "hook"), { mode: 0o755 });
    for (const file of ["webhook.json", "blips.json", "disabled.json", "host.lock", join("hook", "deploy.json")])
      await writeFile(join(root, file), "{}", { mode: 0o644 });
    await writeFile(join(root, "Extensions", "com.example.a", "package.json"), "{}", { mode: 0o644 });
    await writeFile(join(dir, "elsewhere.txt"), "", { mode: 0o644 });
    await symlink(join(dir, "elsewhere.txt"), join(root, "link.txt"));
    for (const folder of [root, join(root, "Extensions")]) await chmod(folder, 0o755);

    const paths = await prepareSupportFolder({ root, helperPath: "/nowhere/main.js" });
    for (const folder of [root, paths.extensions, paths.data, paths.bin, paths.hookState])
      expect(await modeOf(folder)).toBe(0o700);
    for (const file of ["webhook.json", "blips.json", "disabled.json", "host.lock", join("hook", "deploy.json")])
      expect(await modeOf(join(root, file))).toBe(0o600);
    expect(await modeOf(paths.hookLauncher)).toBe(0o700);
    // Past Extensions/ itself nobody else can reach: a package's own modes stay, and so does a link's target.
    expect(await modeOf(join(root, "Extensions", "com.example.a", "package.json"))).toBe(0o644);
    expect(await modeOf(join(dir, "elsewhere.txt"))).toBe(0o644);
  });
});

describe("webhook.json", () => {
  it("writes {port, token} with mode 0600, replacing a looser file", async () => {
    const path = join(dir, "webhook.json");
    await writeFile(path, "old", { mode: 0o666 });
    const token = newToken();
    await writeWebhookFile(path, { port: 47811, token });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ port: 47811, token });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readWebhookFile(path)).toEqual({ port: 47811, token });
  });

  it("is removed at a clean stop only while it still holds our token", async () => {
    const path = join(dir, "webhook.json");
    const ours = newToken();
    await writeWebhookFile(path, { port: 47811, token: newToken() });
    await removeWebhookFile(path, ours);
    // A later launch wrote its own: left alone.
    expect(await readWebhookFile(path)).toMatchObject({ port: 47811 });
    await writeWebhookFile(path, { port: 47811, token: ours });
    await removeWebhookFile(path, ours);
    await expect(stat(path)).rejects.toMatchObject({ code: "ENOENT" });
    // Already gone: fine.
    await removeWebhookFile(path, ours);
  });

  it("makes a new 32-byte base64url token every time", () => {
    const tokens = new Set(Array.from({ length: 20 }, newToken));
    expect(tokens.size).toBe(20);
    for (const token of tokens) expect(Buffer.from(token, "base64url")).toHaveLength(32);
  });

  it("explains a missing or malformed file", async () => {
    const path = join(dir, "webhook.json");
    await expect(readWebhookFile(path)).rejects.toMatchObject({
      reason: "missing",
      message: `no ${path}: is svc running? (it writes this file at every launch)`,
    });
    for (const text of [
      "nope",
      "[]",
      '{"port": "1", "token": "t"}',
      '{"port": 70000, "token": "t"}',
      '{"port": 1, "token": ""}',
    ]) {
      await writeFile(path, text);
      await expect(readWebhookFile(path)).rejects.toBeInstanceOf(WebhookFileError);
    }
  });
});

describe("writeFileAtomic", () => {
  it("replaces the whole file and leaves no temp file, even on failure", async () => {
    const path = join(dir, "a.json");
    await writeFileAtomic(path, "one");
    await writeFileAtomic(path, "two");
    expect(await readFile(path, "utf8")).toBe("two");
    await expect(writeFileAtomic(join(dir, "a.json", "under-a-file"), "x")).rejects.toThrow();
    expect(await readdir(dir)).toEqual(["a.json"]);
  });
});

describe("the svc-hook launcher", () => {
  it("runs the helper with the given node and passes every argument through", async () => {
    const helper = join(dir, "helper.js");
    await writeFile(helper, "console.log(JSON.stringify(process.argv.slice(2)));");
    const launcher = await installHookLauncher({ path: join(dir, "it's here", "svc-hook"), helperPath: helper });
    const result = await sh(launcher, ["start", "Deploy 'api'", "--id", "a b"]);
    expect(result).toEqual({ code: 0, stdout: '["start","Deploy \'api\'","--id","a b"]\n', stderr: "" });
  });

  it("exits 0 with a note when node or the helper has gone", async () => {
    const launcher = await installHookLauncher({
      path: join(dir, "svc-hook"),
      helperPath: join(dir, "gone.js"),
      nodePath: join(dir, "no-node"),
    });
    const result = await sh(launcher, ["start", "X"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^svc-hook: svc is not installed where this launcher expects it .*; start svc once to repair it\n$/,
    );
  });

  it("writes a .cmd launcher for Windows", async () => {
    const path = await installHookLauncher({
      path: join(dir, "svc-hook.cmd"),
      helperPath: "C:\\svc\\main.js",
      nodePath: "C:\\svc\\node.exe",
      platform: "win32",
    });
    const text = await readFile(path, "utf8");
    expect(text).toContain('"C:\\svc\\node.exe" "C:\\svc\\main.js" %*');
    expect(text).toContain("exit /b 0");
  });
});
