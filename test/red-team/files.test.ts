/**
 * Red team, files, through a real pool beside two neighbours that use files, storage and exec:
 * a FIFO never parks the file-I/O threads, runtime-owned names are refused as folders too,
 * denials name only what the guest gave, readBytes works, storage floods are paced.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { attackOptions, attacker, root, withNeighbours, type Neighbours } from "./neighbours.js";

let n: Neighbours;
beforeAll(async () => {
  n = await withNeighbours();
});
afterAll(() => n.dispose());

describe("files", () => {
  it("svc's own folder is refused on a sandbox thread whatever is listed: token, packages, neighbours' data", async () => {
    writeFileSync(join(root, "webhook.json"), '{"port":47811,"token":"SECRET"}');
    mkdirSync(join(root, "Extensions", "test.victim"), { recursive: true });
    writeFileSync(join(root, "Extensions", "test.victim", "package.json"), "{}");
    const targets = [
      join(root, "webhook.json"),
      join(root, "Extensions", "test.victim", "package.json"),
      "../../webhook.json",
    ];
    const options = attackOptions(
      `const out = [];
      for (const p of ${JSON.stringify(targets)}) { try { out.push(await ctx.files.read(p)) } catch (e) { out.push(e.message) } }
      await ctx.files.write("mine.txt", "mine");
      out.push(await ctx.files.read("mine.txt"));
      return out;`,
      { files: [root, "~"] },
      { supportDir: root },
    );
    const { run } = await attacker(n.pool, options);
    const refused = (p: string) =>
      `file access to ${p} denied: "${p}" is inside svc's own folder (its token, its settings, every extension's files), which no extension may read but for its own data folder (keep the extension's files under ctx.dataDir)`;
    await expect(run()).resolves.toEqual([...targets.map(refused), "mine"]);
    await n.check();
  });

  it("reading FIFOs (more than Node has file-I/O threads) fails at once and parks nothing", async () => {
    const options = attackOptions(`
      const reads = []; for (let i = 0; i < 8; i++) reads.push(ctx.files.read("pipe").catch((e) => e.message));
      return await Promise.all(reads);`);
    mkdirSync(options.dataDir, { recursive: true });
    execFileSync("mkfifo", [join(options.dataDir, "pipe")]);
    const { run, handle } = await attacker(n.pool, options);
    await expect(run()).resolves.toEqual(Array(8).fill('files.read: "pipe" is not a regular file'));
    await handle.dispose();
    await n.check();
  });

  it("seq.json/x and storage.json/x are refused: the extension keeps working", async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(`
      const out = [];
      for (const p of ["seq.json/x", "storage.json/x"]) { try { await ctx.files.write(p, "x") } catch (e) { out.push(e.message) } }
      await ctx.storage.set("still", "works");
      out.push(await ctx.storage.get("still"));
      return out;`),
    );
    const owned = (p: string) =>
      `file access to ${p} denied: "${p}" is a name in the data folder that belongs to svc (blip seq numbers and ctx.storage) (use ctx.storage, or write under another name)`;
    await expect(run()).resolves.toEqual([owned("seq.json/x"), owned("storage.json/x"), "works"]);
    await n.check();
  });

  it("denials never name the home folder or where a symlink leads", async () => {
    const options = attackOptions(`
      const out = [];
      for (const p of ["~/.ssh/id_rsa", "link/passwd", "../../../../etc/shadow"]) { try { await ctx.files.read(p) } catch (e) { out.push(e.message) } }
      return out;`);
    mkdirSync(options.dataDir, { recursive: true });
    symlinkSync("/etc", join(options.dataDir, "link"));
    const { run } = await attacker(n.pool, options);
    const messages = (await run()) as string[];
    expect(messages[0]).toBe(
      'file access to ~/.ssh/id_rsa denied: "~/.ssh/id_rsa" is outside permissions.files, the data folder and the files given to this tool run (add "~/.ssh" to svc.permissions.files in package.json)',
    );
    expect(messages[1]).toBe(
      'file access to link/passwd denied: "link/passwd" leads outside permissions.files, the data folder and the files given to this tool run (add the folder to svc.permissions.files in package.json)',
    );
    for (const message of messages) {
      expect(message).not.toContain(homedir());
      expect(message).not.toContain("/etc/passwd");
    }
    await n.check();
  });

  it("ctx.files.readBytes returns the bytes", async () => {
    const options = attackOptions(
      `const b = await ctx.files.readBytes("bin"); return [b instanceof Uint8Array, Array.from(b)];`,
    );
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(join(options.dataDir, "bin"), Buffer.from([0, 1, 254, 255]));
    const { run } = await attacker(n.pool, options);
    await expect(run()).resolves.toEqual([true, [0, 1, 254, 255]]);
    await n.check();
  });
});

describe("storage", () => {
  it("a loop rewriting a 4 MB store writes about 1 MB/s, not 300 MB/s", async () => {
    const { run } = await attacker(
      n.pool,
      attackOptions(
        `
      const part = "x".repeat(1024 * 1024 - 100);
      await Promise.all([0, 1, 2, 3].map((i) => ctx.storage.set("big" + i, part)));
      let done = 0; const until = Date.now() + 2500;
      while (Date.now() < until) { await ctx.storage.set("n", done); done++; }
      return done;`,
        {},
        { limits: { sliceMs: 1000, memoryBytes: 64 * 1024 * 1024 } },
      ),
    );
    // The first write of 4 MB buys a 4 s pause: no second write fits in 2.5 s.
    expect(await run()).toBeLessThanOrEqual(1);
    await n.check();
  }, 30_000);
});
