/**
 * The preference values `svckit validate` runs with: what a fresh install has — each option's
 * default, else nothing (null), never a stored password — with `--prefs` and, for passwords,
 * `SVC_PREF_<NAME>` environment variables on top, each checked as the app checks a value.
 */
import { preferenceValueProblem, unsetRequiredOptions, type SvcManifest } from "@svc/api";
import { CliError } from "../errors.js";

export type PreferenceValues = Record<string, unknown>;

/**
 * The environment variable a password option is read from.
 *
 * @example passwordVariable("apiToken") // "SVC_PREF_APITOKEN"
 */
export function passwordVariable(name: string): string {
  return `SVC_PREF_${name.replace(/[^A-Za-z0-9]/g, "_").toUpperCase()}`;
}

/**
 * @example
 * defaultPreferences(manifest.svc) // { apiUrl: null, apiToken: null, units: "metric" }
 */
export function defaultPreferences(svc: SvcManifest): PreferenceValues {
  const values: PreferenceValues = {};
  for (const preference of svc.preferences) {
    if (preference.type === "password") values[preference.name] = null;
    else values[preference.name] = preference.default ?? (preference.type === "checkbox" ? false : null);
  }
  return values;
}

/**
 * The defaults, then `--prefs` (a JSON object of option name → value), then passwords from the
 * environment. A wrong name or value is a usage error naming it; a password in `--prefs` is
 * refused (command lines end up in shell history and process lists).
 *
 * @example
 * chosenPreferences(svc, '{"apiUrl": "https://api.example.com"}', { SVC_PREF_APITOKEN: "s3cret" })
 */
export function chosenPreferences(
  svc: SvcManifest,
  prefsJson: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): PreferenceValues {
  const values = defaultPreferences(svc);
  const names = svc.preferences.map((p) => p.name);
  if (prefsJson !== undefined) {
    let given: unknown;
    try {
      given = JSON.parse(prefsJson);
    } catch (error) {
      throw CliError.usage(`--prefs is not JSON: ${(error as Error).message}`, "validate");
    }
    if (typeof given !== "object" || given === null || Array.isArray(given))
      throw CliError.usage(
        '--prefs should be a JSON object of option name → value, like \'{"apiUrl": "https://…"}\'',
        "validate",
      );
    for (const [name, value] of Object.entries(given)) {
      const preference = svc.preferences.find((p) => p.name === name);
      if (!preference)
        throw CliError.usage(
          `--prefs: ${JSON.stringify(name)} is not an option of this extension; ${names.length ? `its options are: ${names.join(", ")}` : "it declares none"}`,
          "validate",
        );
      if (preference.type === "password") {
        throw CliError.usage(
          `--prefs: ${JSON.stringify(name)} is a password option: give it in the environment instead, as ${passwordVariable(name)}=… (a command line is kept in shell history)`,
          "validate",
        );
      }
      const problem = value === null ? undefined : preferenceValueProblem(preference, value);
      if (problem) throw CliError.usage(`--prefs: ${problem}`, "validate");
      values[name] = value;
    }
  }
  for (const preference of svc.preferences) {
    const secret = env[passwordVariable(preference.name)];
    if (preference.type === "password" && secret !== undefined) {
      const problem = preferenceValueProblem(preference, secret);
      if (problem) throw CliError.usage(`${passwordVariable(preference.name)}: ${problem}`, "validate");
      values[preference.name] = secret;
    }
  }
  return values;
}

/**
 * One line per required option left without a value, saying how to give one.
 *
 * @example
 * unsetRequiredProblems(svc, values) // ['option "apiUrl" (API URL) is required and not set; give it: --prefs \'{"apiUrl": …}\'']
 */
export function unsetRequiredProblems(svc: SvcManifest, values: PreferenceValues): string[] {
  return unsetRequiredOptions(svc.preferences, values).map(
    (p) =>
      `option ${JSON.stringify(p.name)} (${p.title}) is required and not set; give it: ${p.type === "password" ? `${passwordVariable(p.name)}=… svckit validate` : `--prefs '{${JSON.stringify(p.name)}: …}'`}`,
  );
}

/** Values as printed: a password shows only whether it is set. */
export function shownPreferences(svc: SvcManifest, values: PreferenceValues): PreferenceValues {
  const shown = { ...values };
  for (const p of svc.preferences) if (p.type === "password" && shown[p.name] !== null) shown[p.name] = "(set)";
  return shown;
}
