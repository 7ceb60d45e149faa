import { describe, expect, it } from "vitest";
import { runManageCommand } from "./command.js";
import type { ManageIo } from "./terminal.js";
import type { ExtensionInfo, ExtensionManager } from "../manage/index.js";

/** A stranger's folder name and error text, as a broken extension would bring them. */
const SHOWN: ExtensionInfo = {
  id: "invoice\u202Eexe.pdf",
  origin: "user",
  folder: "/s/Extensions/invoice\u202Eexe.pdf",
  enabled: true,
  status: "broken",
  tools: [],
  error: "package.json: \u001b]0;pwned\u0007 is not JSON",
  options: [],
};

function io(): ManageIo & { text: () => string } {
  let text = "";
  return {
    out: (t) => void (text += t),
    err: (t) => void (text += t),
    isTTY: false,
    ask: async () => "",
    askHidden: async () => "",
    text: () => text,
  };
}

const listing = { list: async () => [SHOWN] } as unknown as ExtensionManager;

describe("svc-host list output", () => {
  it("makes a stranger's text inert in the table", async () => {
    const terminal = io();
    expect(await runManageCommand("list", [], { io: terminal, open: async () => ({ manager: listing }) })).toBe(0);
    expect(terminal.text()).toContain("invoice\\u{202e}exe.pdf");
    expect(terminal.text()).toContain("package.json: \\u{1b}]0;pwned\\u{7} is not JSON");
    expect(terminal.text()).not.toMatch(/[\u001b\u0007\u202e]/);
  });

  it("keeps the values in --json, with bidi controls as \\u escapes", async () => {
    const terminal = io();
    await runManageCommand("list", ["--json"], { io: terminal, open: async () => ({ manager: listing }) });
    expect(terminal.text()).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(JSON.parse(terminal.text())).toEqual([SHOWN]);
  });
});
