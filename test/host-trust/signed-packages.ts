/**
 * Real keys and real signed packages for the signing tests: keys made by the real `svckit
 * keygen --file`, packages by the real `svckit pack --key`, handovers by the real `svckit rotate`.
 */
import { access, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { HostScene } from "../host/harness.js";
import { svckitProcess } from "../cli/harness.js";
import { writeFixture } from "../cli/fixtures.js";

export const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The key and package makers of one test world, for the extension `id` (title "Fixture"). */
export function signedPackages(scene: HostScene, id: string) {
  /** Makes the key file `key` (unencrypted) with its `svc-key.pub` in `<root>/<key>.pub/`; resolves with that. */
  async function keyFile(key: string): Promise<string> {
    const pubDir = join(scene.world.root, `${key}.pub`);
    if (!(await exists(join(scene.world.root, key)))) {
      await mkdir(pubDir, { recursive: true });
      const made = await svckitProcess(["keygen", "--file", join(scene.world.root, key), "--unencrypted"], {
        cwd: pubDir,
      });
      expect(made.code).toBe(0);
    }
    return join(pubDir, "svc-key.pub");
  }

  /**
   * A project `name` of `version`, signed with the key file `key` (made on first use); resolves
   * with its `.svc`. `rotateFrom` first hands the project from that key over to `key` (svckit
   * rotate; `lost` adds `--lost-after <version> --reason <text>`).
   */
  async function packed(
    name: string,
    version: string,
    key?: string,
    svc: Record<string, unknown> = {},
    rotateFrom?: string,
    lost?: { after: string; reason: string },
  ): Promise<string> {
    const dir = join(scene.world.root, name);
    await writeFixture(dir, { pkg: { version }, svc: { id, title: "Fixture", ...svc } });
    if (key) {
      const pub = await keyFile(key);
      if (rotateFrom) {
        await keyFile(rotateFrom);
        const rotated = await svckitProcess(
          [
            "rotate",
            "--to",
            pub,
            "--key",
            join(scene.world.root, rotateFrom),
            ...(lost ? ["--lost-after", lost.after, "--reason", lost.reason] : []),
          ],
          { cwd: dir },
        );
        expect(rotated.stderr).toBe("");
        expect(rotated.code).toBe(0);
      }
    }
    const result = await svckitProcess(key ? ["pack", "--key", join(scene.world.root, key)] : ["pack"], {
      cwd: dir,
    });
    if (key) expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    return join(dir, `fixture-${version}.svc`);
  }

  const installedVersion = async () =>
    (JSON.parse(await readFile(join(scene.world.user, id, "package.json"), "utf8")) as { version: string }).version;

  return { keyFile, packed, installedVersion };
}
