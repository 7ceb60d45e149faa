import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
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
    expect(await call("files.read", { path: join(t.cx.dataDir, "notes/today.txt"), encoding: "base64" })).toBe(Buffer.from("héllo").toString("base64"));
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
    await expect(call("files.read", { path: "" })).rejects.toThrow('files.read: "path" should be 1 to 4096 characters long');
    await expect(call("files.read", { path: "a\0b" })).rejects.toThrow('files.read: "path" contains a NUL character');
    await expect(call("files.write", { path: "x", data: 5 })).rejects.toThrow('files.write: "data" should be a string');
  });
});

describe("red team: file escapes", () => {
  it("`..` out of the data folder is denied, naming the manifest fix", async () => {
    context();
    const target = join(t.root, "outside", "file.txt");
    await expect(call("files.read", { path: "../../outside/file.txt" })).rejects.toThrow(
      `file access to ${target} denied: "${target}" is outside permissions.files, the data folder and the files given to this tool run (add "${join(t.root, "outside")}" to svc.permissions.files in package.json)`);
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
    await expect(call("files.read", { path: "link/secret.txt" })).rejects.toThrow(
      `"${join(t.cx.dataDir, "link/secret.txt")}" leads to "${join(t.root, "Data/com.other.ext/secret.txt")}", which is outside permissions.files`);
    await expect(call("files.write", { path: "link/secret.txt", data: "x" })).rejects.toThrow("which is outside the data folder");
    expect(readFileSync(join(t.root, "Data", "com.other.ext", "secret.txt"), "utf8")).toBe("neighbour's secret");
  });

  it("a dangling symlink cannot be used to create a file outside", async () => {
    context();
    symlinkSync(join(t.root, "outside", "new.txt"), join(t.cx.dataDir, "dangling"));
    await expect(call("files.write", { path: "dangling", data: "x" })).rejects.toThrow("is a symlink to something that does not exist");
    expect(existsSync(join(t.root, "outside", "new.txt"))).toBe(false);
  });

  it("planting compiled code in svc-runtime's cache (<Data>/.compiled-code) is denied, even with Data readable", async () => {
    context();
    const data = join(t.root, "Data");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: [data] } } });
    const planted = `../.compiled-code/${t.cx.id}.${"a".repeat(64)}.qjsc`;
    await expect(call("files.write", { path: planted, data: "AAEC", encoding: "base64" })).rejects.toThrow(
      "is outside the data folder, the only place an extension may write (write under ctx.dataDir instead)");
    expect(existsSync(join(data, ".compiled-code"))).toBe(false);
  });

  it("writes outside the data folder are denied, even in a readable listed folder", async () => {
    context();
    const outside = join(t.root, "outside");
    t = Object.assign(t, { cx: { ...t.cx, permissions: { ...t.cx.permissions, files: [outside] } } });
    expect(await call("files.read", { path: join(outside, "file.txt") })).toBe("outside");
    await expect(call("files.write", { path: join(outside, "file.txt"), data: "pwned" })).rejects.toThrow(
      "is outside the data folder, the only place an extension may write (write under ctx.dataDir instead)");
    await expect(call("files.write", { path: "/tmp/svc-escape.txt", data: "x" })).rejects.toThrow("denied");
    await expect(call("files.remove", { path: join(outside, "file.txt") })).rejects.toThrow("denied");
    await expect(call("files.remove", { path: "." })).rejects.toThrow("the data folder itself cannot be written or removed");
    expect(readFileSync(join(outside, "file.txt"), "utf8")).toBe("outside");
  });

  it("the runtime's own seq.json and storage.json cannot be written or removed", async () => {
    context();
    writeFileSync(join(t.cx.dataDir, "seq.json"), '{"com.test.ext/a": 7}');
    await expect(call("files.write", { path: "seq.json", data: "{}" })).rejects.toThrow(/seq\.json in the data folder belongs to svc/);
    await expect(call("files.remove", { path: "./seq.json" })).rejects.toThrow(/belongs to svc/);
    await expect(call("files.write", { path: "storage.json", data: "{}" })).rejects.toThrow(/storage\.json in the data folder belongs to svc/);
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
    await expect(call("files.read", { path: join(t.root, "outside") + "/../Data/com.other.ext/secret.txt" })).rejects.toThrow("denied");
    t.toolFiles.length = 0;
    await expect(call("files.read", { path: given })).rejects.toThrow("denied");
  });
});

describe("file limits", () => {
  it("reads a file of exactly 10 MB; refuses one byte more", async () => {
    context();
    writeFileSync(join(t.cx.dataDir, "ten"), Buffer.alloc(10 * MB, 97));
    writeFileSync(join(t.cx.dataDir, "more"), Buffer.alloc(10 * MB + 1, 97));
    expect(((await call("files.read", { path: "ten" })) as string).length).toBe(10 * MB);
    await expect(call("files.read", { path: "more" })).rejects.toThrow('files.read: "more" is over the limit of 10 MB (10485760 bytes)');
  });

  it("writes exactly 10 MB; refuses one byte more, leaving no temporary file", async () => {
    context();
    await call("files.write", { path: "ten", data: "a".repeat(10 * MB) });
    await expect(call("files.write", { path: "more", data: "a".repeat(10 * MB + 1) })).rejects.toThrow("files.write: data is over the limit of 10 MB (10485760 bytes)");
    await expect(call("files.write", { path: "more", data: Buffer.alloc(10 * MB + 1).toString("base64"), encoding: "base64" })).rejects.toThrow("files.write: data is over the limit of 10 MB");
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
