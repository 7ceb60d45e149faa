/**
 * What a host is started with, and how `svc-host` reads it from the environment.
 *
 * | env | default | meaning |
 * |-----|---------|---------|
 * | `SVC_HOME` | platform default | the support folder |
 * | `SVC_PORT` | 47811 | HTTP port (a free one when taken) |
 * | `SVC_BUNDLED_EXTENSIONS` | this repository's `extensions/` | bundled extension folders (an app's `Resources/Extensions`), `:`-separated; each one's `bundled.json` says which of its folders run (the rest are its catalog) |
 * | `SVC_RUNTIME` | `@svc/runtime`'s `dist/bundle/main.js` | the runtime to spawn |
 * | `SVC_HOST_OUTPUT` | `auto` | `live` (in place), `lines` (one per change), `json` (one JSON event per line); `auto` is `live` on a terminal |
 * | `SVC_LOG_LEVEL` | `info` | lowest log level shown: `debug`, `info`, `warn`, `error` |
 * | `SVC_HOST_CLOCK` | `system` | `manual`: time only moves by control commands (tests) |
 * | `SVC_HOST_CONTROL` | unset | `stdin`: read control commands, one JSON object per line, on stdin |
 * | `SVC_HOST_RESTART_DELAY_MS` | 500 | first wait before restarting a runtime that died (doubles up to 30 s) |
 * | `SVC_OPEN_URLS` | unset | `1`: open `openURL` pages (and sign-in pages) in the browser with `xdg-open` (Linux) |
 * | `SVC_AGENT_FILES_TIMEOUT_MS` | 50000 | how long an agent's file request waits for the person's answer in the notch |
 * | `SVC_OAUTH_PORT` | 47812 | the sign-in callback port (tests give each host its own) |
 */
import { delimiter, resolve } from "node:path";
import type { ExtensionRoot } from "../discovery/index.js";
import { LOG_LEVELS } from "@svc/api";
import type { Display, DisplayMode, LogLevel } from "../display/index.js";
import type { Clock } from "../clock/index.js";
import type { SecretStore } from "../secrets/index.js";
import type { BackoffOptions } from "../supervisor/index.js";
import { DEFAULT_BACKOFF } from "../supervisor/index.js";

export interface HostOptions {
  /** The support folder; default from `SVC_HOME` or the platform. */
  supportFolder?: string;
  /** Folders of bundled extensions (lowest precedence); the user's `Extensions/` is added after them. */
  bundled: string[];
  clock: Clock;
  display: Display;
  /** HTTP port; default `SVC_PORT` or 47811; `false` runs no HTTP server. */
  port?: number | false;
  /** The runtime's `main.js`. */
  runtimeMain: string;
  runtimeEnv?: NodeJS.ProcessEnv;
  locale?: string;
  timeZone?: string;
  backoff?: BackoffOptions;
  /** Where secrets, password options and sign-in tokens live; default the operating system's store. */
  secretStore?: SecretStore;
  /** Open `openURL` pages in the browser too, not only show them (`SVC_OPEN_URLS=1`). */
  openURLs?: boolean;
  /** The OAuth callback port; default 47812 (SPEC.md). */
  oauthPort?: number;
  home?: string;
  /** How long an agent's file request waits for the person (default `AGENT_FILES_TIMEOUT_MS`). */
  agentFilesTimeoutMs?: number;
  /** The UI server (UI.md): its port (default `SVC_UI_PORT`, else a free one) and page folder; `false` runs none. */
  ui?: false | { port?: number; pageFolder?: string };
}

/** Settings read from the environment that are not `HostOptions` themselves. */
export interface EnvSettings {
  bundled: string[];
  output: DisplayMode;
  logLevel: LogLevel;
  manualClock: boolean;
  controlOnStdin: boolean;
  backoff: BackoffOptions;
  runtimeMain?: string;
  openURLs: boolean;
  agentFilesTimeoutMs?: number;
  /** `SVC_OAUTH_PORT`: the sign-in callback port; undefined: SPEC.md's 47812. */
  oauthPort?: number;
}

