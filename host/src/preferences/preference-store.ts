/**
 * Stored preference values: a JSON file per extension for every kind but `password`, the secret
 * store (account `pref.<name>`) for passwords. Changes are checked against the option's kind,
 * saved, then announced, so the host can run `update()` with trigger `preferences`.
 */
import type { Manifest, Preference } from "@svc/api";
import { grantQuestion, type GrantQuestion } from "../review/index.js";
import { HostRuleError, OneAtATime, SecretStoreUnavailableError, type ExtensionSecrets } from "../secrets/index.js";
import { preferenceFile, readPreferenceFile, writePreferenceFile } from "./preference-file.js";
import type { PreferenceSource } from "./resolve.js";
import { valueProblem } from "./rules.js";

/** A change an extension or a person may not make; the message says why. */
export class PreferenceRuleError extends HostRuleError {
  override readonly name: string = "PreferenceRuleError";
}

/**
 * A `url` option's server is not set until the person allows it: the error carries the question
 * to ask; the change is made again with `allowed` naming the origin they agreed to.
 */
export class GrantNeededError extends PreferenceRuleError {
  override readonly name: string = "GrantNeededError";
  constructor(readonly grant: GrantQuestion) {
    super(`${grant.question} Not set yet: the person has to allow it first`);
  }
}

/** Where granted origins are recorded (the permission ledger). */
export interface GrantBook {
  grant(extensionId: string, option: string, origin: string | undefined): Promise<void>;
}

/** Who asks for a change: the person in Settings may set passwords; an extension never. */
export type ChangedBy = "settings" | "extension";

export interface PreferenceStoreOptions {
  /** The folder of preference files, e.g. `preferencesFolder(supportRoot)`. */
  folder: string;
  /** Where password preferences live. */
  secrets: ExtensionSecrets;
  /** Called after every saved change: the host runs the extension with trigger `preferences`. */
  onChanged?: (extensionId: string, name: string, by: ChangedBy) => void;
  /** A stored file or secret that could not be read; the host logs it. */
  onProblem?: (extensionId: string, message: string) => void;
  /** Where `url` options' grants are recorded; without it such an option cannot be set. */
  grants?: GrantBook;
}

/**
 * @example
 * const preferences = new PreferenceStore({ folder: preferencesFolder(root), secrets, onChanged: (id) => host.runNow(id, "preferences") });
 * await preferences.change(manifest, "branch", "main", "extension");
 * await resolvePreferences(manifest, preferences); // { branch: "main", … }
 */
export class PreferenceStore implements PreferenceSource {
  #options: PreferenceStoreOptions;
  /** One change at a time per extension, so two changes never lose each other. */
  readonly #queue = new OneAtATime();

  constructor(options: PreferenceStoreOptions) {
    this.#options = options;
  }

  /** Records `url` options' grants in `book` from now on (the host opens its ledger after this store). */
  useGrants(book: GrantBook): void {
    this.#options = { ...this.#options, grants: book };
  }

  async values(extensionId: string, manifest?: Manifest): Promise<Record<string, unknown>> {
    const problem = (message: string) => this.#options.onProblem?.(extensionId, message);
    const values = await readPreferenceFile(preferenceFile(this.#options.folder, extensionId), problem);
    for (const preference of manifest?.svc.preferences ?? []) {
      if (preference.type !== "password") continue;
      // A password never comes from the file, even one edited by hand.
      delete values[preference.name];
      try {
        const secret = await this.#options.secrets.get(extensionId, "pref", preference.name);
        if (secret !== null)
          Object.defineProperty(values, preference.name, {
            value: secret,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      } catch (error) {
        // The extension still loads (on its defaults). No secret store at all was said once, at
        // start, with the fix: not again for every password option on every load.
        if (error instanceof SecretStoreUnavailableError) continue;
        problem(`password preference "${preference.name}" could not be read: ${(error as Error).message}`);
        if (!(error instanceof HostRuleError)) throw error;
      }
    }
    return values;
  }

  /**
   * Sets (or with `null` clears) one option, as SPEC.md's `host.preferences.set` says: only the
   * extension's own declared options, a value of the option's kind, never a password unless
   * `by` is `"settings"`. A `url` option is set by the person only, and only with `allowed`
   * naming the origin they agreed to (else `GrantNeededError` carries the question); its grant is
   * recorded before the value, and clearing or changing it revokes the old one. Resolves once
   * saved; then `onChanged` runs.
   */
  async change(manifest: Manifest, name: string, value: unknown, by: ChangedBy, allowed?: string): Promise<void> {
    const extensionId = manifest.svc.id;
    const preference = this.#declared(manifest, name);
    if ((preference.type === "password" || preference.type === "url") && by === "extension") {
      throw new PreferenceRuleError(
        `"${name}" is ${preference.type === "url" ? "a server address" : "a password"} option: only the person can set it, in Settings`,
      );
    }
    if (value !== null) {
      const problem = valueProblem(preference, value);
      if (problem) throw new PreferenceRuleError(problem);
    }
    const origin = preference.type === "url" ? this.#allowedOrigin(manifest, name, value, allowed) : undefined;
    await this.#queue.run(extensionId, async () => {
      if (preference.type === "url") await this.#options.grants!.grant(extensionId, name, origin);
      await this.#save(extensionId, preference, value);
    });
    this.#options.onChanged?.(extensionId, name, by);
  }

  /** The origin to grant for a `url` option's new value (undefined to revoke), once the person allowed it. */
  #allowedOrigin(manifest: Manifest, name: string, value: unknown, allowed: string | undefined): string | undefined {
    if (!this.#options.grants)
      throw new PreferenceRuleError(
        `"${name}" cannot be set here: svc has no permission ledger to record the grant in`,
      );
    if (value === null) return undefined;
    const grant = grantQuestion(manifest.svc.title, value as string)!;
    if (allowed !== grant.origin) throw new GrantNeededError(grant);
    return grant.origin;
  }

  #declared(manifest: Manifest, name: string): Preference {
    const preference = manifest.svc.preferences.find((p) => p.name === name);
    if (preference) return preference;
    const names = manifest.svc.preferences.map((p) => p.name);
    const declared = names.length ? `its options are: ${names.join(", ")}` : "it declares no options";
    throw new PreferenceRuleError(`${manifest.svc.id} has no option "${name}"; ${declared}`);
  }

  async #save(extensionId: string, preference: Preference, value: unknown): Promise<void> {
    if (preference.type === "password") {
      if (value === null) await this.#options.secrets.delete(extensionId, "pref", preference.name);
      else await this.#options.secrets.set(extensionId, "pref", preference.name, value as string);
      return;
    }
    const path = preferenceFile(this.#options.folder, extensionId);
    const stored = new Map(Object.entries(await readPreferenceFile(path)));
    if (value === null) stored.delete(preference.name);
    else stored.set(preference.name, value);
    await writePreferenceFile(path, Object.fromEntries(stored));
  }
}
