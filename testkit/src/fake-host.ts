/**
 * The app's side of `ctx`, faked: the answers to every `host.*` call an extension makes, with
 * state a test sets (secrets, sign-ins and their tokens, working hours) and a record of what the
 * extension asked the app to do (notify, openURL, setPreference, sign-in pages). A fresh one
 * answers as a fresh install: no secrets, nobody signed in, no working hours.
 *
 * The one fake app of svc: the test kit answers the runtime's `host.*` requests with it, and
 * `svckit validate` answers its sandbox's forwarded ops with it (fake-forwarded-calls.ts).
 */
import type { OAuthConnection, Preference, WorkingHours } from "@svc/api";
import { HOST_REQUESTS, type HostOp } from "@svc/runtime";

export type { HostOp };
/** The ops the app answers: the forwarded ops the runtime turns into `host.*` requests. */
export const HOST_OPS = Object.keys(HOST_REQUESTS) as readonly HostOp[];

/** One sign-in a test gives the extension. */
export interface SignIn {
  /** Needed when the manifest declares more than one sign-in. */
  provider?: string;
  /** The access token `ctx.oauth.token()` gives. */
  token: string;
  account?: string;
  label?: string;
  scopes?: string[];
  /** Default `conn-1`, `conn-2`, … */
  id?: string;
}

export interface FakeHostOptions {
  /** The extension's id, for messages worded as the app words them. */
  extensionId?: string;
  /** The extension's title: a sign-in's title when its definition has none. */
  title?: string;
  /** The manifest's declared options (for `setPreference`'s check). */
  preferences?: readonly Preference[];
  /** The manifest's sign-in provider names (for `provider` left out). */
  providers?: readonly string[];
  secrets?: Record<string, string>;
  signIns?: SignIn[];
  workingHours?: WorkingHours | null;
  /** Epoch ms for `connectedAt`. */
  now?: () => number;
  /** A line for each thing the extension asked the app to do (svckit validate prints them). */
  report?: (line: string) => void;
}

interface Connection {
  provider: string;
  record: OAuthConnection;
  token: string;
}

/**
 * @example
 * const host = new FakeHost({ providers: ["github"], secrets: { apiKey: "k-1" } });
 * host.signIn({ token: "gho_test", account: "octo" });
 * await host.answer("oauth.token", {}); // { token: "gho_test", connection: { id: "conn-1", … } }
 */
export class FakeHost {
  readonly secrets: Map<string, string>;
  workingHours: WorkingHours | null;
  /** `ctx.notify(title, body?)` calls, in order. */
  readonly notifications: { title: string; body?: string }[] = [];
  /** `ctx.openURL(url)` calls. */
  readonly openedURLs: string[] = [];
  /** `ctx.setPreference(name, value)` calls the app accepted. */
  readonly preferenceChanges: { name: string; value: unknown }[] = [];
  /** `ctx.oauth.connect()` calls: the provider whose sign-in page the app would open. */
  readonly signInPages: string[] = [];
  private readonly connections: Connection[] = [];
  private nextConnection = 1;
  private readonly listeners = new Set<(change: { name: string; value: unknown }) => void>();

  constructor(private readonly options: FakeHostOptions = {}) {
    this.secrets = new Map(Object.entries(options.secrets ?? {}));
    this.workingHours = options.workingHours ?? null;
    for (const signIn of options.signIns ?? []) this.signIn(signIn);
  }

  /** Signs someone in, as if they finished the sign-in page; returns the connection record. */
  signIn(signIn: SignIn): OAuthConnection {
    const provider = this.provider(signIn.provider);
    const record: OAuthConnection = {
      id: signIn.id ?? `conn-${this.nextConnection++}`,
      ...(signIn.account === undefined ? {} : { account: signIn.account }),
      ...(signIn.label === undefined ? {} : { label: signIn.label }),
      connectedAt: new Date(this.options.now?.() ?? Date.now()).toISOString(),
      ...(signIn.scopes === undefined ? {} : { scopes: signIn.scopes }),
      needsReconnect: false,
    };
    // Connecting the same account again keeps only the newest (SPEC).
    const same = this.connections.findIndex(
      (c) => c.provider === provider && signIn.account !== undefined && c.record.account === signIn.account,
    );
    if (same >= 0) this.connections.splice(same, 1);
    this.connections.push({ provider, record, token: signIn.token });
    return { ...record };
  }

  /** Every secret value and token it holds (a recording must never contain one). */
  knownSecrets(): string[] {
    return [...this.secrets.values(), ...this.connections.map((c) => c.token)];
  }

