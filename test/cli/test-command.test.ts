/**
 * `svckit test` on hand-written extensions in temp folders: a passing and a failing test and how
 * the failure reads, no tests at all, a test that does not compile, and `--record` against a
 * real loopback server followed by an offline replay.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { svckit, tempFolder } from "./harness.js";
import { writeFixture } from "./fixtures.js";

let folder: { dir: string; remove(): Promise<void> };
let server: Server;
let port: number;
let served = 0;
beforeAll(async () => {
  folder = await tempFolder("svckit-test-");
  server = createServer((_request, response) => {
    served++;
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ count: 42 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await folder.remove();
});

const TESTS = `import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "@svc/testkit";

test("counts three", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  await ext.run();
  assert.deepEqual(ext.blip("count")?.data, { value: { type: "number", value: 3 } });
});

test("counts four", async (t) => {
  console.log("title: \\u001b]0;renamed\\u0007");
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  await ext.run();
  assert.equal(ext.blip("count")?.title, "Count of four");
});
`;

describe("svckit test", () => {
  it("runs the tests with the kit; a failure names the test, the values and the line", async () => {
    const dir = await writeFixture(join(folder.dir, "counts"), { files: { "test/count.test.ts": TESTS } });
    const result = await svckit(["test"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^built dist\/index\.js \(\d+\.\d KB\); no tools\nrunning 1 test file\n/);
    expect(result.stdout).toContain("✔ counts three");
    expect(result.stdout).toContain("✖ counts four");
    expect(result.stdout).toContain("+ 'Count'\n  - 'Count of four'");
    expect(result.stdout).toContain(`at TestContext.<anonymous> (${join(dir, "test", "count.test.ts")}:17:10)`);
    expect(result.stdout).toMatch(/ℹ pass 1\nℹ fail 1\n/);
    // What a test prints is shown inert: an escape sequence cannot rename the terminal.
    expect(result.stdout).toContain("title: \\u{1b}]0;renamed\\u{7}");
    expect(result.stdout).not.toContain("\u001b");
    expect(result.stderr).toBe("test failed: see the failing tests above");
  });

  it("says where tests go when there are none", async () => {
    const dir = await writeFixture(join(folder.dir, "none"));
    const result = await svckit(["test"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `no tests in ${join(dir, "test")}: add one like test/extension.test.ts (svckit new scaffolds one; see @svc/testkit's README)`,
    );
  });

  it("a test that does not compile names the file and line", async () => {
    const dir = await writeFixture(join(folder.dir, "broken"), {
      files: { "test/broken.test.ts": "import { test } from 'node:test';\ntest('x', () => {\n" },
    });
    const result = await svckit(["test"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("test/broken.test.ts:3: Unexpected end of file\ntest failed: the tests do not compile");
  });

  it("--record records against the real server; the next run replays it with the server unreachable", async () => {
    const source = `import { defineExtension, stat } from "@svc/api";
export default defineExtension<{ apiUrl: string }>({
  async update(ctx) {
    const body = (await (await fetch(ctx.preferences.apiUrl)).json()) as { count: number };
    await ctx.emit(stat("count", { title: "Count", value: body.count }));
  },
});
`;
    const test = `import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension } from "@svc/testkit";

test("reads the count", async (t) => {
  const ext = await loadExtension(".", { preferences: { apiUrl: "http://127.0.0.1:${port}/count" }, recording: "test/recordings/count.json" });
  t.after(() => ext.dispose());
  await ext.run();
  assert.deepEqual(ext.blip("count")?.data, { value: 42 });
});
`;
    const dir = await writeFixture(join(folder.dir, "recorded"), {
      source,
      svc: {
        preferences: [{ name: "apiUrl", title: "API URL", type: "textfield" }],
        permissions: { network: [`127.0.0.1:${port}`], files: [], exec: [] },
      },
      files: { "test/count.test.ts": test },
    });
    const unrecorded = await svckit(["test"], { cwd: dir });
    expect(unrecorded.code).toBe(1);
    expect(unrecorded.stdout).toContain(
      `fetch: GET http://127.0.0.1:${port}/count has no recorded response in ${join(dir, "test", "recordings", "count.json")}; it holds none. Record it again against the real API: svckit test --record`,
    );
    expect(served).toBe(0);

    const recorded = await svckit(["test", "--record"], { cwd: dir });
    expect(recorded.stdout).toContain("running 1 test file, recording HTTP");
    expect(recorded.code).toBe(0);
    expect(served).toBe(1);
    expect(JSON.parse(await readFile(join(dir, "test", "recordings", "count.json"), "utf8")).exchanges).toHaveLength(1);

    server.closeAllConnections();
    const replayed = await svckit(["test"], { cwd: dir });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain("✔ reads the count");
    expect(served).toBe(1);
  });
});
