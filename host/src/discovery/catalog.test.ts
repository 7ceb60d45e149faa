import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discover, listExtensionFolders, resolveCatalog } from "./catalog.js";
import { readExtensionFolder, readTools } from "./read-folder.js";
import type { DiscoveredExtension } from "./types.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "svc-discovery-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function extension(
  folder: string,
  svc: unknown,
  options: { code?: boolean; tools?: string } = {},
): Promise<string> {
  await mkdir(join(folder, "dist"), { recursive: true });
  await writeFile(join(folder, "package.json"), JSON.stringify({ name: "x", version: "1.2.3", svc }));
  if (options.code !== false) await writeFile(join(folder, "dist", "index.js"), "module.exports = {};");
  if (options.tools !== undefined) await writeFile(join(folder, "dist", "tools.json"), options.tools);
  return folder;
}

const found = (
  id: string,
  source: "bundled" | "user",
  extra: Partial<DiscoveredExtension> = {},
): DiscoveredExtension => ({
  id,
  folder: `/${source}/${id}`,
  source,
  tools: [],
  toolErrors: [],
  ...extra,
});

describe("resolveCatalog", () => {
  it("lets a user extension override a bundled one with the same id", () => {
    const catalog = resolveCatalog([found("a.b", "bundled"), found("a.c", "bundled"), found("a.b", "user")]);
    expect(catalog.active.map((e) => [e.id, e.source])).toEqual([
      ["a.c", "bundled"],
      ["a.b", "user"],
    ]);
    expect(catalog.overridden.map((e) => [e.id, e.source])).toEqual([["a.b", "bundled"]]);
  });

  it("keeps the first of two folders with one id in the same root and lists the other as broken", () => {
    const catalog = resolveCatalog([
      found("a.b", "user", { folder: "/u/one" }),
      found("a.b", "user", { folder: "/u/two" }),
    ]);
    expect(catalog.active.map((e) => e.folder)).toEqual(["/u/one"]);
    expect(catalog.broken).toEqual([
      expect.objectContaining({ folder: "/u/two", error: "the id a.b is already used by /u/one" }),
    ]);
  });

  it("never lets a broken user folder hide a working bundled one", () => {
    const catalog = resolveCatalog([
      found("a.b", "bundled"),
      found("a.b", "user", { error: "package.json is missing" }),
    ]);
    expect(catalog.active.map((e) => e.source)).toEqual(["bundled"]);
    expect(catalog.broken.map((e) => e.source)).toEqual(["user"]);
  });
});

describe("reading folders", () => {
  it("reads a valid extension with its manifest defaults filled", async () => {
    const folder = await extension(join(dir, "ok"), { id: "com.example.ok", title: "OK", interval: "1m" });
    const ext = await readExtensionFolder(folder, "user");
    expect(ext.error).toBeUndefined();
    expect(ext.id).toBe("com.example.ok");
    expect(ext.manifest?.version).toBe("1.2.3");
    expect(ext.manifest?.svc.triggers).toEqual({ webhook: false, watch: [] });
  });

  it("reports a missing package.json, bad JSON, a schema problem and missing code", async () => {
    await mkdir(join(dir, "empty"));
    expect((await readExtensionFolder(join(dir, "empty"), "user")).error).toBe("package.json is missing");
    await mkdir(join(dir, "bad"));
    await writeFile(join(dir, "bad", "package.json"), "{");
    expect((await readExtensionFolder(join(dir, "bad"), "user")).error).toMatch(/^package\.json is not JSON: /);
    const noTitle = await readExtensionFolder(await extension(join(dir, "notitle"), { id: "com.example.t" }), "user");
    expect(noTitle).toMatchObject({ id: "com.example.t", error: 'package.json: "svc.title" should be a string' });
    const unbuilt = await readExtensionFolder(
      await extension(join(dir, "unbuilt"), { id: "com.example.u", title: "U" }, { code: false }),
      "user",
    );
    expect(unbuilt.error).toBe("dist/index.js is missing: build the extension with `svckit build`");
  });

  it("lists an extension whose oauth block has a mistake, with the mistake and without that provider", async () => {
    const svc = {
      id: "com.example.o",
      title: "O",
      permissions: { network: ["api.example.com"] },
      oauth: {
        example: {
          authorizeUrl: "https://example.com/authorize",
          tokenUrl: "https://auth.example.com/token",
          clientId: "c",
        },
      },
    };
    const ext = await readExtensionFolder(await extension(join(dir, "oauth"), svc), "user");
    expect(ext.error).toBeUndefined();
    expect(ext.manifest?.svc.oauth ?? {}).toEqual({});
    expect(ext.oauthProblems).toEqual([
      '"oauth.example.tokenUrl" host auth.example.com should be in permissions.network: add "auth.example.com" to svc.permissions.network',
    ]);
  });

  it("decodes dist/tools.json spec by spec, keeping the valid ones", async () => {
    const folder = await extension(
      join(dir, "tools"),
      { id: "com.example.t", title: "T" },
      {
        tools: JSON.stringify([
          { id: "up", title: "Up", icon: "a" },
          { id: "x", title: "X".repeat(33), icon: "b" },
        ]),
      },
    );
    const { tools, errors } = await readTools(folder);
    expect(tools.map((t) => [t.id, t.category, t.remembersInputs])).toEqual([["up", "everyday", true]]);
    expect(errors).toEqual(['dist/tools.json [1]: "title" should be at most 32 characters']);
    await writeFile(join(folder, "dist", "tools.json"), '{"id":"up"}');
    expect((await readTools(folder)).errors).toEqual(["dist/tools.json should be an array of tool specs"]);
  });

  it("lists folders and symlinks to folders, skipping files, dotfolders and dangling links", async () => {
    const root = join(dir, "root");
    await mkdir(join(root, "b-ext"), { recursive: true });
    await mkdir(join(root, ".git"));
    await mkdir(join(dir, "elsewhere"));
    await symlink(join(dir, "elsewhere"), join(root, "a-link"));
    await symlink(join(dir, "gone"), join(root, "dangling"));
    await writeFile(join(root, "notes.txt"), "");
    expect(await listExtensionFolders(root)).toEqual([join(root, "a-link"), join(root, "b-ext")]);
    expect(await listExtensionFolders(join(dir, "missing"))).toEqual([]);
  });

  it("discovers across roots", async () => {
    await extension(join(dir, "bundled", "w"), { id: "com.example.w", title: "Bundled" });
    await extension(join(dir, "user", "w"), { id: "com.example.w", title: "Mine" });
    const catalog = await discover([
      { path: join(dir, "bundled"), source: "bundled" },
      { path: join(dir, "user"), source: "user" },
    ]);
    expect(catalog.active.map((e) => e.manifest?.svc.title)).toEqual(["Mine"]);
  });
});