const OUTPUTS: readonly DisplayMode[] = ["auto", "live", "lines", "json"];
const LEVELS: readonly LogLevel[] = LOG_LEVELS;

/**
 * Reads `svc-host`'s environment; unknown values fall back to the default with a warning.
 *
 * @example
 * settingsFromEnv({ SVC_HOST_OUTPUT: "json" }, "/repo/extensions", console.warn).output; // "json"
 */
export function settingsFromEnv(
  env: NodeJS.ProcessEnv,
  defaultBundled: string,
  warn: (message: string) => void,
): EnvSettings {
  const pick = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    warn(`ignoring ${name}=${raw}: use one of ${allowed.join(", ")}`);
    return fallback;
  };
  const delay = Number(env.SVC_HOST_RESTART_DELAY_MS ?? DEFAULT_BACKOFF.firstMs);
  const firstMs = Number.isSafeInteger(delay) && delay > 0 ? delay : DEFAULT_BACKOFF.firstMs;
  if (firstMs !== delay)
    warn(`ignoring SVC_HOST_RESTART_DELAY_MS=${env.SVC_HOST_RESTART_DELAY_MS}: it should be a positive integer`);
  const agentWait = env.SVC_AGENT_FILES_TIMEOUT_MS;
  const agentFilesTimeoutMs =
    agentWait !== undefined && /^\d{1,7}$/.test(agentWait) && Number(agentWait) > 0 ? Number(agentWait) : undefined;
  if (agentWait !== undefined && agentWait !== "" && agentFilesTimeoutMs === undefined)
    warn(`ignoring SVC_AGENT_FILES_TIMEOUT_MS=${agentWait}: it should be a positive number of milliseconds`);
  // The redirect names the port, so it must be a fixed one (1–65535), never "any free port".
  const oauthPort =
    env.SVC_OAUTH_PORT === undefined || env.SVC_OAUTH_PORT === "" ? undefined : Number(env.SVC_OAUTH_PORT);
  const oauthPortOk =
    oauthPort === undefined || (/^\d+$/.test(env.SVC_OAUTH_PORT!) && oauthPort >= 1 && oauthPort <= 65_535);
  if (!oauthPortOk)
    warn(`ignoring SVC_OAUTH_PORT=${env.SVC_OAUTH_PORT}: it should be a port number 1–65535; using 47812`);
  return {
    ...(agentFilesTimeoutMs === undefined ? {} : { agentFilesTimeoutMs }),
    bundled: env.SVC_BUNDLED_EXTENSIONS
      ? env.SVC_BUNDLED_EXTENSIONS.split(delimiter)
          .filter(Boolean)
          .map((path) => resolve(path))
      : [defaultBundled],
    output: pick("SVC_HOST_OUTPUT", OUTPUTS, "auto"),
    logLevel: pick("SVC_LOG_LEVEL", LEVELS, "info"),
    manualClock: pick("SVC_HOST_CLOCK", ["system", "manual"] as const, "system") === "manual",
    controlOnStdin: pick("SVC_HOST_CONTROL", ["stdin", "off"] as const, "off") === "stdin",
    backoff: { ...DEFAULT_BACKOFF, firstMs },
    runtimeMain: env.SVC_RUNTIME || undefined,
    openURLs: pick("SVC_OPEN_URLS", ["0", "1"] as const, "0") === "1",
    ...(oauthPort !== undefined && oauthPortOk ? { oauthPort } : {}),
  };
}

/** Bundled roots first, then the user's folder: a user extension overrides a bundled one. */
export function extensionRoots(bundled: readonly string[], userExtensions: string): ExtensionRoot[] {
  return [
    ...bundled.map((path) => ({ path, source: "bundled" as const })),
    { path: userExtensions, source: "user" as const },
  ];
}
