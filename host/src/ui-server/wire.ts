/**
 * What the UI server and the page say to each other: the one definition of the feed's events and
 * of the snapshot. The page (`ui/`) imports these types only (`import type`), so nothing of the
 * host reaches the browser bundle.
 */

/** A blip as the page draws it: the stamped payload, its owner and whether it has ended. */
export interface UiBlip {
  id: string;
  seq: number;
  /** `extension`: from an extension's update(); `push`: pushed over HTTP (drawn at the end). */
  source: "extension" | "push";
  ended: boolean;
  /** The payload fields (title, layout, data, actions, …), checked by the runtime or push route. */
  [field: string]: unknown;
}

/** One thing an extension can reach, in plain words; `risk` says why it deserves a second look. */
export interface UiReach {
  text: string;
  risk?: string;
}

/** One option of an extension as Settings shows it. Passwords say only whether one is set. */
export interface UiPreference {
  name: string;
  type: "textfield" | "multiline" | "password" | "checkbox" | "dropdown" | "number";
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

export interface UiExtension {
  id: string;
  title: string;
  version?: string;
  description?: string;
  source: "bundled" | "user";
  /** `loaded`: running; `broken`: its manifest or code is wrong (see `error`). */
  status: "loaded" | "broken" | "overridden";
  /** The last problem a person should see: a broken manifest, an OAuth mistake, a failed run. */
  error?: string;
  /** The last run: when and how it went. */
  lastRun?: { result: string; at: number; error?: string };
  reach: UiReach[];
  preferences: UiPreference[];
  tools: string[];
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
}

export interface Snapshot {
  blips: UiBlip[];
  extensions: UiExtension[];
  settings: AppSettings;
  /** Scheduled runs wait (screen asleep or locked). */
  paused: boolean;
  /** False when passwords and sign-ins cannot be kept (no secret store). */
  secretsAvailable: boolean;
}

/** The feed's events, each sent as an SSE event of that name whose data is the JSON object. */
export type UiEvent =
  | { type: "snapshot"; snapshot: Snapshot }
  | { type: "blip"; change: "update" | "end" | "remove"; id: string; blip?: UiBlip }
  | { type: "extensions"; extensions: UiExtension[] }
  | { type: "settings"; settings: AppSettings }
  | { type: "notify"; extensionId?: string; title: string; body?: string }
  | { type: "openURL"; extensionId?: string; url: string }
  | { type: "paused"; paused: boolean };

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
export interface PreferenceRequest {
  extensionId: string;
  name: string;
  value: unknown;
}
