import { afterEach, describe, expect, it } from "vitest";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execFileSync, spawn } from "node:child_process";
import { createCapabilities } from "./index.js";
import { createTestContext, type TestContext } from "./test-context.js";

const MB = 1024 * 1024;
const caps = createCapabilities({ limits: { fileListEntries: 3 } });
let t: TestContext;
afterEach(() => t?.cleanup());
const call = (op: string, args: object) => caps.async[op](args, t.cx) as Promise<unknown>;

/** A context whose root also holds a neighbour extension's data and an outside folder. */
function context(files: string[] = []): TestContext {
  t = createTestContext({ files });
  mkdirSync(join(t.root, "Data", "com.other.ext"), { recursive: true });
  writeFileSync(join(t.root, "Data", "com.other.ext", "secret.txt"), "neighbour's secret");
  mkdirSync(join(t.root, "outside"));
  writeFileSync(join(t.root, "outside", "file.txt"), "outside");
  return t;
}

describe("files inside the data folder", () => {
  it("write, read, list, exists and remove with relative paths", async () => {
    context();
    expect(await call("files.write", { path: "notes/today.txt", data: "héllo" })).toBeNull();
    expect(await call("files.read", { path: "notes/today.txt" })).toBe("héllo");
    expect(await call("files.read", { path: join(t.cx.dataDir, "notes/today.txt"), encoding: "base64" })).toBe(
      Buffer.from("héllo").toString("base64"),
    );
    await call("files.write", { path: "bin.dat", data: "AAEC", encoding: "base64" });
    expect(readFileSync(join(t.cx.dataDir, "bin.dat"))).toEqual(Buffer.from([0, 1, 2]));
    expect(await call("files.list", { path: "." })).toEqual(["bin.dat", "notes"]);
    expect(await call("files.exists", { path: "notes/today.txt" })).toBe(true);
    expect(await call("files.exists", { path: "notes/missing.txt" })).toBe(false);
    await call("files.remove", { path: "notes" });
    expect(await call("files.exists", { path: "notes" })).toBe(false);
    expect(readdirSync(t.cx.dataDir)).toEqual(["bin.dat"]);
  });

  it("reports missing files and folders clearly", async () => {
    context();
    await expect(call("files.read", { path: "nope.txt" })).rejects.toThrow('files.read: "nope.txt" does not exist');
    await expect(call("files.read", { path: "." })).rejects.toThrow('files.read: "." is not a regular file');
    await expect(call("files.read", { path: "" })).rejects.toThrow(
      'files.read: "path" should be 1 to 4096 characters long',
    );
    await expect(call("files.read", { path: "a\0b" })).rejects.toThrow('files.read: "path" contains a NUL character');
    await expect(call("files.write", { path: "x", data: 5 })).rejects.toThrow('files.write: "data" should be a string');
  });
});

