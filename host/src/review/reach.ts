/**
 * Everything an extension can reach, item by item, in plain words, with the risky ones marked
 * and the reason said. Used for the install summary, Settings and what an update gains.
 *
 * The review is the fence: each entry is read by the function the fence enforces it with
 * (`canonicalNetworkEntry`, `resolveListedPath`, `needsRunAnyCommand`), and what is shown and
 * judged is that canonical value — `2130706433:47811` is shown as `127.0.0.1:47811` and marked,
 * `~/Documents/../.ssh` as `~/.ssh` — with what the manifest wrote beside it when it differs.
 */
import { needsRunAnyCommand, programName, type Manifest, type OAuthProvider } from "@svc/api";
import {
  canonicalNetworkEntry,
  classifyPath,
  holdsSupportFolder,
  networkEntryClass,
  networkEntryText,
  canonicalOrigin,
  originText,
  resolveListedPath,
  type AddressClass,
  type PathClass,
  type PathPlaces,
} from "@svc/runtime";
import { homedir } from "node:os";
import { join, sep } from "node:path";

/** One thing the extension can do. `key` identifies it across versions (to find what an update gains). */
export interface ReachItem {
  key: string;
  text: string;
  /** Why this deserves a second look; absent when it does not. */
  risk?: string;
}

