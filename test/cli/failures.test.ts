/**
 * What svckit refuses, and the message a person gets for it.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { svckit, svckitProcess, tempFolder } from "./harness.js";
import { writeFixture } from "./fixtures.js";

let folder: { dir: string; remove(): Promise<void> };
beforeEach(async () => {
  folder = await tempFolder("svckit-fail-");
});
afterEach(() => folder.remove());

describe("svckit build refuses", () => {
  it("a broken manifest, one line per field path, and writes nothing", async () => {
    await writeFixture(folder.dir, { svc: { title: "", interval: "5s", permissions: { network: "api.example.com" } } });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'package.json: "svc.title" should not be empty',
        'package.json: "svc.interval" should be at least 10s',
        'package.json: "svc.permissions.network" should be an array',
        "build failed: 3 problems",
      ].join("\n"),
    );
    expect(existsSync(join(folder.dir, "dist"))).toBe(false);
  });

  it("an invalid tool, naming the tool and the field", async () => {
    await writeFixture(folder.dir, {
      source: `import { defineExtension, tool, status } from "@svc/api";
export default defineExtension({
  tools: {
    uuid: tool({ id: "uuid", title: "A title that is much too long to fit", icon: "number", run: () => [status("ok")] }),
    fine: tool({ id: "fine", title: "Fine", icon: "checkmark", run: () => [status("ok")] }),
  },
});
`,
    });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('tool "uuid": "title" should be at most 32 characters\nbuild failed: 1 problem');
  });

  it("a tool whose id is not its name in tools", async () => {
    await writeFixture(folder.dir, {
      source: `import { defineExtension, tool, status } from "@svc/api";
export default defineExtension({ tools: { uuid: tool({ id: "guid", title: "UUID", icon: "number", run: () => [status("ok")] }) } });
`,
    });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")[0]).toBe('tool "uuid": "id" should be "uuid", its name in tools (it is "guid")');
  });

  it("a Node module reached through a dependency, naming the chain and the bridged alternative", async () => {
    await writeFixture(folder.dir, {
      source: `import got from "got";\nimport { defineExtension } from "@svc/api";\nexport default defineExtension({ async update() { got(); } });\n`,
      files: {
        "node_modules/got/package.json": JSON.stringify({ name: "got", main: "index.js" }),
        "node_modules/got/index.js": `const https = require("https");\nmodule.exports = () => https.get("https://example.com");\n`,
      },
    });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'src/index.ts → node_modules/got/index.js imports "https": Node modules are not available in the extension sandbox; use fetch()\n' +
        "build failed: 1 problem",
    );
  });

  it("an extension folder without package.json or src/index.ts", async () => {
    const none = await svckit(["build"], { cwd: folder.dir });
    expect(none).toMatchObject({
      code: 1,
      stderr: `no package.json in ${folder.dir}: run svckit in an extension folder (svckit new <name> makes one).`,
    });
    await writeFixture(folder.dir, { files: {} });
    const { rm } = await import("node:fs/promises");
    await rm(join(folder.dir, "src"), { recursive: true });
    const noEntry = await svckit(["build"], { cwd: folder.dir });
    expect(noEntry.code).toBe(1);
    expect(noEntry.stderr).toBe(
      "src/index.ts is missing: it is the extension's entry point, bundled into dist/index.js\nbuild failed: 1 problem",
    );
  });
});

describe("svckit build warns but succeeds", () => {
  it("on an OAuth mistake (SPEC.md OAuth rule 5: it never hides the extension)", async () => {
    await writeFixture(folder.dir, {
      svc: {
        oauth: {
          github: {
            authorizeUrl: "https://github.com/login/oauth/authorize",
            tokenUrl: "https://github.com/login/oauth/access_token",
            clientId: "abc",
            clientSecret: "s3cret",
          },
        },
      },
    });
    const result = await svckit(["build"], { cwd: folder.dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'warning: package.json: "svc.oauth.github.clientSecret" is not allowed: svc signs in with PKCE as a public client; remove the client secret (sign-in will not work until this is fixed)',
    );
    expect(result.stdout).toMatch(/^built dist\/index\.js/);
  });
});

describe("svckit pack refuses", () => {
  it("an id beginning dev.svc., saying why and how to fix it", async () => {
    await writeFixture(folder.dir, { svc: { id: "dev.svc.fixture" } });
    const result = await svckit(["pack"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'svc.id "dev.svc.fixture" begins with "dev.svc.", which the app keeps for extensions in development, so it cannot be installed.\n' +
        'Give the extension its own reverse-DNS id in package.json, e.g. "com.yourname.fixture".',
    );
    expect(existsSync(join(folder.dir, "fixture-1.2.3.svc"))).toBe(false);
  });
});

describe("svckit validate fails", () => {
  it("on a blip the app would drop, naming the field path", async () => {
    await writeFixture(folder.dir, {
      source: `import { defineExtension } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    await ctx.emit({ key: "deploy", title: "Deploy", layout: "progress", data: { fraction: 2 } } as never);
  },
});
`,
    });
    const result = await svckit(["validate"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'emit com.example.fixture/deploy: DROPPED: "data.fraction" should be at most 1\nvalidate failed: 1 problem (see above)',
    );
  });

  it("when update() throws, with the error's message", async () => {
    await writeFixture(folder.dir, {
      source: `import { defineExtension } from "@svc/api";\nexport default defineExtension({ async update() { throw new Error("no route to the API"); } });\n`,
    });
    const result = await svckit(["validate"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    // The frame is in the author's source (line 2 of src/index.ts), mapped through the bundle's source map.
    expect(result.stderr).toMatch(
      /^update\(\) failed: no route to the API\n {4}at update \(src\/index\.ts:2:\d+\)\n(.*\n)*validate failed: 1 problem \(see above\)$/,
    );
  });

  it("when a call the app refuses is awaited: the calling line, never svc's own frames (kept with SVC_DEBUG=1)", async () => {
    await writeFixture(folder.dir, {
      source: [
        `import { defineExtension } from "@svc/api";`,
        `export default defineExtension({`,
        `  async update() {`,
        `    const ready = true;`,
        `    if (ready) await fetch("https://refused.example.com/x");`,
        `  },`,
        `});`,
        ``,
      ].join("\n"),
    });
    const result = await svckit(["validate"], { cwd: folder.dir });
    expect(result.code).toBe(1);
    const frames = result.stderr.split("\n").filter((line) => /^\s+at /.test(line));
    // The refusal arrives after the call returned; the frame is still the line that made the call.
    expect(frames.at(-1)).toMatch(/^ {4}at update \(src\/index\.ts:5:\d+\)$/);
    expect(result.stderr).not.toMatch(/svc:prelude\.js|<input>/);
    const debug = await svckit(["validate"], { cwd: folder.dir, env: { SVC_DEBUG: "1" } });
    expect(debug.stderr).toContain("(svc:prelude.js:");
    expect(debug.stderr).toMatch(/at update \(src\/index\.ts:5:\d+\)/);
  });
});

describe("svckit validate shows", () => {
  it("a signed-out connection blip without its Sign in button when the manifest has no sign-in", async () => {
    await writeFixture(folder.dir, {
      source: `import { connectionBlip, defineExtension, problemOf } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    await ctx.emit(connectionBlip("inbox", problemOf(401), { title: "Inbox" }));
  },
});
`,
    });
    const result = await svckit(["validate"], { cwd: folder.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"value": "Signed out"');
    expect(result.stdout).not.toContain("svc.connect");
  });

  it("what the limits cut, by field path, and what the extension asked of the app", async () => {
    await writeFixture(folder.dir, {
      source: `import { defineExtension, number, stat } from "@svc/api";
export default defineExtension({
  async update(ctx) {
    const series = Array.from({ length: 60 }, (_, i) => i);
    await ctx.emit(stat("busy", { title: "Busy", value: number(1), series,
      facts: [1, 2, 3, 4, 5].map((n) => ({ label: "F" + n, value: number(n) })) }));
    await ctx.notify("Hello", "from validate");
    await ctx.openURL("https://example.com/x");
    ctx.log.info("a log line");
    const token = await ctx.oauth.token().then((t) => t.token, (e) => e.message);
    await ctx.emit(stat("mock", { title: "Mock", value: number(0), label: JSON.stringify({ token, hours: (await ctx.workingHours()) ?? null }) }));
  },
});
`,
    });
    const result = await svckit(["validate"], { cwd: folder.dir });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("cut to the limits: facts, data.series");
    expect(result.stdout).toContain("notify: Hello — from validate");
    expect(result.stdout).toContain("openURL: https://example.com/x");
    expect(result.stdout).toContain("log [info] a log line");
    // The fake app answers as svc-host does: no sign-in is declared.
    expect(result.stdout).toContain(
      '"label": "{\\"token\\":\\"com.example.fixture declares no sign-in: add a provider to svc.oauth\\",\\"hours\\":null}"',
    );
  });
});

describe("svckit's failures", () => {
  it("print a name it was given inert: no escape sequence reaches the terminal (the real svckit)", async () => {
    const result = await svckitProcess(["send", "x\u001b[2J\u001b]0;pwned\u0007.json"], { cwd: folder.dir });
    expect(result).toMatchObject({
      code: 1,
      stderr: `no such file: ${join(folder.dir, "x")}\\u{1b}[2J\\u{1b}]0;pwned\\u{7}.json`,
    });
  });
});
