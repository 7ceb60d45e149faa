import { mkdir, mkdtemp, readlink, rm, lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { linkExtension, unlinkExtension } from "./link.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "svckit-link-"));
  await mkdir(join(root, "ext-a"));
  await mkdir(join(root, "ext-b"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("linkExtension", () => {
  it("links the folder as Extensions/<id>, creating Extensions", async () => {
    const { link, replaced } = await linkExtension(join(root, "support"), "com.example.a", join(root, "ext-a"));
    expect(link).toBe(join(root, "support", "Extensions", "com.example.a"));
    expect(await readlink(link)).toBe(join(root, "ext-a"));
    expect(replaced).toBeUndefined();
  });

  it("replaces an older dev link and says where it pointed", async () => {
    await linkExtension(join(root, "support"), "com.example.a", join(root, "ext-b"));
    const { link, replaced } = await linkExtension(join(root, "support"), "com.example.a", join(root, "ext-a"));
    expect(replaced).toBe(join(root, "ext-b"));
    expect(await readlink(link)).toBe(join(root, "ext-a"));
  });

  it("never replaces an installed extension's folder", async () => {
    await mkdir(join(root, "support", "Extensions", "com.example.a"), { recursive: true });
    await expect(linkExtension(join(root, "support"), "com.example.a", join(root, "ext-a"))).rejects.toThrow(
      `${join(root, "support", "Extensions", "com.example.a")} is an installed extension with the id "com.example.a", not a dev link.`,
    );
  });

  it("unlinks only a link that still points at this folder", async () => {
    const { link } = await linkExtension(join(root, "support"), "com.example.a", join(root, "ext-a"));
    expect(await unlinkExtension(link, join(root, "ext-b"))).toBe(false);
    expect(await unlinkExtension(link, join(root, "ext-a"))).toBe(true);
    await expect(lstat(link)).rejects.toThrow(/ENOENT/);
  });
});
