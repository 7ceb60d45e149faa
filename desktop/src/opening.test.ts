import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENABLE_EXTENSIONS, openFile, openPage } from "./opening.js";

function recordingShell() {
  const opened: string[] = [];
  const shown: string[] = [];
  return {
    opened,
    shown,
    openExternal: async (url: string) => void opened.push(url),
    openPath: async (path: string) => (opened.push(path), ""),
    showItemInFolder: (path: string) => void shown.push(path),
  };
}

const KINDS = [...OPENABLE_EXTENSIONS].join(" ");

describe("pages", () => {
  it("opens http and https in the system browser, nothing else", async () => {
    const shell = recordingShell();
    expect(await openPage(shell, "https://ci.example.com/run/42")).toEqual({ ok: true });
    expect(await openPage(shell, "http://127.0.0.1:8080/")).toEqual({ ok: true });
    expect(await openPage(shell, "file:///etc/passwd")).toEqual({
      ok: false,
      error: "only http and https pages are opened, not file:",
    });
    expect(await openPage(shell, "javascript:alert(1)")).toEqual({
      ok: false,
      error: "only http and https pages are opened, not javascript:",
    });
    expect(await openPage(shell, "smb://server/share")).toEqual({
      ok: false,
      error: "only http and https pages are opened, not smb:",
    });
    expect(await openPage(shell, "/relative")).toEqual({ ok: false, error: '"/relative" is not an absolute address' });
    expect(await openPage(shell, 42)).toEqual({ ok: false, error: "an address should be text" });
    expect(shell.opened).toEqual(["https://ci.example.com/run/42", "http://127.0.0.1:8080/"]);
  });

  it("says so when the system cannot open it", async () => {
    const shell = { openExternal: async () => Promise.reject(new Error("no browser")) };
    expect(await openPage(shell, "https://example.com/")).toEqual({
      ok: false,
      error: "could not open https://example.com/: no browser",
    });
  });
});

describe("files from result blocks", () => {
  let root: string;
  let data: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "svc-desktop-open-"));
    data = join(root, "Svc", "Data");
    await mkdir(join(data, "com.example.png"), { recursive: true });
    await writeFile(join(data, "com.example.png", "out.png"), "png");
    await writeFile(join(root, "secret.txt"), "elsewhere");
    await symlink(join(root, "secret.txt"), join(data, "com.example.png", "link.txt"));
    await mkdir(join(root, "Svc", "Data-evil"));
    await writeFile(join(root, "Svc", "Data-evil", "x.txt"), "prefix trick");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));
  const places = () => ({ folders: [data], files: new Set<string>() });

  it("opens a file inside an extension's data folder", async () => {
    const shell = recordingShell();
    expect(await openFile(shell, join(data, "com.example.png", "out.png"), places())).toEqual({ ok: true });
    expect(shell.opened).toEqual([join(data, "com.example.png", "out.png")]);
  });

  it("refuses anything outside, through a symlink or a look-alike folder name", async () => {
    const shell = recordingShell();
    const outside = `${join(root, "secret.txt")} is not in an extension's data folder or among the files you gave, so it is not opened`;
    expect(await openFile(shell, join(root, "secret.txt"), places())).toEqual({ ok: false, error: outside });
    expect((await openFile(shell, join(data, "com.example.png", "link.txt"), places())).ok).toBe(false);
    expect((await openFile(shell, join(data, "..", "secret.txt"), places())).ok).toBe(false);
    expect((await openFile(shell, join(root, "Svc", "Data-evil", "x.txt"), places())).ok).toBe(false);
    expect(shell.opened).toEqual([]);
  });

  it("opens a file the person gave, wherever it is", async () => {
    const shell = recordingShell();
    expect(
      await openFile(shell, join(root, "secret.txt"), { folders: [data], files: new Set([join(root, "secret.txt")]) }),
    ).toEqual({ ok: true });
  });

  it("opens only inert documents and pictures; anything else (.pyw .chm .msc .jnlp .html .svg .iso …) is shown in its folder", async () => {
    const shell = recordingShell();
    const folder = join(data, "com.example.png");
    for (const name of ["notes.txt", "chart.png", "Photo.JPG"]) {
      await writeFile(join(folder, name), "inert");
      expect(await openFile(shell, join(folder, name), places())).toEqual({ ok: true });
    }
    expect(shell.opened).toEqual(["notes.txt", "chart.png", "Photo.JPG"].map((name) => join(folder, name)));
    const refused = [
      ["run.pyw", ".pyw"],
      ["help.chm", ".chm"],
      ["console.msc", ".msc"],
      ["app.jnlp", ".jnlp"],
      ["page.html", ".html"],
      ["logo.svg", ".svg"],
      ["disk.iso", ".iso"],
      ["run.sh", ".sh"],
      ["Open Me.command", ".command"],
      ["archive.zip", ".zip"],
      ["README", "a file without an extension"],
    ];
    for (const [name, kind] of refused) {
      const path = join(folder, name);
      await writeFile(path, "not inert");
      expect(await openFile(shell, path, places())).toEqual({
        ok: false,
        error: `${path} is not opened: svc opens only documents, pictures and sound (${KINDS}), not ${kind}. It is shown in its folder instead.`,
      });
    }
    expect(shell.opened).toHaveLength(3);
    expect(shell.shown).toEqual(refused.map(([name]) => join(folder, name)));
  });

  it("never opens a file marked as a program, whatever its name says", async () => {
    const shell = recordingShell();
    const path = join(data, "com.example.png", "looks-like.txt");
    await writeFile(path, "#!/bin/sh\n");
    await chmod(path, 0o755);
    expect(await openFile(shell, path, places())).toEqual({
      ok: false,
      error: `${path} is not opened: it is marked as a program, and opening it could run it. It is shown in its folder instead.`,
    });
    expect(shell.opened).toEqual([]);
    expect(shell.shown).toEqual([path]);
  });

  it("shows a folder, never opens it", async () => {
    const shell = recordingShell();
    const path = join(data, "com.example.png", "out.d.png");
    await mkdir(path, { recursive: true });
    expect(await openFile(shell, path, places())).toEqual({
      ok: false,
      error: `${path} is not opened: it is not a file. It is shown in its folder instead.`,
    });
    expect(shell.opened).toEqual([]);
  });

  it("refuses relative and missing paths with what was wrong", async () => {
    const shell = recordingShell();
    expect(await openFile(shell, "out.png", places())).toEqual({
      ok: false,
      error: "a file to open should be an absolute path",
    });
    expect(await openFile(shell, join(data, "nope.png"), places())).toEqual({
      ok: false,
      error: `${join(data, "nope.png")} does not exist`,
    });
    const failing = { openPath: async () => "No application knows how to open it", showItemInFolder: () => {} };
    expect(await openFile(failing, join(data, "com.example.png", "out.png"), places())).toEqual({
      ok: false,
      error: `could not open ${join(data, "com.example.png", "out.png")}: No application knows how to open it`,
    });
  });
});
