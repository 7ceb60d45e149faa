/**
 * What the UI server and the page say to each other: the one definition of the feed's events and
 * of the snapshot. The page (`ui/`) imports these types only (`import type`), so nothing of the
 * host reaches the browser bundle.
 */
import type { SignInPage } from "@svc/api";
import type { CatalogListing } from "../catalog/catalog.js";
import type { AuthorView } from "../review/index.js";
import type { AgentFilesRequest as UiAgentFilesRequest } from "../tools/agent-files-request.js";

/** A blip as the page draws it: the stamped payload, its owner and whether it has ended. */
export interface UiBlip {
  id: string;
  seq: number;
  /** `extension`: from an extension's update(); `push`: pushed over HTTP (drawn at the end). */
  source: "extension" | "push";
  /** The extension that sent it (absent for pushed blips): the page names it from `extensions`' titles. */
  extensionId?: string;
  ended: boolean;
  /** Present (true) when its `staleAfter` passed while svc was paused, until its next update. */
  stale?: boolean;
  /** The payload fields (title, layout, data, actions, …), checked by the runtime or push route. */
  [field: string]: unknown;
}

/** Who made a package, as its review shows it (host/src/install/author.ts decides and declares it). */
export type UiAuthor = AuthorView;

/** One thing an extension can reach, in plain words; `risk` says why it deserves a second look. */
export interface UiReach {
  text: string;
  risk?: string;
}

/**
 * What the page asks before a `url` option's server is set (`POST /api/preferences` answers 409
 * with it): `question` ("Let Calendar connect to calendar.google.com?"), the origin the fence
 * will admit, and the install review's mark for that address.
 */
export interface UiGrantQuestion {
  origin: string;
  question: string;
  risk?: string;
}

/** One option of an extension as Settings shows it. Passwords say only whether one is set. */
export interface UiPreference {
  name: string;
  type: "textfield" | "multiline" | "password" | "checkbox" | "dropdown" | "number" | "url";
  title: string;
  description?: string;
  required: boolean;
  placeholder?: string;
  /** `dropdown` only. */
  options?: { value: string; title: string }[];
  /** Blip keys this option applies to (shown only on those blips). */
  blips?: string[];
  /** The current value; for a password `{ set: true | false }`, never the password. */
  value: unknown;
}

/**
 * One catalog package in Settings → Add extensions (`GET /api/catalog`): name (what
 * `POST /api/install/review {catalog}` takes), id, title, version, the one sentence, icon, what
 * it can reach (the install review's own `reachOf`), whether it is added, and who signed it.
 */
export type { CatalogListing as UiCatalogPackage } from "../catalog/catalog.js";
/** `GET /api/catalog`: the packages, and what is wrong with a catalog that could not be read. */
export interface UiCatalog {
  packages: CatalogListing[];
  problems: string[];
}

export interface UiExtension {
  id: string;
  title: string;
  version?: string;
  description?: string;
  /** The manifest's icon name (drawn from the page's fixed icon table). */
  icon?: string;
  /** `dev`: a development link (`svckit dev`). */
  source: "bundled" | "user" | "dev";
  /** The switch in Settings: a disabled extension is not loaded. */
  enabled: boolean;
  /** `loaded`, `running`, `idle`, `crashed`, `disabled`, `broken` (see `error`), `overridden`, … */
  status: string;
  /** The last problem a person should see: a broken manifest, an OAuth mistake, a failed run. */
  error?: string;
  /** The last run: when and how it went. */
  lastRun?: { result: string; at: number; error?: string };
  reach: UiReach[];
  preferences: UiPreference[];
  tools: string[];
  /** Live figures from the runtime's last status: heap in use and CPU time of the last run. */
  figures?: { heapBytes?: number; cpuMs?: number };
  /** What the sandbox refused it lately (newest last, at most 5). */
  denials: { at: string; message: string }[];
  /** One entry per OAuth provider it declares. */
  signIns: UiSignIn[];
  /** The https address it was installed from: "Check for updates" fetches there. */
  address?: string;
  /** An update staged for it, waiting for the person's review: it can do more, or comes with another key. */
  staged?: { version: string; because: "more" | "key" };
}

