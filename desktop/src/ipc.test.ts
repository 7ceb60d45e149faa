import { describe, expect, it } from "vitest";
import { CHANNELS, MAX_CLIPBOARD_CHARS, MAX_PATH_CHARS } from "./channels.js";
import { registerIpc, type IpcTargets } from "./ipc.js";
import { FakeFrame, FakeIpcMain, FakeSession, FakeWebContents } from "./testing/electron-double.js";

const UI = "http://127.0.0.1:47900";

function setup() {
  const ipcMain = new FakeIpcMain();
  const notch = new FakeWebContents(new FakeSession());
  notch.mainFrame.url = `${UI}/`;
  const calls: unknown[][] = [];
  const log: string[] = [];
  let clipboard = "on the clipboard";
  const targets: IpcTargets = {
    contents: () => notch,
    origin: () => UI,
    expand: () => void calls.push(["expand"]),
    collapse: () => void calls.push(["collapse"]),
    setClickThrough: (on) => void calls.push(["click-through", on]),
    writeClipboard: (text) => void (clipboard = text),
    registerDrop: (path) => (calls.push(["drop", path]), "handle-1"),
    openFile: async (path) => (path.endsWith(".sh") ? "it is a script" : (calls.push(["open", path]), undefined)),
    log: (m) => void log.push(m),
  };
  const stop = registerIpc(ipcMain, targets);
  const fromPage = { sender: notch, frame: notch.mainFrame };
  return { ipcMain, notch, calls, log, fromPage, stop, clipboard: () => clipboard };
}

describe("IPC from the notch page", () => {
  it("does what each channel says", async () => {
    const { ipcMain, calls, fromPage, clipboard } = setup();
    await ipcMain.invoke(CHANNELS.expand, fromPage);
    await ipcMain.invoke(CHANNELS.collapse, fromPage);
    await ipcMain.invoke(CHANNELS.clickThrough, fromPage, false);
    await ipcMain.invoke(CHANNELS.writeClipboard, fromPage, "copied");
    expect(clipboard()).toBe("copied");
    expect(await ipcMain.invoke(CHANNELS.registerDrop, fromPage, "/Users/ann/report.pdf")).toBe("handle-1");
    await ipcMain.invoke(CHANNELS.openFile, fromPage, "/Svc/Data/x/out.png");
    expect(calls).toEqual([
      ["expand"],
      ["collapse"],
      ["click-through", false],
      ["drop", "/Users/ann/report.pdf"],
      ["open", "/Svc/Data/x/out.png"],
    ]);
  });

  it("refuses every other sender, and changes nothing", async () => {
    const { ipcMain, notch, calls, log } = setup();
    const otherContents = new FakeWebContents(new FakeSession());
    otherContents.mainFrame.url = `${UI}/`;
    const iframe = new FakeFrame(`${UI}/frame`, notch.mainFrame);
    const foreign = new FakeFrame("https://evil.example/");
    const senders = [
      [{ sender: otherContents, frame: otherContents.mainFrame }, "refused: not the notch window"],
      [{ sender: notch, frame: iframe }, "refused: not the page's main frame"],
      [{ sender: notch, frame: foreign }, "refused: not svc's page (https://evil.example)"],
      [
        { sender: notch, frame: new FakeFrame("http://127.0.0.1:47901/") },
        "refused: not svc's page (http://127.0.0.1:47901)",
      ],
      [{ sender: notch, frame: null }, "refused: the frame is gone"],
    ] as const;
    for (const channel of Object.values(CHANNELS)) {
      for (const [from, message] of senders) {
        await expect(ipcMain.invoke(channel, from, "/a/path")).rejects.toThrow(message);
      }
    }
    expect(calls).toEqual([]);
    expect(log[0]).toBe(`refused ${CHANNELS.expand} from not the notch window`);
  });

  it("refuses everything before a page is loaded", async () => {
    const ipcMain = new FakeIpcMain();
    const notch = new FakeWebContents(new FakeSession());
    registerIpc(ipcMain, { ...({} as IpcTargets), contents: () => notch, origin: () => undefined, log: () => {} });
    await expect(ipcMain.invoke(CHANNELS.expand, { sender: notch, frame: notch.mainFrame })).rejects.toThrow(
      "refused: not svc's page (null)",
    );
  });

  it("checks arguments as a stranger's", async () => {
    const { ipcMain, fromPage, calls } = setup();
    await expect(ipcMain.invoke(CHANNELS.clickThrough, fromPage, "yes")).rejects.toThrow(
      "click-through should be true or false",
    );
    await expect(ipcMain.invoke(CHANNELS.writeClipboard, fromPage, { toString: () => "x" })).rejects.toThrow(
      "the text to copy should be text",
    );
    await expect(ipcMain.invoke(CHANNELS.registerDrop, fromPage, "relative/file")).rejects.toThrow(
      "the path should be absolute",
    );
    await expect(ipcMain.invoke(CHANNELS.registerDrop, fromPage, "/a\0b")).rejects.toThrow(
      "the path should be absolute",
    );
    await expect(ipcMain.invoke(CHANNELS.openFile, fromPage, 7)).rejects.toThrow("the path should be text");
    await expect(ipcMain.invoke(CHANNELS.openFile, fromPage, "/Svc/Data/x/run.sh")).rejects.toThrow("it is a script");
    expect(calls).toEqual([]);
  });

  it("takes clipboard text up to its limit, not one character more", async () => {
    const { ipcMain, fromPage, clipboard } = setup();
    await ipcMain.invoke(CHANNELS.writeClipboard, fromPage, "a".repeat(MAX_CLIPBOARD_CHARS));
    expect(clipboard().length).toBe(MAX_CLIPBOARD_CHARS);
    await expect(
      ipcMain.invoke(CHANNELS.writeClipboard, fromPage, "b".repeat(MAX_CLIPBOARD_CHARS + 1)),
    ).rejects.toThrow("the text to copy is longer than 1,048,576 characters");
    expect(clipboard()[0]).toBe("a");
  });

  it("takes paths up to their limit, not one character more", async () => {
    const { ipcMain, fromPage } = setup();
    const atLimit = `/${"p".repeat(MAX_PATH_CHARS - 1)}`;
    expect(await ipcMain.invoke(CHANNELS.registerDrop, fromPage, atLimit)).toBe("handle-1");
    await expect(ipcMain.invoke(CHANNELS.registerDrop, fromPage, `${atLimit}p`)).rejects.toThrow(
      "the path is longer than 32,767 characters",
    );
  });

  it("hides a handler's own failure behind a short message and logs it", async () => {
    const ipcMain = new FakeIpcMain();
    const notch = new FakeWebContents(new FakeSession());
    notch.mainFrame.url = `${UI}/`;
    const log: string[] = [];
    registerIpc(ipcMain, {
      ...({} as IpcTargets),
      contents: () => notch,
      origin: () => UI,
      expand: () => {
        throw new Error("window gone at /secret/place");
      },
      log: (m) => void log.push(m),
    });
    await expect(ipcMain.invoke(CHANNELS.expand, { sender: notch, frame: notch.mainFrame })).rejects.toThrow(
      `${CHANNELS.expand} failed; details are in the svc log`,
    );
    expect(log).toEqual([`${CHANNELS.expand} failed: window gone at /secret/place`]);
  });

  it("removes every handler when stopped", () => {
    const { ipcMain, stop } = setup();
    expect(ipcMain.handlers.size).toBe(Object.keys(CHANNELS).length);
    stop();
    expect(ipcMain.handlers.size).toBe(0);
  });
});
