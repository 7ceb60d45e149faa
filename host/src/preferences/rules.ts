/**
 * What value each kind of preference takes: the SDK's one rule (`preferenceValueProblem`), used
 * both when a value is set and when a stored one is read back (a manifest may have changed since).
 */
export { preferenceValueProblem as valueProblem, PREFERENCE_TEXT_MAX_BYTES } from "@svc/api";
