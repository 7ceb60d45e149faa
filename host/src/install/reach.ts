/**
 * Everything an extension can reach, item by item, in plain words, with the risky ones marked
 * and the reason said. Used for the install summary and for what an update gains.
 */
import type { Manifest } from "@svc/api";

/** One thing the extension can do. `key` identifies it across versions (to find what an update gains). */
export interface ReachItem {
  key: string;
  text: string;
  /** Why this deserves a second look; absent when it does not. */
  risk?: string;
}

/** Programs that run whatever they are told: with one of these, `exec` can do anything you can. */
const COMMAND_RUNNERS = new Set([
  "sh", "bash", "zsh", "fish", "dash", "ksh", "csh", "tcsh", "ash", "busybox",
  "python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "tclsh",
  "osascript", "powershell", "pwsh", "cmd", "cscript", "wscript", "env", "sudo", "su", "doas", "xargs", "open", "xdg-open",
]);

/** Folders that hold keys, passwords and other programs' settings. */
const SENSITIVE_IN_HOME = [".ssh", ".gnupg", ".aws", ".kube", ".docker", ".config", ".netrc", "Library", ".local/share/keyrings"];

function programName(entry: string): string {
  const base = entry.split(/[\\/]/).pop() ?? entry;
  // python3.12 → python3, node.exe → node
  return base.toLowerCase().replace(/\.exe$/, "").replace(/(\d)\.\d+$/, "$1");
}

/** Why a file entry is risky, if it is. */
function fileRisk(path: string): string | undefined {
  const clean = path.replace(/\/+$/, "") || "/";
  if (clean === "/") return "the whole disk";
  if (clean === "~" || clean === "$HOME") return "your whole home folder";
  if (/^\/(home|Users)$/.test(clean)) return "every person's home folder";
  if (/^\/(home|Users)\/[^/]+$/.test(clean)) return "a whole home folder";
  if (/^\/(etc|var|usr|bin|sbin|System|private)(\/|$)/.test(clean)) return "system files";
  const inHome = clean.startsWith("~/") ? clean.slice(2) : undefined;
  if (inHome !== undefined && SENSITIVE_IN_HOME.some((s) => inHome === s || inHome.startsWith(`${s}/`))) return "a folder that holds keys, passwords or settings";
  return undefined;
}

/**
 * @example
 * reachOf(manifest)
 * // [{ key: "network:api.github.com", text: "connect to api.github.com" },
 * //  { key: "exec:bash", text: "run the program bash", risk: "it runs any command it is given" }, …]
 */
export function reachOf(manifest: Manifest): ReachItem[] {
  const svc = manifest.svc;
  const items: ReachItem[] = [];
  for (const host of svc.permissions.network) {
    items.push(
      host.startsWith("*.")
        ? { key: `network:${host}`, text: `connect to any address ending in ${host.slice(1)}`, risk: "a wildcard covers every server under that name" }
        : { key: `network:${host}`, text: `connect to ${host}` },
    );
  }
  for (const path of svc.permissions.files) {
    const risk = fileRisk(path);
    items.push({ key: `files:${path}`, text: `read files in ${path}`, ...(risk ? { risk } : {}) });
  }
  for (const program of svc.permissions.exec) {
    const runsAnything = COMMAND_RUNNERS.has(programName(program));
    items.push({ key: `exec:${program}`, text: `run the program ${program}`, ...(runsAnything ? { risk: "it runs any command it is given" } : {}) });
  }
  for (const [name, provider] of Object.entries(svc.oauth)) {
    const host = URL.canParse(provider.authorizeUrl) ? new URL(provider.authorizeUrl).host : provider.authorizeUrl;
    const scopes = provider.scopes?.length ? ` (asking for: ${provider.scopes.join(", ")})` : "";
    items.push({ key: `oauth:${name}`, text: `ask you to sign in to ${provider.title ?? name} at ${host}${scopes}` });
  }
  if (svc.triggers.webhook) items.push({ key: "webhook", text: `receive what is sent to svc's local address POST /v1/hooks/${svc.id}` });
  for (const path of svc.triggers.watch) items.push({ key: `watch:${path}`, text: `watch ${path} for changes` });
  for (const preference of svc.preferences) {
    if (preference.type === "password") items.push({ key: `password:${preference.name}`, text: `keep a secret you enter ("${preference.title}") in your keychain` });
  }
  return items;
}

/**
 * What `next` can reach that `previous` could not.
 *
 * @example
 * gainedReach(v1, v2).map((i) => i.text) // ["connect to uploads.example.com"]
 */
export function gainedReach(previous: Manifest, next: Manifest): ReachItem[] {
  const had = new Set(reachOf(previous).map((item) => item.key));
  return reachOf(next).filter((item) => !had.has(item.key));
}
