import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createBridge } from "./bridge.js";
import type { SvcShell } from "./shell-api.js";
import { BRIDGE_KEY, CHANNELS, COMMAND_CHANNEL } from "./channels.js";
import type { ElectronPreload } from "./electron-api.js";

function preloadDouble() {
  const invoked: unknown[][] = [];
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  const exposed = new Map<string, unknown>();
  const electron: ElectronPreload = {
    contextBridge: { exposeInMainWorld: (key, api) => void exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel, ...args) => {
        invoked.push([channel, ...args]);
        return channel === CHANNELS.registerDrop ? "handle-7" : undefined;
      },
      on: (channel, listener) => void listeners.set(channel, listener),
    },
    webUtils: { getPathForFile: (file) => (file as { path?: string }).path ?? "" },
  };
  return { electron, invoked, listeners, exposed };
}

const FUNCTIONS = ["registerDroppedFile", "setExpanded", "setClickThrough", "copyText", "openFile", "onCommand"];

describe("the preload's bridge", () => {
  it("offers exactly the page's few functions, frozen", () => {
    const bridge = createBridge(preloadDouble().electron);
    expect(Object.keys(bridge).sort()).toEqual([...FUNCTIONS].sort());
    expect(Object.isFrozen(bridge)).toBe(true);
  });

  it("sends one checked message per call", async () => {
    const { electron, invoked } = preloadDouble();
    const bridge = createBridge(electron);
    expect(await bridge.registerDroppedFile({ path: "/Users/ann/a.pdf" } as unknown as File)).toEqual({
      handle: "handle-7",
    });
    await bridge.setExpanded(true);
    await bridge.setExpanded(false);
    await bridge.setClickThrough("yes" as never);
    await bridge.copyText("hello");
    await bridge.openFile("/Svc/Data/x/out.png");
    expect(invoked).toEqual([
      [CHANNELS.registerDrop, "/Users/ann/a.pdf"],
      [CHANNELS.expand],
      [CHANNELS.collapse],
      [CHANNELS.clickThrough, false],
      [CHANNELS.writeClipboard, "hello"],
      [CHANNELS.openFile, "/Svc/Data/x/out.png"],
    ]);
  });

  it("refuses a drop that is not a file from the disk", async () => {
    const { electron, invoked } = preloadDouble();
    await expect(createBridge(electron).registerDroppedFile({} as File)).rejects.toThrow("not a file from the disk");
    expect(invoked).toEqual([]);
  });

  it("hands the page the command's name only, and only a known one", () => {
    const { electron, listeners } = preloadDouble();
    const bridge = createBridge(electron);
    const got: unknown[][] = [];
    bridge.onCommand((...args) => got.push(args));
    const send = listeners.get(COMMAND_CHANNEL)!;
    send({ sender: "the IPC event" }, "open");
    send({ sender: "the IPC event" }, "settings");
    send({ sender: "the IPC event" }, "format-disk");
    expect(got).toEqual([["open"], ["settings"]]);
    expect(() => bridge.onCommand("nope" as never)).toThrow("onCommand needs a function");
  });

  it("is bundled into one script that needs nothing but electron, as a sandboxed preload must be", async () => {
    const code = await readFile(fileURLToPath(new URL("../dist/preload.cjs", import.meta.url)), "utf8");
    const { electron, exposed } = preloadDouble();
    const required: string[] = [];
    // Nothing but `require`: no module, exports, process or globals of Node.
    runInNewContext(code, {
      require: (id: string) => {
        required.push(id);
        if (id === "electron") return electron;
        throw new Error(`a sandboxed preload cannot require ${id}`);
      },
    });
    expect(required).toEqual(["electron"]);
    expect([...exposed.keys()]).toEqual([BRIDGE_KEY]);
    expect(Object.keys(exposed.get(BRIDGE_KEY) as SvcShell).sort()).toEqual([...FUNCTIONS].sort());
  });
});
