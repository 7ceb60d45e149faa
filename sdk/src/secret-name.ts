/**
 * SPEC.md "Secret names", defined once: the names of `ctx.secrets.*`, of password preferences and
 * of OAuth providers, checked by the SDK's schemas, the sandbox (before a call leaves the guest),
 * the runtime and svc-host. No zod and no imports but the limits, so a sandbox thread loads it
 * cheaply.
 */
import { LIMITS } from "./schemas/limits.js";

/** 1–64 characters from A–Z a–z 0–9 `.` `_` `-`. */
export const SECRET_NAME = new RegExp(`^[A-Za-z0-9._-]{1,${LIMITS.secretNameChars}}$`);

/** What a name must be, said to a person: `secret name "a b" should be ${SECRET_NAME_RULE}`. */
export const SECRET_NAME_RULE = `1–${LIMITS.secretNameChars} characters from A–Z a–z 0–9 . _ -`;

/** @example isSecretName("github.refresh_token") // true; isSecretName("api key") // false */
export function isSecretName(name: unknown): name is string {
  return typeof name === "string" && SECRET_NAME.test(name);
}