  /** Called after the app accepted a `setPreference`; returns a function that stops listening. */
  onPreferenceChange(listener: (change: { name: string; value: unknown }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The app's answer to one call, shaped as the protocol's result (`{value}`, `{connections}` …).
   * Rejects, like the app, with a message for the extension's author.
   */
  async answer(op: HostOp, raw: unknown): Promise<unknown> {
    const args = (raw !== null && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
    switch (op) {
      case "openURL":
        this.openedURLs.push(String(args.url));
        this.report(`openURL: ${String(args.url)}`);
        return {};
      case "notify": {
        const note = { title: String(args.title), ...(args.body === undefined ? {} : { body: String(args.body) }) };
        this.notifications.push(note);
        this.report(`notify: ${note.title}${note.body === undefined ? "" : ` — ${note.body}`}`);
        return {};
      }
      case "secrets.get":
        return { value: this.secrets.get(String(args.name)) ?? null };
      case "secrets.set":
        this.secrets.set(String(args.name), String(args.value));
        return {};
      case "secrets.delete":
        this.secrets.delete(String(args.name));
        return {};
      case "preferences.set":
        return this.setPreference(String(args.name), args.value);
      case "oauth.connect": {
        const provider = this.provider(args.provider);
        this.signInPages.push(provider);
        this.report(`oauth.connect ${provider}: the app would open the sign-in page`);
        return {};
      }
      case "oauth.connections": {
        const provider = this.provider(args.provider);
        return { connections: this.connections.filter((c) => c.provider === provider).map((c) => ({ ...c.record })) };
      }
      case "oauth.token": {
        const provider = this.provider(args.provider);
        const usable = this.connections.filter((c) => c.provider === provider && !c.record.needsReconnect);
        const chosen = args.connection === undefined ? usable[0] : usable.find((c) => c.record.id === args.connection);
        return chosen ? { token: chosen.token, connection: { ...chosen.record } } : { token: null };
      }
      case "oauth.describe": {
        const connection = this.connection(args);
        connection.record = { ...connection.record, account: String(args.account), label: String(args.label) };
        return { connection: { ...connection.record } };
      }
      case "oauth.invalidate":
        this.connection(args).record.needsReconnect = true;
        return {};
      case "oauth.disconnect": {
        const provider = this.provider(args.provider);
        for (let i = this.connections.length - 1; i >= 0; i--) {
          const c = this.connections[i];
          if (c.provider === provider && (args.connection === undefined || c.record.id === args.connection))
            this.connections.splice(i, 1);
        }
        return {};
      }
      case "workingHours":
        return this.workingHours === null ? null : { ...this.workingHours };
      default:
        // `satisfies never`: a host op added to the runtime's HOST_REQUESTS without a case here does not compile.
        throw new Error(`unknown operation "${String(op satisfies never)}"`);
    }
  }

  private setPreference(name: string, value: unknown): {} {
    const declared = this.options.preferences?.find((p) => p.name === name);
    if (!declared) throw new Error(`ctx.setPreference: "${name}" is not one of this extension's preferences`);
    if (declared.type === "password")
      throw new Error(`ctx.setPreference: "${name}" is a password; only the person sets those, in Settings`);
    if (value !== null && !fitsKind(declared, value)) {
      throw new Error(`ctx.setPreference: ${JSON.stringify(value)} is not a value for "${name}" (a ${declared.type})`);
    }
    const change = { name, value };
    this.preferenceChanges.push(change);
    this.report(`setPreference ${name} = ${JSON.stringify(value)}`);
    for (const listener of this.listeners) listener(change);
    return {};
  }

  /** Which sign-in a call means, as the app resolves it (same words as svc-host's). */
  private provider(given: unknown): string {
    const declared = this.options.providers ?? [];
    const id = this.options.extensionId ?? "the extension";
    if (given === undefined) {
      if (declared.length === 0) throw new Error(`${id} declares no sign-in: add a provider to svc.oauth`);
      if (declared.length > 1)
        throw new Error(`${id} declares ${declared.length} sign-ins (${declared.join(", ")}): name the provider`);
      return declared[0];
    }
    const name = String(given);
    if (!declared.includes(name)) {
      throw new Error(
        `${id} has no sign-in named "${name}"; ${declared.length ? `declared: ${declared.join(", ")}` : "it declares none"}`,
      );
    }
    return name;
  }

  private connection(args: Record<string, unknown>): Connection {
    const provider = this.provider(args.provider);
    const found = this.connections.find((c) => c.provider === provider && c.record.id === args.connection);
    if (!found)
      throw new Error(`${this.options.title ?? provider} has no connection "${String(args.connection ?? "")}"`);
    return found;
  }

  private report(line: string): void {
    this.options.report?.(line);
  }
}

function fitsKind(preference: Preference, value: unknown): boolean {
  switch (preference.type) {
    case "checkbox":
      return typeof value === "boolean";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "dropdown":
      return preference.data.some((choice) => choice.value === value);
    default:
      return typeof value === "string";
  }
}
