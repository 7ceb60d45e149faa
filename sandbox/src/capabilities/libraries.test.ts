import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/**
 * Runs `body` (an ES module) in a fresh Node process next to this package, and returns the
 * CommonJS libraries it loaded of `names` (undici and ws are CommonJS, loaded through require).
 */
function librariesLoaded(body: string, names: string[]): string[] {
  const script = `
    import { createRequire } from "node:module";
    import * as sandbox from "@svc/sandbox";
    ${body}
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const names = ${JSON.stringify(names)};
    console.log(JSON.stringify(names.filter((name) => loaded.some((file) => file.includes("/node_modules/" + name + "/")))));
    process.exit(0);
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: new URL("..", import.meta.url),
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!);
}

describe("the capabilities' libraries are loaded on first use", () => {
  it("importing the package and making the capabilities loads neither undici nor ws", () => {
    expect(librariesLoaded("sandbox.createCapabilities();", ["undici", "ws"])).toEqual([]);
  });

  it("a fetch the policy refuses loads no library", () => {
    const body = `
      const caps = sandbox.createCapabilities();
      const cx = { id: "a.b", permissions: { network: [], files: [], exec: [] }, dataDir: "/tmp", signal: new AbortController().signal,
        deny: (d) => new Error(d.reason), push() {}, toolFiles: () => [], log() {} };
      const refused = await caps.async.fetch({ requestId: 1, url: "https://unlisted.example/" }, cx).then(() => "sent", (error) => error.message);
      if (!refused.includes("not in permissions.network")) throw new Error("the fetch was not refused: " + refused);
    `;
    expect(librariesLoaded(body, ["undici", "ws"])).toEqual([]);
  });

  it("a WebSocket's open loads ws, and a fetch loads undici", () => {
    const body = `
      const caps = sandbox.createCapabilities({ resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
      const cx = { id: "a.b", permissions: { network: ["a.test"], files: [], exec: [] }, dataDir: "/tmp", signal: new AbortController().signal,
        deny: (d) => new Error(d.reason), push() {}, toolFiles: () => [], log() {} };
      caps.sync["ws.open"]({ socketId: 1, url: "ws://a.test/" }, cx);
      await caps.async.fetch({ requestId: 1, url: "http://a.test/" }, cx).catch(() => {});
    `;
    expect(librariesLoaded(body, ["undici", "ws"])).toEqual(["undici", "ws"]);
  });
});
