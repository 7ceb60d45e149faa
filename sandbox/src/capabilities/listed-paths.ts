/**
 * A `permissions.files` (or `triggers.watch`) entry as the file fence reads it, and what kind of
 * place it is. The fence (file-policy.ts) and the install review (svc-host's reach.ts) both call
 * `resolveListedPath`, so the path a person is shown is the path that is enforced, and
 * `classifyPath` is the one judgement of which places deserve a second look.
 */
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";

/** Expands a leading `~` the way the manifest allows it (`~` and `~/…`; never `~user`). */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

/** True when `path` is `root` or below it. Both are absolute, normalised paths. */
export function isInside(path: string, root: string): boolean {
  if (root === sep) return true;
  return path === root || path.startsWith(root + sep);
}

/** One manifest entry, resolved. */
export interface ListedPath {
  /** The entry as the manifest wrote it. */
  written: string;
  /**
   * The absolute path reads are allowed under: `~` expanded, `//` and `..` taken away, then every
   * symlink resolved (for a path that does not exist yet, those of its nearest existing folder).
   * Undefined when the entry is not an absolute or `~/` path (`notes`, `$HOME`, `~ann`): it
   * allows nothing.
   */
  path: string | undefined;
  /** False while it does not exist: it allows nothing until it is made (then at its real path). */
  exists: boolean;
}

/**
 * Resolves one entry. Synchronous, so the review (built while a page is drawn) calls exactly what
 * the fence calls at every read; it costs one `realpath` for an entry that exists.
 * @example resolveListedPath("~/Documents/../.ssh", "/home/ann") // { path: "/home/ann/.ssh", exists: true, … }
 */
export function resolveListedPath(entry: string, home: string = homedir()): ListedPath {
  const expanded = expandHome(entry, home);
  if (!isAbsolute(expanded) || expanded.includes("\0")) return { written: entry, path: undefined, exists: false };
  const plain = resolve(expanded);
  const missing: string[] = [];
  for (let current = plain; ; current = dirname(current)) {
    try {
      const real = realpathSync.native(current);
      return { written: entry, path: join(real, ...missing.reverse()), exists: missing.length === 0 };
    } catch {
      if (dirname(current) === current) return { written: entry, path: plain, exists: false };
      missing.push(basename(current));
    }
  }
}

/**
 * Kinds of place a person should look at twice before an extension may read there. `svc` is
 * svc's own support folder: the fence refuses it whatever the manifest lists.
 */
export type PathKind =
  "svc" | "whole disk" | "every home" | "home" | "other home" | "system live" | "system" | "keys" | "history";

/** Where the person's own places are (real paths). */
export interface PathPlaces {
  home: string;
  /** svc's support folder; absent where there is none (svckit's one-shot runs). */
  supportDir?: string;
  /** The extension's own `Data/<id>/`, the one place inside the support folder it may read. */
  dataDir?: string;
}

/** Folders in the home that hold keys, passwords, tokens or other programs' settings. */
const KEY_PLACES = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".kube",
  ".docker",
  ".config",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".password-store",
  ".pki",
  ".mozilla",
  ".vault-token",
  "Library",
  ".local/share/keyrings",
];

/** Shell and program histories (they keep the passwords and tokens people type). */
const HISTORY_PLACES = [
  ".bash_history",
  ".zsh_history",
  ".zhistory",
  ".histfile",
  ".sh_history",
  ".ksh_history",
  ".local/share/fish/fish_history",
  ".python_history",
  ".node_repl_history",
  ".ts_node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".irb_history",
  ".pry_history",
  ".rediscli_history",
  ".lesshst",
  ".local/share/nvim/shada",
  ".viminfo",
];

/** Any other history file by its name: `*_history`, `*.history`. */
const HISTORY_NAME = /(?:_|\.)history$/;

/** Folders of the running system itself: live process, kernel and device files. */
const SYSTEM_LIVE = ["/proc", "/sys", "/dev"];

/** Folders of the installed system. */
const SYSTEM = ["/etc", "/var", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/System", "/private", "/Library"];

/** What `classifyPath` found. */
export interface PathClass {
  kind: PathKind;
  /** True when the entry holds such a place (`~/.local` holds the keyrings) rather than being one. */
  contains: boolean;
}

/**
 * The first kind, in the order above, the resolved `path` is or holds. svc's support folder comes
 * first when `path` is it or inside it (the extension's own data folder excepted: that is no
 * kind at all); it is reported as held only when nothing else is (`holdsSupportFolder` says it
 * always).
 * @example classifyPath("/home/ann/.ssh", { home: "/home/ann" })  // { kind: "keys", contains: false }
 * @example classifyPath("/home/ann/.local", { home: "/home/ann" }) // { kind: "keys", contains: true }
 */
export function classifyPath(path: string, places: PathPlaces): PathClass | undefined {
  const { home } = places;
  if (refusedPath(path, places)) return { kind: "svc", contains: false };
  if (path === sep) return { kind: "whole disk", contains: false };
  const homes = dirname(home);
  if (path === homes || ["/home", "/Users"].includes(path)) return { kind: "every home", contains: false };
  if (isInside(home, path) && path !== home) return { kind: "every home", contains: true };
  if (path === home) return { kind: "home", contains: false };
  const otherHome = (root: string) => isInside(path, root) && !isInside(path, home) && path !== root;
  if (!isInside(path, home) && (["/home", "/Users", homes].some(otherHome) || isInside(path, "/root")))
    return { kind: "other home", contains: false };
  const systemHit = (roots: string[]) => roots.find((root) => isInside(path, root) || isInside(root, path));
  const live = systemHit(SYSTEM_LIVE);
  if (live) return { kind: "system live", contains: !isInside(path, live) };
  const system = systemHit(SYSTEM);
  if (system) return { kind: "system", contains: !isInside(path, system) };
  for (const [kind, names] of [
    ["keys", KEY_PLACES],
    ["history", HISTORY_PLACES],
  ] as const) {
    const hit = names.map((name) => join(home, name)).find((place) => isInside(path, place) || isInside(place, path));
    if (hit) return { kind, contains: !isInside(path, hit) };
  }
  if (HISTORY_NAME.test(basename(path))) return { kind: "history", contains: false };
  if (holdsSupportFolder(path, places)) return { kind: "svc", contains: true };
  return undefined;
}

/**
 * True when `path` (real) is svc's support folder or inside it, and not inside the extension's
 * own data folder: the file fence refuses it whatever `permissions.files` lists.
 */
export function refusedPath(path: string, places: Omit<PathPlaces, "home">): boolean {
  const { supportDir, dataDir } = places;
  if (!supportDir || !isInside(path, supportDir)) return false;
  return !(dataDir && isInside(path, dataDir));
}

/** True when `path` holds svc's support folder (`~`, `~/.local`): reads there stay refused inside it. */
export function holdsSupportFolder(path: string, places: Omit<PathPlaces, "home">): boolean {
  return places.supportDir !== undefined && isInside(places.supportDir, path) && path !== places.supportDir;
}
