/**
 * The API an extension codes against: the extension object, `ctx`, events, actions and tools.
 *
 * Extension code runs inside its own QuickJS sandbox (DESIGN.md): every member of `ctx` that
 * reaches outside it returns a promise, because the sandbox carries the call to the host and
 * back. Values cross as JSON: pass and store plain data (no functions, Maps or class instances).
 */
import type {
  BlipInput,
  BlockInput,
  DropActionInput,
  DropResult,
  FieldInput,
  FieldType,
  FieldValueMap,
  OAuthConnection,
  ToolActionInput,
  ToolSpecInput,
  WorkingHours,
} from "./schemas/index.js";

/** What made `update()` run. */
export interface Trigger {
  type: "launch" | "interval" | "manual" | "preferences";
}

/** A preference value as resolved by the host: text, number, checkbox, or unset. Passwords arrive as text. */
export type PreferenceValue = string | number | boolean | null;

/** Per-extension key/value storage, persisted as JSON in the extension's data folder. */
export interface Storage {
  /** The stored value, or undefined when the key was never set (or was deleted). */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores any JSON value under `key`. */
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * Secrets in the operating system's secret store, under the extension's own service.
 * Names: 1–64 of `A–Z a–z 0–9 . _ -`; values: at most 16 KB.
 */
export interface Secrets {
  /** The secret, or undefined when unset. */
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
}

// OAuthConnection and WorkingHours come from the schemas, so both stay one type.
export type { OAuthConnection, WorkingHours };

/** Which sign-in: `provider` may be left out when the manifest declares only one. */
export interface OAuthTarget {
  provider?: string;
}

export interface OAuth {
  /** Opens the sign-in page; resolves once it is open. The extension runs again when sign-in completes. */
  connect(target?: OAuthTarget): Promise<void>;
  /** Every connection of the provider (needing reconnection or not). */
  connections(target?: OAuthTarget): Promise<OAuthConnection[]>;
  /**
   * A working access token, renewed first when within five minutes of expiring; `{token: null}`
   * when no connection has one. Rejects when an expired token could not be renewed for want of
   * the network (try again later; do not ask the person to sign in again).
   */
  token(
    target?: OAuthTarget & { connection?: string },
  ): Promise<{ token: string; connection: OAuthConnection } | { token: null; connection?: undefined }>;
  /** Names a connection (shown in Settings), e.g. after reading the account from the service. */
  describe(target: OAuthTarget & { connection: string; account: string; label: string }): Promise<OAuthConnection>;
  /** Marks a connection's token as rejected by the service: it then needs signing in again. */
  invalidate(target: OAuthTarget & { connection: string }): Promise<void>;
  /** Forgets a connection (all of the provider's when none is named), revoking its token where possible. */
  disconnect(target?: OAuthTarget & { connection?: string }): Promise<void>;
}

export interface ExecOptions {
  cwd?: string;
  /** Kill the process after this many milliseconds. */
  timeoutMs?: number;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** The exit code; non-zero is not an error (the promise still resolves). */
  code: number;
}

/**
 * File access, fenced (we deviate from SPEC.md here, see DESIGN.md): reads are allowed only
 * under the manifest's `permissions.files`, inside the extension's data folder and, during a
 * tool run, the files the person gave it; writes and removals only inside the data folder.
 * Symlinks are resolved before the check. Relative paths resolve against `ctx.dataDir`; `~`
 * is the home folder. A refused path rejects with a message naming the manifest entry to add.
 */
export interface Files {
  /** Text (UTF-8, the default) or the bytes as base64. */
  read(path: string, options?: { encoding?: "utf8" | "base64" }): Promise<string>;
  /** The file's bytes. */
  readBytes(path: string): Promise<Uint8Array>;
  /**
   * Writes atomically (temporary file, then rename). `data` is text, bytes, or bytes as base64
   * with `encoding: "base64"`. Writes count against the data folder's quota.
   */
  write(path: string, data: string | Uint8Array, options?: { encoding?: "utf8" | "base64" }): Promise<void>;
  /** Names of the entries in a folder. */
  list(dir: string): Promise<string[]>;
  exists(path: string): Promise<boolean>;
  /** Removes a file or folder inside the data folder. */
  remove(path: string): Promise<void>;
}

/** Lines for the runtime log (`svckit dev` streams them). Fire and forget. */
export interface Log {
  debug(...message: unknown[]): void;
  info(...message: unknown[]): void;
  warn(...message: unknown[]): void;
  error(...message: unknown[]): void;
}

/** How a blip ends. */
export interface EndOptions {
  /** The final state, e.g. `"success"` or `"failure"`. */
  state?: string;
  /** Seconds after which the ended blip leaves the notch. */
  dismissAfter?: number;
}

/**
 * The extension context: given to `update`, `onEvent`, `onAction` and (as {@link ToolContext})
 * to tools. It is bound to the extension: nothing here takes the extension's own id.
 */
export interface Ctx<Prefs extends Record<string, PreferenceValue> = Record<string, PreferenceValue>> {
  /** The extension's id (reverse-DNS). */
  readonly extensionId: string;
  /** What caused this `update()` run; undefined in `onEvent`, `onAction` and tools. */
  readonly trigger: Trigger | undefined;
  /** Resolved preference values, secrets (passwords) included. */
  readonly preferences: Readonly<Prefs>;
  /** Absolute path of the extension's own data folder (`Data/<id>/`). */
  readonly dataDir: string;
  readonly storage: Storage;
  readonly secrets: Secrets;
  readonly files: Files;
  /** Emits a full snapshot of a blip (build it with `stat`, `list`, …); the blip's id is `<extensionId>/<key>`. */
  emit(blip: BlipInput): Promise<void>;
  /** Marks the blip `key` finished. */
  end(key: string, options?: EndOptions): Promise<void>;
  /** Removes the blip `key`. */
  remove(key: string): Promise<void>;
  /** Completes a held webhook request (`event.replyId`) with a JSON body; `status` defaults to 200. */
  respond(replyId: string, body: unknown, status?: number): Promise<void>;
  /** Opens a URL in the person's browser. */
  openURL(url: string): Promise<void>;
  /** Shows a line under the notch for a few seconds. Not a system notification; no permission prompt. */
  notify(title: string, body?: string): Promise<void>;
  /**
   * Changes one of the extension's own (non-password) options as if in Settings; `null`
   * clears it. `update()` then runs with trigger `preferences`.
   */
  setPreference(name: string, value: PreferenceValue): Promise<void>;
  readonly oauth: OAuth;
  /** The person's working hours, or undefined when none are set. */
  workingHours(): Promise<WorkingHours | undefined>;
  /** Runs an executable listed in `permissions.exec`. */
  exec(file: string, args?: readonly string[], options?: ExecOptions): Promise<ExecResult>;
  readonly log: Log;
}

/** The context of a tool run or drop. */
export interface ToolContext<
  Prefs extends Record<string, PreferenceValue> = Record<string, PreferenceValue>,
> extends Ctx<Prefs> {
  /** The only place a tool may write files it returns (in `files` or `image` blocks, or drop outputs). */
  readonly dataDir: string;
  /** Aborted when the run times out (30 s): pass it to `fetch`. */
  readonly signal: AbortSignal;
}

/** A `POST /v1/hooks/<extension-id>` body. */
export interface WebhookEvent {
  type: "webhook";
  body: unknown;
  /** ISO 8601 time the request arrived. */
  receivedAt: string;
  /** Present when the sender waits for an answer (`?await=`): pass it to `ctx.respond`. */
  replyId?: string;
}

/** Changes under a path listed in `triggers.watch`. */
export interface FileEvent {
  type: "file";
  paths: string[];
}

export type ExtensionEvent = WebhookEvent | FileEvent;

/** A button pressed on one of the extension's blips. */
export interface ActionEvent {
  /** The full blip id, `<extensionId>/<key>`. */
  blipId: string;
  /** The blip's key, as given to the builder. */
  key: string;
  actionId: string;
  /** The quick choice picked, or the text typed, when the action asks for one. */
  input?: string;
  /** The list item whose button it was. */
  itemId?: string;
}

/** What `update()` may return. */
export interface UpdateResult {
  /** Seconds until the next run, for the next run only (a webhook event cuts it back to the interval). */
  nextRunAfter?: number;
}

type Awaitable<T> = T | Promise<T>;

// --- Tools: the values' types follow from the fields' declarations. -------------------------

/** What `tool()` needs to know of a field to type its value. */
interface FieldDeclaration {
  readonly id: string;
  readonly type: FieldType;
  readonly options?: ReadonlyArray<{ readonly id: string }>;
}

/**
 * The value a field puts in `values` (SPEC.md "Field types"); a choice field's value is one
 * of its option ids.
 */
export type FieldValue<F extends FieldDeclaration> = F extends {
  type: "choice";
  options: ReadonlyArray<{ id: infer Id }>;
}
  ? Id
  : FieldValueMap[F["type"]];

/** The normalized `values` of a tool with these fields: every field present and typed. */
export type ToolValues<Fields extends ReadonlyArray<FieldDeclaration>> = {
  [F in Fields[number] as F["id"]]: FieldValue<F>;
};

/** The tool's code, beside its spec. */
export interface ToolHandlers<
  Fields extends ReadonlyArray<FieldDeclaration>,
  ActionId extends string,
  DropId extends string,
> {
  /**
   * Runs action `action` on the normalized values; returns the result blocks (build them with `status`, `table` …), one
   * block, or nothing.
   */
  run(action: ActionId, values: ToolValues<Fields>, ctx: ToolContext): Awaitable<BlockInput[] | BlockInput | void>;
  /** Handles files dropped on one of the tool's `dropActions`: returns `{message, outputs, copiedText?}`. */
  drop?(action: DropId, files: string[], ctx: ToolContext): Awaitable<DropResult>;
}

/** `T` with every array and object in it allowed to be readonly (what `as const` and `const` generics make). */
type AcceptReadonly<T> =
  T extends ReadonlyArray<infer E>
    ? ReadonlyArray<AcceptReadonly<E>>
    : T extends object
      ? { readonly [K in keyof T]: AcceptReadonly<T[K]> }
      : T;

/** A field as `tool({fields})` takes it: any field of SPEC.md's "Field types", lists readonly or not. */
export type ToolFieldInput = AcceptReadonly<FieldInput>;

/** A tool as written: its spec (SPEC.md "Tool spec", defaults optional) and its handlers. */
export type ToolDefinition<
  Fields extends ReadonlyArray<ToolFieldInput> = ReadonlyArray<ToolFieldInput>,
  ActionId extends string = string,
  DropId extends string = string,
> = Omit<ToolSpecInput, "fields" | "actions" | "dropActions"> & {
  fields?: Fields;
  actions?: ReadonlyArray<ToolActionInput & { id: ActionId }>;
  dropActions?: ReadonlyArray<DropActionInput & { id: DropId }>;
} & ToolHandlers<Fields, ActionId, DropId>;

/** The extension object a bundle exports. */
export interface Extension<Prefs extends Record<string, PreferenceValue> = Record<string, PreferenceValue>> {
  /** Runs on launch, on the manifest interval, on request and after preference changes; emits blips. */
  update?(ctx: Ctx<Prefs>): Awaitable<UpdateResult | void>;
  /** A webhook body or watched-file change. */
  onEvent?(ctx: Ctx<Prefs>, event: ExtensionEvent): Awaitable<void>;
  /** A button pressed on one of the extension's blips. */
  onAction?(ctx: Ctx<Prefs>, action: ActionEvent): Awaitable<void>;
  /** Tool name → `tool({...})`. */
  tools?: Record<string, ToolDefinition<any, any, any>>;
}
