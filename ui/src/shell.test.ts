import { describe, expect, it } from "vitest";
import { giveFiles, type ShellHooks } from "./shell.js";

const file = (name: string) => new File(["x"], name, { type: "text/plain" });

describe("giving files through the desktop shell", () => {
  it("registers each file in order and keeps its handle and name, never a path", async () => {
    const asked: string[] = [];
    const shell: ShellHooks = { registerDroppedFile: async (f) => (asked.push(f.name), { handle: `h-${f.name}` }) };
    expect(await giveFiles(shell, [file("a.txt"), file("b.txt")])).toEqual([
      { handle: "h-a.txt", name: "a.txt" },
      { handle: "h-b.txt", name: "b.txt" },
    ]);
    expect(asked).toEqual(["a.txt", "b.txt"]);
  });

  it("names the file the shell refused, in the host's words without Electron's prefix, and stops there", async () => {
    const asked: string[] = [];
    const shell: ShellHooks = {
      registerDroppedFile: async (f) => {
        asked.push(f.name);
        if (f.name === "folder")
          throw new Error(
            `Error invoking remote method 'svc:register-drop': Error: "path": /Users/ann/folder is not a file`,
          );
        return { handle: "h" };
      },
    };
    await expect(giveFiles(shell, [file("folder"), file("b.txt")])).rejects.toThrow(
      /^folder: "path": \/Users\/ann\/folder is not a file$/,
    );
    expect(asked).toEqual(["folder"]);
  });

  it("says that a browser gives no files", async () => {
    await expect(giveFiles({}, [file("a.txt")])).rejects.toThrow(
      "files can be dropped in the svc app only: a browser gives the page no file paths",
    );
  });
});
