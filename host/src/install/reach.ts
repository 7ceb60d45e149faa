/**
 * Everything an extension can reach, item by item, in plain words, with the risky ones marked
 * and the reason said. Used for the install summary and for what an update gains.
 */
import { programName, runsOtherPrograms, type Manifest } from "@svc/api";
import { classifyAddress } from "@svc/runtime";
import { isIP } from "node:net";

/** One thing the extension can do. `key` identifies it across versions (to find what an update gains). */
export interface ReachItem {
  key: string;
  text: string;
  /** Why this deserves a second look; absent when it does not. */
  risk?: string;
}

/** Programs that connect anywhere on their own, outside svc's network list. */
const NETWORK_PROGRAMS = new Set([
  "curl",
  "wget",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "scp",
  "sftp",
  "ftp",
  "telnet",
  "aria2c",
  "httpie",
  "http",
]);

/** Folders that hold keys, passwords and other programs' settings. */
const SENSITIVE_IN_HOME = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".kube",
  ".docker",
  ".config",
  ".netrc",
  "Library",
  ".local/share/keyrings",
];

/** Why a file entry is risky, if it is. */
function fileRisk(path: string): string | undefined {
  const clean = path.replace(/\/+$/, "") || "/";
  if (clean === "/") return "the whole disk";
  if (clean === "~" || clean === "$HOME") return "your whole home folder";
  if (/^\/(home|Users)$/.test(clean)) return "every person's home folder";
  if (/^\/(home|Users)\/[^/]+$/.test(clean)) return "a whole home folder";
  if (/^\/(etc|var|usr|bin|sbin|System|private)(\/|$)/.test(clean)) return "system files";
  const inHome = clean.startsWith("~/") ? clean.slice(2) : undefined;
  if (inHome !== undefined && SENSITIVE_IN_HOME.some((s) => inHome === s || inHome.startsWith(`${s}/`)))
    return "a folder that holds keys, passwords or settings";
  return undefined;
}

/** Why a network entry is risky: it names this computer, the local network or the metadata service. */
function hostRisk(entry: string): string | undefined {
  const host = entry
    .replace(/^\[(.*)\](?::\d+)?$/, "$1")
    .replace(/^([^:]*):\d+$/, "$1")
    .toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return "programs on your own computer (loopback)";
  if (isIP(host) === 0) return undefined;
  switch (classifyAddress(host)) {
    case "public":
      return undefined;
    case "loopback":
      return "programs on your own computer (loopback)";
    case "cloud metadata":
      return "the cloud metadata service, which hands out this machine's credentials";
    case "private":
      return "a private address on your local network";
    default:
      return "a local or reserved address, not the internet";
  }
}

/** Why a program is risky, if it is. */
function programRisk(program: string, runAnyCommand: boolean): string | undefined {
  const name = programName(program);
  if (runsOtherPrograms(program)) {
    return runAnyCommand
      ? "it runs other programs: the extension can run any command"
      : "it runs other programs, so svc refuses it (the package does not ask to run any command)";
  }
  if (name === "git")
    return "it can run other programs through its settings; svc lets it run only a few safe subcommands";
  if (NETWORK_PROGRAMS.has(name)) return "it connects anywhere on its own, outside the network list";
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
  const risk = (why: string | undefined) => (why ? { risk: why } : {});
  for (const host of svc.permissions.network) {
    items.push(
      host.startsWith("*.")
        ? {
            key: `network:${host}`,
            text: `connect to any address ending in ${host.slice(1)}`,
            risk: "a wildcard covers every server under that name",
          }
        : { key: `network:${host}`, text: `connect to ${host}`, ...risk(hostRisk(host)) },
    );
  }
  for (const path of svc.permissions.files) {
    items.push({ key: `files:${path}`, text: `read files in ${path}`, ...risk(fileRisk(path)) });
  }
  if (svc.permissions.runAnyCommand) {
    items.push({
      key: "exec:*",
      text: "run any command",
      risk: "it asks for programs that run other programs (runAnyCommand)",
    });
  }
  for (const program of svc.permissions.exec) {
    items.push({
      key: `exec:${program}`,
      text: `run the program ${program}`,
      ...risk(programRisk(program, svc.permissions.runAnyCommand)),
    });
  }
  for (const [name, provider] of Object.entries(svc.oauth)) {
    const host = URL.canParse(provider.authorizeUrl) ? new URL(provider.authorizeUrl).host : provider.authorizeUrl;
    const scopes = provider.scopes?.length ? ` (asking for: ${provider.scopes.join(", ")})` : "";
    items.push({ key: `oauth:${name}`, text: `ask you to sign in to ${provider.title ?? name} at ${host}${scopes}` });
  }
  if (svc.triggers.webhook)
    items.push({ key: "webhook", text: `receive what is sent to svc's local address POST /v1/hooks/${svc.id}` });
  for (const path of svc.triggers.watch)
    items.push({ key: `watch:${path}`, text: `watch ${path} for changes`, ...risk(fileRisk(path)) });
  for (const preference of svc.preferences) {
    if (preference.type === "password")
      items.push({
        key: `password:${preference.name}`,
        text: `keep a secret you enter ("${preference.title}") in your keychain`,
      });
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