describe("red team: file escapes", () => {
  it("`..` out of the data folder is denied, naming the manifest fix", async () => {
    context();
    const target = "../../outside/file.txt";
    await expect(call("files.read", { path: target })).rejects.toThrow(
      `file access to ${target} denied: "${target}" is outside permissions.files, the data folder and the files given to this tool run (add "${join(t.root, "outside")}" to svc.permissions.files in package.json)`,
    );
    expect(t.denials[0]).toMatchObject({ kind: "file", target });
  });

  it("reading another extension's data folder is denied", async () => {
    context();
    await expect(call("files.read", { path: "../com.other.ext/secret.txt" })).rejects.toThrow("denied");
    await expect(call("files.list", { path: "../com.other.ext" })).rejects.toThrow("denied");
    await expect(call("files.exists", { path: "../com.other.ext/secret.txt" })).rejects.toThrow("denied");
  });

  it("a symlink inside the data folder pointing out is followed and denied, for reads and writes", async () => {
    context();
    symlinkSync(join(t.root, "Data", "com.other.ext"), join(t.cx.dataDir, "link"));
    // The denial names only what the guest gave: never where the symlink leads.
    await expect(call("files.read", { path: "link/secret.txt" })).rejects.toThrow(
      'file access to link/secret.txt denied: "link/secret.txt" leads outside permissions.files, the data folder and the files given to this tool run (add the folder to svc.permissions.files in package.json)',
    );
    await expect(call("files.write", { path: "link/secret.txt", data: "x" })).rejects.toThrow(
      'file access to link/secret.txt denied: "link/secret.txt" leads outside the data folder, the only place an extension may write (write under ctx.dataDir instead)',
    );
    expect(t.denials.map((d) => JSON.stringify(d)).join()).not.toContain("com.other.ext");
    expect(readFileSync(join(t.root, "Data", "com.other.ext", "secret.txt"), "utf8")).toBe("neighbour's secret");
  });

  it("a dangling symlink cannot be used to create a file outside", async () => {
    context();
    symlinkSync(join(t.root, "outside", "new.txt"), join(t.cx.dataDir, "dangling"));
    await expect(call("files.write", { path: "dangling", data: "x" })).rejects.toThrow(
      'file access to dangling denied: "dangling" passes through a symlink to something that does not exist',
    );
    expect(t.denials.map((d) => JSON.stringify(d)).join()).not.toContain("outside");
    expect(existsSync(join(t.root, "outside", "new.txt"))).toBe(false);
  });

  it("planting compiled code in svc-runtime's cache (<Data>/.compiled-code) is denied, even with Data readable", async () => {
    context();
    const data = join(t.root, "Data");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: [data] } } });
    const planted = `../.compiled-code/${t.cx.id}.${"a".repeat(64)}.qjsc`;
    await expect(call("files.write", { path: planted, data: "AAEC", encoding: "base64" })).rejects.toThrow(
      "is outside the data folder, the only place an extension may write (write under ctx.dataDir instead)",
    );
    expect(existsSync(join(data, ".compiled-code"))).toBe(false);
  });

  it("writes outside the data folder are denied, even in a readable listed folder", async () => {
    context();
    const outside = join(t.root, "outside");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: [outside] } } });
    expect(await call("files.read", { path: join(outside, "file.txt") })).toBe("outside");
    await expect(call("files.write", { path: join(outside, "file.txt"), data: "pwned" })).rejects.toThrow(
      "is outside the data folder, the only place an extension may write (write under ctx.dataDir instead)",
    );
    await expect(call("files.write", { path: "/tmp/svc-escape.txt", data: "x" })).rejects.toThrow("denied");
    await expect(call("files.remove", { path: join(outside, "file.txt") })).rejects.toThrow("denied");
    await expect(call("files.remove", { path: "." })).rejects.toThrow(
      "the data folder itself cannot be written or removed",
    );
    expect(readFileSync(join(outside, "file.txt"), "utf8")).toBe("outside");
  });

  it("the runtime's own seq.json and storage.json cannot be written or removed", async () => {
    context();
    writeFileSync(join(t.cx.dataDir, "seq.json"), '{"com.test.ext/a": 7}');
    const owned = (path: string) =>
      `file access to ${path} denied: "${path}" is a name in the data folder that belongs to svc (blip seq numbers and ctx.storage) (use ctx.storage, or write under another name)`;
    await expect(call("files.write", { path: "seq.json", data: "{}" })).rejects.toThrow(owned("seq.json"));
    await expect(call("files.remove", { path: "./seq.json" })).rejects.toThrow(owned("./seq.json"));
    await expect(call("files.write", { path: "storage.json", data: "{}" })).rejects.toThrow(owned("storage.json"));
    // As folders too: a folder named seq.json would break the extension for good.
    await expect(call("files.write", { path: "seq.json/x", data: "{}" })).rejects.toThrow(owned("seq.json/x"));
    await expect(call("files.write", { path: "storage.json/x", data: "{}" })).rejects.toThrow(owned("storage.json/x"));
    await expect(call("files.write", { path: ".storage.json.abc.tmp", data: "{}" })).rejects.toThrow(
      owned(".storage.json.abc.tmp"),
    );
    await expect(call("files.write", { path: "seq.json.corrupt-1", data: "{}" })).rejects.toThrow(
      owned("seq.json.corrupt-1"),
    );
    expect(existsSync(join(t.cx.dataDir, "storage.json"))).toBe(false);
    expect(readFileSync(join(t.cx.dataDir, "seq.json"), "utf8")).toBe('{"com.test.ext/a": 7}');
    expect(await call("files.write", { path: "notes/seq.json", data: "{}" })).toBeNull();
  });

  it("removing a symlink removes the link, never what it points to", async () => {
    context();
    symlinkSync(join(t.root, "outside"), join(t.cx.dataDir, "to-outside"));
    await call("files.remove", { path: "to-outside" });
    expect(existsSync(join(t.cx.dataDir, "to-outside"))).toBe(false);
    expect(readFileSync(join(t.root, "outside", "file.txt"), "utf8")).toBe("outside");
  });

  it("`~` in permissions.files is the home folder", async () => {
    context();
    const home = process.env.HOME;
    process.env.HOME = t.root;
    try {
      t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: ["~/outside"] } } });
      expect(await call("files.read", { path: "~/outside/file.txt" })).toBe("outside");
    } finally {
      process.env.HOME = home;
    }
  });

  it("files given to a tool run are readable while it runs, and only then", async () => {
    context();
    const given = join(t.root, "outside", "file.txt");
    t.toolFiles.push(given);
    expect(await call("files.read", { path: given })).toBe("outside");
    await expect(
      call("files.read", { path: join(t.root, "outside") + "/../Data/com.other.ext/secret.txt" }),
    ).rejects.toThrow("denied");
    t.toolFiles.length = 0;
    await expect(call("files.read", { path: given })).rejects.toThrow("denied");
  });
});

