/**
 * Everything the host reports as it happens, declared once: what the event bus carries
 * (`bus.ts`). The terminal display draws these for a person; with `SVC_HOST_OUTPUT=json` each
 * is written as one JSON line, which is what the integration tests, the desktop shell
 * (desktop/src/host-link.ts) and any script read.
 */
import type { LogLevel, SignInPage, Speaker } from "@svc/api";
import type { DenialRecord } from "@svc/runtime";
import type { ExtensionSource } from "../discovery/index.js";

/**
 * A blip as every display draws it (the terminal panel and the page): the stamped payload,
 * whether it has ended, and who sent it. Made once per change (`blipView`) and carried by the
 * `blip` event.
 */
export interface BlipView {
  id: string;
  title?: string;
  subtitle?: string;
  layout?: string;
  state?: string;
  data?: unknown;
  seq?: number;
  ended?: boolean;
  /** Marked stale at wake (its `staleAfter` passed while paused), until its next update. */
  stale?: boolean;
  /** Who sent it, from the catalog (`speakerOf`): every blip line names it. */
  from: Speaker;
  /** `extension`: from an extension's update(); `push`: pushed over HTTP. */
  source?: "extension" | "push";
  /** The extension that sent it (absent for pushed blips). */
  extensionId?: string;
  [key: string]: unknown;
}

export interface ExtensionSummary {
  id: string;
  title?: string;
  source: ExtensionSource;
  folder: string;
  tools: string[];
  /** A problem a person should see (broken manifest, a watch path not allowed, …). */
  error?: string;
}

export type HostEvent =
  | { type: "started"; supportFolder: string; port?: number; clock: "system" | "manual" }
  /** Whether secrets, password options and sign-ins can be kept; said once, at start. */
  | { type: "secret-store"; available: boolean; error?: string; detail?: string; fix?: string }
  /** An option was saved (never its value: it may be a password). */
  | { type: "preference"; id: string; name: string; by: "settings" | "extension" }
  | {
      type: "extensions";
      active: ExtensionSummary[];
      broken: ExtensionSummary[];
      overridden: ExtensionSummary[];
    }
  | { type: "extension.loaded"; id: string; reason: "discovered" | "reloaded" | "restored" | "preferences" }
  | { type: "extension.unloaded"; id: string }
  | { type: "extension.error"; id: string; error: string }
  | { type: "extension.tools"; id: string; tools: string[] }
  /** What `blips.json` held, as read: said before the runtime starts. */
  | { type: "blips.restored"; blips: BlipView[] }
  | { type: "blip"; change: "update" | "end" | "remove"; id: string; seq?: number; blip?: BlipView; source?: string }
  | { type: "run.start"; id: string; trigger: string; at: number }
  | {
      type: "run.end";
      id: string;
      trigger: string;
      result: "ok" | "failed" | "timeout";
      error?: string;
      startedAt: number;
      endedAt: number;
      nextRunAt?: number;
    }
  | { type: "action"; id: string; blipId: string; actionId: string; emitted?: Record<string, number>; error?: string }
  | { type: "event.sent"; id: string; event: "webhook" | "file"; paths?: string[]; error?: string }
  /** `from`: the extension's name from the catalog (`speakerOf`), shown before the title. */
  | { type: "notify"; extensionId: string; from: Speaker; title: string; body?: string }
  /** `signIn`: the page is an OAuth sign-in (the service's and the asking extension's titles). */
  | { type: "openURL"; extensionId?: string; url: string; signIn?: SignInPage }
  /** A device-flow sign-in (RFC 8628): the code the person types at `verificationUri`. */
  | {
      type: "sign-in.code";
      extensionId: string;
      from: Speaker;
      /** The provider's title ("GitHub"). */
      title: string;
      userCode: string;
      verificationUri: string;
      expiresAt: number;
    }
  /** The runtime's `extension.status`, with its live figures when it sent them. */
  | { type: "status"; extensionId: string; status: string; error?: string; heapUsed?: number; cpuMs?: number }
  /** The runtime's `extension.denied`: what the sandbox refused, as the fence recorded it. */
  | { type: "denied"; extensionId: string; denial: DenialRecord }
  | { type: "log"; level: LogLevel; extensionId?: string; message: string }
  | {
      type: "runtime";
      state: "started" | "exited" | "restarting" | "restored" | "stopped";
      detail?: string;
      pid?: number;
    }
  | { type: "watching"; what: "extensions" | "files"; id?: string; paths: string[] }
  | { type: "control"; command: string; ok: boolean; error?: string; now: number }
  | { type: "paused" | "resumed"; at: number }
  /** The desktop shell said the machine is on battery (schedules stretched) or on mains power. */
  | { type: "power"; onBattery: boolean; at: number }
  | { type: "stopping" };