/** A provider an extension signs in to, and the accounts connected. Never a token. */
export interface UiSignIn {
  provider: string;
  title: string;
  connections: { id: string; account?: string; label?: string; connectedAt: string; needsReconnect: boolean }[];
}

export interface WorkingHours {
  /** Minutes after midnight. */
  start: number;
  end: number;
  weekdaysOnly: boolean;
}

/** The app's own settings (stored in `ui-settings.json`). */
export interface AppSettings {
  /** Open the panel when the pointer rests on the notch, or only on click. */
  openOn: "hover" | "click";
  hoverDelayMs: number;
  /** `primary`, or a display name from the desktop shell. */
  display: string;
  hideInFullscreen: boolean;
  /** `system` follows the operating system's setting. */
  reduceMotion: "system" | "on" | "off";
  workingHours: WorkingHours | null;
  /**
   * Which extensions may pop the collapsed notch open when a blip changes state (extension id →
   * allowed). An extension not listed: bundled ones may, installed ones may not (ui/src/model/pop.ts).
   */
  mayPop: Record<string, boolean>;
}

export interface Snapshot {
  blips: UiBlip[];
  extensions: UiExtension[];
  settings: AppSettings;
  /** Scheduled runs wait (screen asleep or locked). */
  paused: boolean;
  /** On battery: scheduled waits are three times as long (the desktop shell says so). */
  onBattery: boolean;
  /** False when passwords and sign-ins cannot be kept (no secret store). */
  secretsAvailable: boolean;
  /** An AI agent's tool calls with file paths, waiting for the person's Allow or Deny (oldest first). */
  agentFiles?: UiAgentFilesRequest[];
}

/** An agent's call waiting for the person's answer (declared beside the queue that holds it). */
export type { AgentFilesRequest as UiAgentFilesRequest } from "../tools/agent-files-request.js";

/** The feed's events, each sent as an SSE event of that name whose data is the JSON object. */
export type UiEvent =
  | { type: "snapshot"; snapshot: Snapshot }
  | { type: "blip"; change: "update" | "end" | "remove"; id: string; blip?: UiBlip }
  | { type: "extensions"; extensions: UiExtension[] }
  | { type: "settings"; settings: AppSettings }
  /** The host always names the sender; the page shows it by `extensions`' titles (`speakerOf`). */
  | { type: "notify"; extensionId?: string; title: string; body?: string }
  /** A device-flow sign-in: the page shows the code (with Copy) and the address to open. */
  | {
      type: "sign-in.code";
      extensionId: string;
      title: string;
      userCode: string;
      verificationUri: string;
      expiresAt: number;
    }
  /** `signIn`: the page is a sign-in, offered with `signInPrompt`'s sentence. */
  | { type: "openURL"; extensionId?: string; url: string; signIn?: SignInPage }
  | { type: "paused"; paused: boolean }
  | { type: "power"; onBattery: boolean }
  /** The agents' file requests waiting now (the whole list, oldest first; empty once all are answered). */
  | { type: "agentFiles"; waiting: UiAgentFilesRequest[] };

/** POST bodies and answers of the UI API (all under `/api/`). */
export interface ActionRequest {
  blipId: string;
  actionId: string;
  input?: string;
  itemId?: string;
}
/** The blips the action updated and their seqs. */
export interface ActionAnswer {
  ok: true;
  emitted: Record<string, number>;
}
export interface ManageRequest {
  extensionId: string;
  action: "enable" | "disable" | "uninstall";
}
export interface SignInRequest {
  extensionId: string;
  provider: string;
  /** `connect` opens the provider's sign-in page; `disconnect` forgets `connection` (or all). */
  action: "connect" | "disconnect";
  connection?: string;
}
/** `POST /api/agent-files`: the person's answer to one `UiAgentFilesRequest`. */
export interface AgentFilesAnswer {
  id: string;
  allow: boolean;
}
export interface PreferenceRequest {
  extensionId: string;
  name: string;
  value: unknown;
}