describe("bundled.json: the folders that run by default", () => {
  const svc = (id: string) => ({ id, title: id });

  it("runs only the listed folders of a bundled root; the others (and the catalog folder) are not loaded", async () => {
    const root = join(dir, "bundled");
    await extension(join(root, "focus"), svc("dev.svc.focus"));
    await extension(join(root, "weather"), svc("app.svc.weather"));
    await mkdir(join(root, "catalog"), { recursive: true });
    await writeFile(join(root, "bundled.json"), JSON.stringify({ onByDefault: ["focus"] }));
    const catalog = await discover([{ path: root, source: "bundled" }]);
    expect(catalog.active.map((e) => e.id)).toEqual(["dev.svc.focus"]);
    expect(catalog.broken).toEqual([]);
  });

  it("is read only for bundled roots: a user root runs every folder", async () => {
    const root = join(dir, "user");
    await extension(join(root, "weather"), svc("app.svc.weather"));
    await writeFile(join(root, "bundled.json"), JSON.stringify({ onByDefault: [] }));
    const catalog = await discover([{ path: root, source: "user" }]);
    expect(catalog.active.map((e) => e.id)).toEqual(["app.svc.weather"]);
  });

  it("runs every folder of a bundled root without the file", async () => {
    const root = join(dir, "bundled");
    await extension(join(root, "a"), svc("x.y.a"));
    await extension(join(root, "b"), svc("x.y.b"));
    const catalog = await discover([{ path: root, source: "bundled" }]);
    expect(catalog.active.map((e) => e.id)).toEqual(["x.y.a", "x.y.b"]);
  });

  it("lists a broken bundled.json as broken, with the field and the fix, and runs nothing from that root", async () => {
    const root = join(dir, "bundled");
    await extension(join(root, "focus"), svc("dev.svc.focus"));
    await writeFile(join(root, "bundled.json"), JSON.stringify({ onByDefault: ["../focus"] }));
    const catalog = await discover([{ path: root, source: "bundled" }]);
    expect(catalog.active).toEqual([]);
    expect(catalog.broken.map((e) => [e.id, e.error])).toEqual([
      [
        "bundled.json",
        `${join(root, "bundled.json")}: "onByDefault.0" should be a folder name like focus (lowercase, no slashes); write it as {"onByDefault": ["focus", "system"]}`,
      ],
    ]);
    await writeFile(join(root, "bundled.json"), "{");
    const again = await discover([{ path: root, source: "bundled" }]);
    expect(again.broken[0].error).toMatch(/^\S+bundled\.json is not JSON: .+; write it as \{"onByDefault"/);
  });
});
