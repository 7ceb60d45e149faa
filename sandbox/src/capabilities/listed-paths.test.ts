/** How a listed path resolves (what the file fence enforces and the review shows), and what kind of place it is. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classifyPath, holdsSupportFolder, refusedPath, resolveListedPath, type PathPlaces } from "./listed-paths.js";

let root: string;
let home: string;
let places: PathPlaces;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "svc-listed-")));
  home = join(root, "home", "ann");
  for (const dir of [".ssh", ".aws", "Documents", "Projects", ".local/share/Svc/Data/com.example.me"]) {
    mkdirSync(join(home, dir), { recursive: true });
  }
  writeFileSync(join(home, ".local/share/Svc/webhook.json"), "{}");
  places = {
    home,
    supportDir: join(home, ".local/share/Svc"),
    dataDir: join(home, ".local/share/Svc/Data/com.example.me"),
  };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const resolved = (entry: string) => resolveListedPath(entry, home);

describe("resolveListedPath", () => {
  it("takes `..`, `//` and a trailing slash away before anything is judged", () => {
    expect(resolved("~/Documents/../.ssh")).toEqual({
      written: "~/Documents/../.ssh",
      path: join(home, ".ssh"),
      exists: true,
    });
    expect(resolved("~//.aws")).toEqual({ written: "~//.aws", path: join(home, ".aws"), exists: true });
    expect(resolved("~/Projects/../")).toEqual({ written: "~/Projects/../", path: home, exists: true });
    expect(resolved("~")).toEqual({ written: "~", path: home, exists: true });
  });

  it("follows symlinks to where reads would really go", () => {
    symlinkSync(join(home, ".ssh"), join(home, "Projects", "keys"));
    expect(resolved("~/Projects/keys").path).toBe(join(home, ".ssh"));
    // Not made yet: judged where it will be made (the symlinked folder's target).
    expect(resolved("~/Projects/keys/new/id_rsa")).toEqual({
      written: "~/Projects/keys/new/id_rsa",
      path: join(home, ".ssh", "new", "id_rsa"),
      exists: false,
    });
  });

  it("allows nothing for what is not an absolute or ~/ path", () => {
    for (const entry of ["notes", "$HOME", "~ann/.ssh", "./x", "a\0b"]) {
      expect(resolved(entry)).toEqual({ written: entry, path: undefined, exists: false });
    }
  });
});

describe("classifyPath", () => {
  const kind = (entry: string) => classifyPath(resolved(entry).path!, places);

  it.each([
    ["~/Documents/../.ssh", { kind: "keys", contains: false }],
    ["~//.aws", { kind: "keys", contains: false }],
    ["~/.ssh/config", { kind: "keys", contains: false }],
    ["~/.local", { kind: "keys", contains: true }],
    ["~/Projects/../", { kind: "home", contains: false }],
    ["~", { kind: "home", contains: false }],
    ["~/.local/share/Svc", { kind: "svc", contains: false }],
    ["~/.local/share/Svc/webhook.json", { kind: "svc", contains: false }],
    ["~/.local/share/Svc/Data/com.example.other", { kind: "svc", contains: false }],
    ["~/.local/share/Svc/Data", { kind: "svc", contains: false }],
    ["~/.bash_history", { kind: "history", contains: false }],
    ["~/.zsh_history", { kind: "history", contains: false }],
    ["~/.local/share/fish/fish_history", { kind: "history", contains: false }],
    ["~/.python_history", { kind: "history", contains: false }],
    ["~/.node_repl_history", { kind: "history", contains: false }],
    ["~/work/.psql_history", { kind: "history", contains: false }],
    ["/proc", { kind: "system live", contains: false }],
    ["/proc/self/environ", { kind: "system live", contains: false }],
    ["/sys", { kind: "system live", contains: false }],
    ["/dev", { kind: "system live", contains: false }],
    ["/etc/hosts", { kind: "system", contains: false }],
    ["/", { kind: "whole disk", contains: false }],
    ["/home", { kind: "every home", contains: false }],
    ["/home/bob/.ssh", { kind: "other home", contains: false }],
    ["/Users/bob", { kind: "other home", contains: false }],
    ["/root/.ssh", { kind: "other home", contains: false }],
  ])("%s is %o", (entry, expected) => expect(kind(entry)).toEqual(expected));

  it("finds other homes beside the person's own, wherever homes are kept", () => {
    mkdirSync(join(root, "home", "bob"));
    expect(classifyPath(join(root, "home", "bob"), places)).toEqual({ kind: "other home", contains: false });
    expect(classifyPath(join(root, "home"), places)).toEqual({ kind: "every home", contains: false });
    expect(classifyPath(root, places)).toEqual({ kind: "every home", contains: true });
  });

  it("leaves ordinary folders and the extension's own data folder unmarked", () => {
    expect(kind("~/Projects")).toBeUndefined();
    expect(kind("~/Documents/notes.md")).toBeUndefined();
    expect(kind("~/.local/share/Svc/Data/com.example.me")).toBeUndefined();
    expect(kind("/tmp/x")).toBeUndefined();
  });

  it("says when a folder holds svc's own folder, which stays refused inside it", () => {
    expect(holdsSupportFolder(join(home, ".local"), places)).toBe(true);
    expect(holdsSupportFolder(home, places)).toBe(true);
    expect(holdsSupportFolder(places.supportDir!, places)).toBe(false);
    expect(holdsSupportFolder(join(home, "Projects"), places)).toBe(false);
    expect(classifyPath(join(home, ".local", "share", "other"), places)).toBeUndefined();
  });
});

describe("refusedPath", () => {
  it("refuses svc's folder and everything in it but the extension's own data folder", () => {
    expect(refusedPath(places.supportDir!, places)).toBe(true);
    expect(refusedPath(join(places.supportDir!, "webhook.json"), places)).toBe(true);
    expect(refusedPath(join(places.supportDir!, "Extensions", "com.example.me", "package.json"), places)).toBe(true);
    expect(refusedPath(places.dataDir!, places)).toBe(false);
    expect(refusedPath(join(places.dataDir!, "notes.txt"), places)).toBe(false);
    expect(refusedPath(`${places.dataDir!}-evil/x`, places)).toBe(true);
    expect(refusedPath(join(home, ".local"), places)).toBe(false);
    expect(refusedPath(join(places.supportDir!, "x"), { dataDir: places.dataDir })).toBe(false);
  });
});
