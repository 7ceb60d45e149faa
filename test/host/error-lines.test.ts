/**
 * Errors an extension's code throws reach the log stream (what `svckit dev` shows) as `error`
 * lines, their frames in the author's source: the extension is built by the real svckit (which
 * writes dist/index.js.map beside the bundle) and run by the real host and runtime.
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, startHost, useHostWorld, webhookInfo } from "./harness.js";

const scene = useHostWorld();

const SOURCE = `import { defineExtension, stat } from "@svc/api";

function explode(where: string): never {
  throw new TypeError("broke in " + where);
}

export default defineExtension({
  async update(ctx) {
    await ctx.emit(stat("main", { title: "Main", value: "ok", actions: [{ id: "boom", title: "Boom" }] }));
    if (ctx.trigger.type === "manual") explode("update");
  },
  async onEvent() {
    explode("onEvent");
  },
  async onAction() {
    explode("onAction");
  },
});
`;

function build(dir: string): Promise<number | null> {
  const child = spawn(process.execPath, [join(REPO, "cli", "dist", "main.js"), "build"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "" },
  });
  return new Promise((resolve) => child.once("exit", resolve));
}

describe("errors in the log stream", { timeout: 60_000 }, () => {
  it("update(), onEvent() and onAction() that throw are error lines naming src/index.ts", async () => {
    const dir = join(scene.world.user, "thrower");
    await mkdir(join(dir, "src"), { recursive: true });
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: "thrower",
        version: "1.0.0",
        svc: { id: "test.thrower", title: "Thrower", triggers: { webhook: true } },
      }),
    );
    await writeFile(join(dir, "src", "index.ts"), SOURCE);
    expect(await build(dir)).toBe(0);
    scene.host = await startHost(scene.world);
    await scene.host.waitFor((e) => e.type === "blip" && e.id === "test.thrower/main");

    const { port, token } = await webhookInfo(scene.world);
    const stream = await fetch(`http://127.0.0.1:${port}/v1/logs?extension=test.thrower`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const errors: string[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buffered = "";
      for await (const chunk of stream.body!) {
        buffered += decoder.decode(chunk as Uint8Array, { stream: true });
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines) {
          const event = JSON.parse(line);
          if (event.type === "log" && event.level === "error") errors.push(event.message);
        }
        if (errors.length >= 3) return;
      }
    })();

    await scene.host.control({ command: "run", id: "test.thrower" });
    await fetch(`http://127.0.0.1:${port}/v1/hooks/test.thrower`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}",
    });
    await scene.host.control({ command: "action", blipId: "test.thrower/main", actionId: "boom" });
    await reading;

    const byWhat = (what: string) => errors.find((message) => message.startsWith(`${what} threw: broke in`));
    for (const what of ["update()", "onEvent()", "onAction()"]) {
      const message = byWhat(what);
      expect(message, `${what} in ${JSON.stringify(errors)}`).toBeDefined();
      // The throw is on line 4 of src/index.ts, called from the handler's own line.
      expect(message).toMatch(/\n {4}at explode \(src\/index\.ts:4:\d+\)/);
    }
    expect(byWhat("update()")).toMatch(/\n {4}at update \(src\/index\.ts:10:\d+\)/);
  });
});
