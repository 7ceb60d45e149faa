/**
 * The host's trust pieces, assembled: the secret store (the operating system's, never a file),
 * stored preferences, OAuth sign-ins, and their `host.*` handlers. `openTrust` never fails for
 * want of a secret store: the host runs on, says why once, and every call that needs the store
 * answers `no secret store available: …`.
 */
import type { Disposable } from "@svc/api";
import type { Manifest } from "@svc/api";
import {
  ExtensionSecrets,
  KeyringSecretStore,
  openSecretStore,
  secretHandlers,
  type SecretHandlers,
  type SecretStore,
} from "../secrets/index.js";
import {
  PreferenceStore,
  preferenceHandlers,
  preferencesFolder,
  type ChangedBy,
  type PreferenceHandlers,
} from "../preferences/index.js";
import {
  OAuthService,
  oauthHandlers,
  type OAuthHandlers,
  type OAuthServiceOptions,
  type SignInPage,
} from "../oauth/index.js";
import type { Clock } from "../clock/index.js";

/** The `host.*` members the trust pieces answer: secrets, preferences, OAuth. */
export type TrustServices = SecretHandlers & PreferenceHandlers & OAuthHandlers;

export interface TrustOptions {
  /** The support folder (preference files go to `<root>/Preferences/`). */
  supportRoot: string;
  /** The store to use; default the operating system's (`openSecretStore`). */
  secretStore?: SecretStore;
  /** The manifest of a loaded extension. */
  manifestOf(extensionId: string): Manifest | undefined;
  openURL(extensionId: string, url: string, signIn?: SignInPage): void;
  notify(extensionId: string, title: string, body?: string): void;
  /** A saved preference change (by the extension or in Settings). */
  onPreferenceChanged(extensionId: string, name: string, by: ChangedBy): void;
  /** A sign-in finished or a connection was removed. */
  onConnectionsChanged(extensionId: string): void;
  /** A stored preference that could not be read; the extension runs on its defaults. */
  onProblem(extensionId: string, message: string): void;
  /** The OAuth callback port; default 47812 (SPEC.md). */
  oauthPort?: number;
  /** Waits between device-flow polls (the host's clock). */
  clock?: Clock;
  /** A device-flow sign-in's code, for the page and the terminal. */
  showDeviceCode?: OAuthServiceOptions["showDeviceCode"];
}

export interface Trust extends Disposable {
  secrets: ExtensionSecrets;
  preferences: PreferenceStore;
  oauth: OAuthService;
  services: TrustServices;
  /** Why the operating system's secret store cannot be used, when it cannot, and what gives the session one. */
  unavailable?: { message: string; detail?: string; fix?: string };
  /** Closes the sign-in port and forgets pending sign-ins. */
}

/**
 * On Linux, the commands that give a terminal session a Secret Service (a session bus of its
 * own, and gnome-keyring unlocked on it with a password typed once, read without echo, so it is
 * never on the screen or in the shell's history); svc then runs from there.
 */
export const LINUX_SECRET_SERVICE_FIX =
  "dbus-run-session -- bash, then in that shell: read -rsp 'Keyring password: ' pw; echo; printf '%s\\n' \"$pw\" | gnome-keyring-daemon --unlock --components=secrets >/dev/null; unset pw (the password is never shown), then start svc there";

function secretServiceFix(): { fix?: string } {
  return process.platform === "linux" ? { fix: LINUX_SECRET_SERVICE_FIX } : {};
}

/**
 * The secret store to use. When the OS store does not answer, the keyring store is kept all
 * the same: each call then fails with the clear message (nothing is ever written elsewhere),
 * and a keyring unlocked later works without a restart.
 */
async function chooseSecretStore(
  given: SecretStore | undefined,
): Promise<{ store: SecretStore; unavailable?: Trust["unavailable"] }> {
  if (given) return { store: given };
  try {
    return { store: await openSecretStore() };
  } catch (error) {
    const detail = (error as { detail?: unknown }).detail;
    return {
      store: new KeyringSecretStore(),
      unavailable: {
        message: (error as Error).message,
        ...(typeof detail === "string" ? { detail } : {}),
        ...secretServiceFix(),
      },
    };
  }
}

/**
 * @example
 * const trust = await openTrust({ supportRoot, manifestOf, openURL, notify, onPreferenceChanged, onConnectionsChanged, onProblem });
 * if (trust.unavailable) log("warn", trust.unavailable.message);
 * registerHostRequests(connection, { ...basicHostServices(show), ...trust.services });
 */
export async function openTrust(options: TrustOptions): Promise<Trust> {
  const { store, unavailable } = await chooseSecretStore(options.secretStore);
  const secrets = new ExtensionSecrets(store);
  const preferences = new PreferenceStore({
    folder: preferencesFolder(options.supportRoot),
    secrets,
    onChanged: options.onPreferenceChanged,
    onProblem: options.onProblem,
  });
  const oauth = new OAuthService({
    secrets,
    manifestOf: options.manifestOf,
    openURL: (url, extensionId, signIn) => options.openURL(extensionId, url, signIn),
    notify: options.notify,
    onConnectionsChanged: (extensionId) => options.onConnectionsChanged(extensionId),
    onDropped: (extensionId, message) => options.onProblem(extensionId, message),
    ...(options.oauthPort === undefined ? {} : { port: options.oauthPort }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.showDeviceCode ? { showDeviceCode: options.showDeviceCode } : {}),
  });
  return {
    secrets,
    preferences,
    oauth,
    services: {
      ...secretHandlers(secrets),
      ...preferenceHandlers(preferences, options.manifestOf),
      ...oauthHandlers(oauth),
    },
    ...(unavailable ? { unavailable } : {}),
    dispose: () => oauth.dispose(),
  };
}
