/**
 * Test helpers: fixture extensions (testkit/fixtures/<name>/) copied to a temp folder and built
 * with svckit's own build, as an author's would be. Not part of the package.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli } from "svckit";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const made: string[] = [];

/**
 * A fresh built copy of the fixture; removed by `removeFixtures`. `svc` replaces members of its
 * manifest first (a loopback server's port in `permissions.network`, known only at run time).
 */
export async function builtFixture(name: string, svc: Record<string, unknown> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "svc-testkit-fixture-"));
  made.push(root);
  const dir = join(root, name);
  await cp(join(FIXTURES, name), dir, { recursive: true });
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  manifest.svc = { ...manifest.svc, ...svc };
  await writeFile(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  const lines: string[] = [];
  const out = { info: (line: string) => void lines.push(line), warn: (line: string) => void lines.push(line) };
  const code = await runCli(["build"], {
    cwd: dir,
    env: process.env,
    out,
    signal: new AbortController().signal,
    readStdin: async () => "",
  });
  if (code !== 0) throw new Error(`building the fixture ${name} failed:\n${lines.join("\n")}`);
  return dir;
}

export async function removeFixtures(): Promise<void> {
  await Promise.all(made.splice(0).map((root) => rm(root, { recursive: true, force: true })));
}