/** Where the person's places are, to judge file entries as the fence will. */
export interface ReachPlaces {
  /** svc's support folder: reads there are refused, but for the extension's own `Data/<id>/`. */
  supportDir: string;
  /** The person's home folder; default the current one. */
  home?: string;
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

/** The mark for each kind of place (listed-paths.ts in the sandbox decides the kind). */
const PLACE_RISKS: Record<PathClass["kind"], [itIs: string, itHolds: string]> = {
  // Held, it is no risk: the fence refuses it inside a listed folder too (the text says so).
  svc: [
    "refused: it is svc's own folder (its token, its settings, every extension's files), which no extension may read",
    "",
  ],
  "whole disk": ["the whole disk", "the whole disk"],
  "every home": ["every person's home folder", "it holds every person's home folder"],
  home: ["your whole home folder", "your whole home folder"],
  "other home": ["another person's home folder", "another person's home folder"],
  "system live": [
    "the running system's process, kernel and device files",
    "it holds the running system's process, kernel and device files",
  ],
  system: ["system files", "it holds system files"],
  keys: ["a folder that holds keys, passwords or settings", "it holds folders with keys, passwords or settings"],
  history: [
    "your shell and program histories, which keep the passwords and tokens you typed",
    "it holds your shell and program histories, which keep the passwords and tokens you typed",
  ],
};

/** The mark for each kind of address an entry reaches (address-guard.ts in the sandbox decides it). */
const ADDRESS_RISKS: Record<AddressClass, string | undefined> = {
  public: undefined,
  loopback: "programs on your own computer (loopback)",
  unspecified: "programs on your own computer (0.0.0.0 reaches them)",
  "cloud metadata": "the cloud metadata service, which hands out this machine's credentials",
  private: "a private address on your local network",
  "link-local": "a local or reserved address, not the internet",
  multicast: "a local or reserved address, not the internet",
  reserved: "a local or reserved address, not the internet",
};

/** What the person is asked before a `url` option's server is granted, judged as the fence will. */
export interface GrantQuestion {
  /** The origin the fence will admit, canonical (`https://calendar.google.com`). */
  origin: string;
  /** `Let Calendar connect to calendar.google.com?` */
  question: string;
  /** The same mark the install review gives that address (a private or loopback address…). */
  risk?: string;
}

/**
 * The question for letting extension `title` reach `address`, or undefined when `address` is not
 * an http or https address. The origin is read by the fence's own `canonicalOrigin`.
 * @example grantQuestion("Home", "http://192.168.1.20:8123/api")
 * // { origin: "http://192.168.1.20:8123", question: "Let Home connect to 192.168.1.20:8123 (http, not encrypted)?", risk: "a private address on your local network" }
 */
export function grantQuestion(title: string, address: string): GrantQuestion | undefined {
  const origin = canonicalOrigin(address);
  if (!origin) return undefined;
  const text = originText(origin);
  const host = text.slice(origin.scheme.length + 2);
  const plain = origin.scheme === "http:" ? " (http, not encrypted)" : "";
  const risk = ADDRESS_RISKS[networkEntryClass({ kind: "exact", host: origin.host })];
  return { origin: text, question: `Let ${title} connect to ${host}${plain}?`, ...(risk ? { risk } : {}) };
}

/** ` (written "…")` when the manifest spelt the entry otherwise than it is shown. */
function written(shown: string, raw: string): string {
  return shown.toLowerCase() === raw.trim().toLowerCase() ? "" : ` (written "${raw}")`;
}

function networkItem(raw: string): ReachItem {
  const entry = canonicalNetworkEntry(raw);
  if (!entry)
    return { key: `network:?${raw}`, text: `connect nowhere through "${raw}": it is not a host svc can read` };
  const shown = networkEntryText(entry);
  const key = `network:${shown}`;
  if (entry.kind === "wildcard") {
    const port = entry.port === undefined ? "" : ` on port ${entry.port}`;
    return {
      key,
      text: `connect to any address ending in ${entry.suffix}${port}${written(shown, raw)}`,
      risk: "a wildcard covers every server under that name",
    };
  }
  const risk = ADDRESS_RISKS[networkEntryClass(entry)];
  return { key, text: `connect to ${shown}${written(shown, raw)}`, ...(risk ? { risk } : {}) };
}

/** The real paths of the places a file entry is judged against. */
function placesOf(id: string, where: ReachPlaces): PathPlaces {
  const real = (path: string) => resolveListedPath(path).path ?? path;
  const supportDir = real(where.supportDir);
  return { home: real(where.home ?? homedir()), supportDir, dataDir: real(join(where.supportDir, "Data", id)) };
}

/** A resolved path as a person reads it: the home folder as `~`. */
function tilde(path: string, home: string): string {
  if (path === home) return "~";
  return path.startsWith(home + sep) ? `~/${path.slice(home.length + 1)}` : path;
}

/** One `permissions.files` (`read`) or `triggers.watch` (`watch`) entry, as the fence resolves it. */
function fileItem(kind: "files" | "watch", raw: string, places: PathPlaces): ReachItem {
  const listed = resolveListedPath(raw, places.home);
  if (listed.path === undefined) {
    return {
      key: `${kind}:?${raw}`,
      text: `${kind === "files" ? "read" : "watch"} nothing through "${raw}": only absolute paths and ~/… are read`,
    };
  }
  const shown = tilde(listed.path, places.home);
  const place = classifyPath(listed.path, places);
  const risk = place ? PLACE_RISKS[place.kind][place.contains ? 1 : 0] : "";
  const except = holdsSupportFolder(listed.path, places) ? " (but not svc's own folder in it)" : "";
  const what = `${shown}${written(shown, raw)}${except}`;
  return {
    key: `${kind}:${shown}`,
    text: kind === "files" ? `read files in ${what}` : `watch ${what} for changes`,
    ...(risk ? { risk } : {}),
  };
}

/** Why a program is risky, if it is. */
function programRisk(program: string, runAnyCommand: boolean): string | undefined {
  const name = programName(program);
  switch (needsRunAnyCommand(program)) {
    case "runs programs":
      return runAnyCommand
        ? "it runs other programs: the extension can run any command"
        : "it runs other programs, so svc refuses it (the package does not ask to run any command)";
    case "writes files":
      return runAnyCommand
        ? "it writes files anywhere (any package, svc's own files, ~/.bashrc): the extension can do whatever you can"
        : "it writes files anywhere (any package, svc's own files, ~/.bashrc), so svc refuses it (the package does not ask to run any command)";
  }
  if (name === "git")
    return "it can run other programs through its settings; svc lets it run only a few safe subcommands";
  if (NETWORK_PROGRAMS.has(name)) return "it connects anywhere on its own, outside the network list";
  return undefined;
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

function oauthItem(name: string, provider: OAuthProvider): ReachItem {
  const scopes = provider.scopes?.length ? ` (asking for: ${provider.scopes.join(", ")})` : "";
  return {
    key: `oauth:${name}`,
    // A device sign-in's page is named by the service when it starts; its code comes from here.
    text: `ask you to sign in to ${provider.title ?? name} at ${hostOf(provider.authorizeUrl ?? provider.deviceAuthorizationUrl ?? provider.tokenUrl)}${scopes}`,
  };
}

/**
 * @example
 * reachOf(manifest, { supportDir })
 * // [{ key: "network:127.0.0.1:47811", text: 'connect to 127.0.0.1:47811 (written "2130706433:47811")',
 * //    risk: "programs on your own computer (loopback)" }, …]
 */
export function reachOf(manifest: Manifest, where: ReachPlaces): ReachItem[] {
  const svc = manifest.svc;
  const items: ReachItem[] = [];
  const places = placesOf(svc.id, where);
  for (const host of svc.permissions.network) items.push(networkItem(host));
  for (const option of svc.preferences.filter((p) => p.type === "url"))
    items.push({
      key: `network-chosen:${option.name}`,
      text: `connect to a server you choose (its option "${option.title}"), once you allow that server`,
    });
  for (const path of svc.permissions.files) items.push(fileItem("files", path, places));
  if (svc.permissions.runAnyCommand) {
    items.push({
      key: "exec:*",
      text: "run any command",
      risk: "it asks for programs that run other programs or write files anywhere (runAnyCommand)",
    });
  }
  for (const program of svc.permissions.exec) {
    const risk = programRisk(program, svc.permissions.runAnyCommand);
    items.push({ key: `exec:${program}`, text: `run the program ${program}`, ...(risk ? { risk } : {}) });
  }
  for (const [name, provider] of Object.entries(svc.oauth)) items.push(oauthItem(name, provider));
  if (svc.triggers.webhook)
    items.push({ key: "webhook", text: `receive what is sent to svc's local address POST /v1/hooks/${svc.id}` });
  for (const path of svc.triggers.watch) items.push(fileItem("watch", path, places));
  for (const preference of svc.preferences) {
    if (preference.type === "password")
      items.push({
        key: `password:${preference.name}`,
        text: `keep a secret you enter ("${preference.title}") in your keychain`,
      });
  }
  return items;
}

/** The addresses and client id of a provider that decide where a sign-in and its tokens go. */
const OAUTH_PLACES = ["authorizeUrl", "deviceAuthorizationUrl", "tokenUrl", "revokeUrl", "clientId"] as const;

/** How a changed address or client id reads: what `title`'s sign-in does now. */
const OAUTH_CHANGE_TEXT: Record<(typeof OAUTH_PLACES)[number], (title: string) => string> = {
  authorizeUrl: (title) => `ask you to sign in to ${title} at another address:`,
  deviceAuthorizationUrl: (title) => `ask for your ${title} sign-in code at another address:`,
  tokenUrl: (title) => `send your ${title} sign-in and its tokens to another address:`,
  revokeUrl: (title) => `send the sign-out of ${title} to another address:`,
  clientId: (title) => `sign in to ${title} as another app (client id):`,
};

/** What an update changes in a provider both versions have: new scopes, addresses, client id. */
function oauthChanges(name: string, before: OAuthProvider, after: OAuthProvider): ReachItem[] {
  const title = after.title ?? name;
  const items: ReachItem[] = [];
  const added = (after.scopes ?? []).filter((scope) => !(before.scopes ?? []).includes(scope));
  if (added.length) {
    items.push({
      key: `oauth:${name}:scopes`,
      text: `ask ${title} for more access: ${added.join(", ")}`,
      risk: "it asks your account for more than you approved",
    });
  }
  for (const field of OAUTH_PLACES) {
    if (before[field] === after[field]) continue;
    items.push({
      key: `oauth:${name}:${field}`,
      text: `${OAUTH_CHANGE_TEXT[field](title)} ${after[field] ?? "none"} (was ${before[field] ?? "none"})`,
      risk: "your sign-in would go somewhere you did not approve",
    });
  }
  return items;
}

/**
 * What `next` can reach that `previous` could not: new items, and for a provider both have, new
 * scopes and every changed address or client id.
 *
 * @example
 * gainedReach(v1, v2, { supportDir }).map((i) => i.text) // ["connect to uploads.example.com"]
 */
export function gainedReach(previous: Manifest, next: Manifest, where: ReachPlaces): ReachItem[] {
  const had = new Set(reachOf(previous, where).map((item) => item.key));
  const gained = reachOf(next, where).filter((item) => !had.has(item.key));
  for (const [name, provider] of Object.entries(next.svc.oauth)) {
    const before = previous.svc.oauth[name];
    if (before) gained.push(...oauthChanges(name, before, provider));
  }
  return gained;
}
