/**
 * The compatibility corpus: popular libraries that authors of status and developer-tool
 * extensions use, each exercised deterministically by a case in cases/, bundled by svckit's
 * build (the same esbuild settings and Node built-in resolution as `svckit build`), run in the
 * real sandbox pool, and compared deep-equal with the same bundle run by Node.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxPool } from "@svc/sandbox";
import { bundle } from "../../cli/src/bundle/bundle.js";

const CASES = fileURLToPath(new URL("./cases/", import.meta.url));
const NAMES = readdirSync(CASES)
  .filter((name) => name.endsWith(".js"))
  .map((name) => name.slice(0, -3))
  .sort();
const UPDATE = { kind: "update", ctx: { preferences: {} } } as const;
const work = mkdtempSync(join(tmpdir(), "svc-compat-"));
const pool = new SandboxPool({ threads: 2 });
afterAll(() => pool.dispose());

/** An extension whose update() returns the case's result, bundled as svckit builds it. */
async function build(name: string): Promise<string> {
  const dir = join(work, name);
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(
    join(dir, "src/index.ts"),
    `import run from ${JSON.stringify(join(CASES, `${name}.js`))};\nexport default { update: async () => run() };\n`,
  );
  const outcome = await bundle(dir);
  if (!outcome.ok) throw new Error(`svckit refused ${name}:\n${outcome.errors.join("\n")}`);
  return outcome.code;
}

async function runInNode(code: string): Promise<unknown> {
  const module = { exports: {} as Record<string, any> };
  const refuse = (specifier: string) => {
    throw new Error(`module "${specifier}" is not available in the extension sandbox`);
  };
  new Function("module", "exports", "require", code)(module, module.exports, refuse);
  const extension = module.exports.default ?? module.exports;
  return JSON.parse(JSON.stringify((await extension.update()) ?? null));
}

async function runInSandbox(name: string, code: string): Promise<unknown> {
  const sandbox = await pool.create(
    {
      id: `compat.${name.replace(/[^a-z0-9]/gi, "")}`,
      code,
      permissions: { network: [], files: [], exec: [] },
      dataDir: join(work, name, "data"),
      // compatibility, not speed: a loaded machine must not interrupt mathjs's simplify
      limits: { sliceMs: 20_000 },
    },
    { forwarded: { forward: async () => null } },
  );
  try {
    await sandbox.load();
    return await sandbox.invoke(UPDATE);
  } finally {
    await sandbox.dispose();
  }
}

describe("the compatibility corpus", () => {
  it("has at least 30 libraries", () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(30);
  });

  for (const name of NAMES) {
    it(`${name}: the sandbox gives Node's result`, { timeout: 60_000 }, async () => {
      const code = await build(name);
      const expected = await runInNode(code);
      expect(expected).not.toBeNull();
      expect(await runInSandbox(name, code)).toEqual(expected);
    });
  }
});
