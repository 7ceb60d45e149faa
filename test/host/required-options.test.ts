/**
 * A `required` option left without a value is the extension's error in the real host (an
 * `extension.error` event, and `svc-host list`'s LAST ERROR) until it is set; it still runs.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { counterCode, HOST_MAIN, startHost, useHostWorld, writeExtension } from "./harness.js";

const scene = useHostWorld();

function svcHost(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [HOST_MAIN, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: scene.world.userHome,
      SVC_HOME: scene.world.home,
      SVC_BUNDLED_EXTENSIONS: scene.world.bundled,
    },
  });
  let stdout = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stdin.end();
  return new Promise((resolve) => child.once("exit", () => resolve(stdout)));
}

describe("required options", { timeout: 60_000 }, () => {
  it("are the extension's error until set, and the extension runs meanwhile", async () => {
    const preferences = [
      { name: "apiUrl", title: "API URL", type: "textfield", required: true },
      { name: "note", title: "Note", type: "textfield" },
    ];
    await writeExtension(join(scene.world.user, "needs"), {
      svc: { id: "test.needs", title: "Needs", preferences },
      code: counterCode(),
    });
    scene.host = await startHost(scene.world);
    const problem = 'needs its option "API URL" (apiUrl): set it in Settings, or svc-host set test.needs apiUrl';
    expect(await scene.host.waitFor((e) => e.type === "extension.error" && e.id === "test.needs")).toEqual({
      type: "extension.error",
      id: "test.needs",
      error: problem,
    });
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.needs/main");
    expect(await svcHost(["list"])).toContain(problem);

    const from = scene.host.events.length;
    await svcHost(["set", "test.needs", "apiUrl", "https://api.example.com"]);
    await scene.host.waitFor(
      (e) => e.type === "extension.loaded" && e.id === "test.needs" && e.reason === "preferences",
      { from },
    );
    expect(await svcHost(["list"])).not.toContain("needs its option");
    expect(scene.host.events.slice(from).filter((e) => e.type === "extension.error")).toEqual([]);
  });
});