describe("svc's own folder is never read, whatever permissions.files lists", () => {
  /** `t.root` is svc's support folder here, with its token file and an installed package. */
  function support(files: (root: string) => string[]): TestContext {
    t = createTestContext({}, "com.example.test", { supportIsRoot: true });
    writeFileSync(join(t.root, "webhook.json"), '{"port":47811,"token":"SECRET"}');
    mkdirSync(join(t.root, "Extensions", "com.example.test"), { recursive: true });
    writeFileSync(join(t.root, "Extensions", "com.example.test", "package.json"), "{}");
    mkdirSync(join(t.root, "Data", "com.other.ext"), { recursive: true });
    writeFileSync(join(t.root, "Data", "com.other.ext", "secret.txt"), "neighbour's secret");
    writeFileSync(join(t.cx.dataDir, "mine.txt"), "mine");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: files(t.root) } } });
    return t;
  }
  const refusal = (raw: string, verb = "is") =>
    `file access to ${raw} denied: "${raw}" ${verb} inside svc's own folder (its token, its settings, every extension's files), which no extension may read but for its own data folder (keep the extension's files under ctx.dataDir)`;

  it("listed directly: its token file, its own package and a neighbour's data are refused", async () => {
    support((root) => [root]);
    for (const path of [
      join(t.root, "webhook.json"),
      join(t.root, "Extensions", "com.example.test", "package.json"),
      join(t.root, "Data", "com.other.ext", "secret.txt"),
    ]) {
      await expect(call("files.read", { path })).rejects.toThrow(refusal(path));
    }
    await expect(call("files.list", { path: t.root })).rejects.toThrow(refusal(t.root));
    await expect(call("files.exists", { path: join(t.root, "webhook.json") })).rejects.toThrow("denied");
    // Its own data folder, inside, stays its own.
    expect(await call("files.read", { path: join(t.cx.dataDir, "mine.txt") })).toBe("mine");
    expect(await call("files.read", { path: "mine.txt" })).toBe("mine");
  });

  it("listed through a parent (`~`, `~/.local` …) or a symlink, or reached by `..`: still refused", async () => {
    const outside = mkdtempSync(join(tmpdir(), "svc-outside-"));
    try {
      support((root) => [dirname(root), outside]);
      symlinkSync(t.root, join(outside, "svc"));
      const viaParent = join(t.root, "webhook.json");
      await expect(call("files.read", { path: viaParent })).rejects.toThrow(refusal(viaParent));
      const viaLink = join(outside, "svc", "webhook.json");
      await expect(call("files.read", { path: viaLink })).rejects.toThrow(refusal(viaLink, "leads"));
      const viaDots = "../../webhook.json";
      await expect(call("files.read", { path: viaDots })).rejects.toThrow(refusal(viaDots));
      symlinkSync(join(t.root, "webhook.json"), join(t.cx.dataDir, "token"));
      await expect(call("files.read", { path: "token" })).rejects.toThrow(refusal("token", "leads"));
      expect(t.denials.map((d) => d.reason).join()).not.toContain("SECRET");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("a file inside it given to a tool run is refused too", async () => {
    support(() => []);
    const given = join(t.root, "webhook.json");
    t.toolFiles.push(given);
    await expect(call("files.read", { path: given })).rejects.toThrow(refusal(given));
  });
});

describe("file limits", () => {
  it("reads a file of exactly 10 MB; refuses one byte more", async () => {
    context();
    writeFileSync(join(t.cx.dataDir, "ten"), Buffer.alloc(10 * MB, 97));
    writeFileSync(join(t.cx.dataDir, "more"), Buffer.alloc(10 * MB + 1, 97));
    expect(((await call("files.read", { path: "ten" })) as string).length).toBe(10 * MB);
    await expect(call("files.read", { path: "more" })).rejects.toThrow(
      'files.read: "more" is over the limit of 10 MB (10485760 bytes)',
    );
  });

  it("writes exactly 10 MB; refuses one byte more, leaving no temporary file", async () => {
    context();
    await call("files.write", { path: "ten", data: "a".repeat(10 * MB) });
    await expect(call("files.write", { path: "more", data: "a".repeat(10 * MB + 1) })).rejects.toThrow(
      "files.write: data is over the limit of 10 MB (10485760 bytes)",
    );
    await expect(
      call("files.write", { path: "more", data: Buffer.alloc(10 * MB + 1).toString("base64"), encoding: "base64" }),
    ).rejects.toThrow("files.write: data is over the limit of 10 MB");
    expect(readdirSync(t.cx.dataDir)).toEqual(["ten"]);
  });

  it("lists the configured number of entries; refuses one more", async () => {
    context();
    for (const name of ["a", "b", "c"]) writeFileSync(join(t.cx.dataDir, name), "");
    expect(await call("files.list", {})).toEqual(["a", "b", "c"]);
    writeFileSync(join(t.cx.dataDir, "d"), "");
    await expect(call("files.list", {})).rejects.toThrow('files.list: "." has 4 entries, over the limit of 3');
  });
});

describe("the data folder's quota", () => {
  const quotaCaps = createCapabilities({ limits: { dataFolderBytes: 1000, dataFolderEntries: 5 } });
  const write = (path: string, data: string) => quotaCaps.async["files.write"]({ path, data }, t.cx);
  const remove = (path: string) => quotaCaps.async["files.remove"]({ path }, t.cx);

  it("holds exactly its bytes; one more is refused and nothing is written", async () => {
    context();
    await write("a", "x".repeat(600));
    await write("b", "x".repeat(400));
    await expect(write("c", "x")).rejects.toThrow(
      "files.write: the data folder would hold 1001 bytes, over its limit of 1000 bytes; remove some files first",
    );
    expect(existsSync(join(t.cx.dataDir, "c"))).toBe(false);
    // Replacing a file counts only the difference; shrinking always works.
    await write("a", "x".repeat(500));
    await write("c", "x".repeat(100));
    await expect(write("b", "x".repeat(401))).rejects.toThrow("over its limit of 1000 bytes");
    await remove("c");
    await write("b", "x".repeat(500));
  });

  it("holds exactly its entries (files and folders); one more is refused", async () => {
    context();
    await write("one", "1");
    await write("d/two", "2"); // a folder and a file: 3 entries
    await write("three", "3");
    await write("four", "4");
    await expect(write("five", "5")).rejects.toThrow(
      "files.write: the data folder would hold 6 files and folders, over its limit of 5; remove some first",
    );
    await write("four", "44"); // replacing is not a new entry
    await remove("d");
    await write("five", "5");
  });
});

describe("only regular files, checked on the opened descriptor", () => {
  it("a FIFO is refused at once, never parking the file-I/O threads", async () => {
    context();
    execFileSync("mkfifo", [join(t.cx.dataDir, "pipe")]);
    // More reads than libuv has threads: a blocking open would park them all.
    const reads = Array.from({ length: 8 }, () => call("files.read", { path: "pipe" }));
    // Each answer is awaited together: a rejection waiting for its turn would count as unhandled.
    await Promise.all(reads.map((read) => expect(read).rejects.toThrow('files.read: "pipe" is not a regular file')));
    await call("files.write", { path: "after.txt", data: "still works" });
    expect(await call("files.read", { path: "after.txt" })).toBe("still works");
  });

  it("a device is refused", async () => {
    context(["/dev"]);
    await expect(call("files.read", { path: "/dev/zero" })).rejects.toThrow(
      'files.read: "/dev/zero" is not a regular file',
    );
  });

  // Without O_NOFOLLOW and the descriptor check this leaks the secret in a few of 2000 reads here.
  it("a file swapped for a symlink by another process never yields the outside file", async () => {
    context();
    const folder = join(t.root, "listed");
    mkdirSync(folder);
    writeFileSync(join(t.root, "outside", "secret.txt"), "SECRET");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: [folder] } } });
    const script = `
      const fs = require("fs"); const p = require("path"); const d = ${JSON.stringify(folder)};
      let swaps = 0; const end = Date.now() + 20000;
      while (Date.now() < end) {
        fs.writeFileSync(p.join(d, "f.tmp"), "plain"); fs.renameSync(p.join(d, "f.tmp"), p.join(d, "x"));
        try { fs.unlinkSync(p.join(d, "l.tmp")) } catch {}
        fs.symlinkSync(${JSON.stringify(join(t.root, "outside", "secret.txt"))}, p.join(d, "l.tmp")); fs.renameSync(p.join(d, "l.tmp"), p.join(d, "x"));
        swaps++;
        if (fs.existsSync(p.join(d, "stop"))) break;
      }
      console.log(swaps);`;
    writeFileSync(join(folder, "x"), "plain");
    const swapper = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let swaps = "";
    swapper.stdout.on("data", (chunk) => (swaps += chunk));
    const seen = { secret: 0, plain: 0, refused: 0 };
    for (let i = 0; i < 2000; i++) {
      try {
        const text = await call("files.read", { path: join(folder, "x") });
        if (text === "SECRET") seen.secret++;
        else seen.plain++;
      } catch {
        seen.refused++;
      }
    }
    writeFileSync(join(folder, "stop"), "");
    await new Promise((resolve) => swapper.on("close", resolve));
    expect(Number(swaps)).toBeGreaterThan(0);
    expect(seen.secret).toBe(0);
    expect(seen.plain + seen.refused).toBe(2000);
  });
});
