/**
 * Small records the host keeps: working hours and secrets (handed to extensions), and
 * `webhook.json` (read by svckit and svc-hook to reach the app's local HTTP server).
 */
import { z } from "zod";
import { LIMITS } from "./limits.js";
import { utf8ByteLength } from "./text.js";
import { SECRET_NAME, SECRET_NAME_RULE } from "../secret-name.js";

const minuteOfDay = z
  .number()
  .int({ error: "should be a whole number of minutes" })
  .min(0, { error: "should be at least 0" })
  .max(1440, { error: "should be at most 1440 (midnight)" });

/**
 * The person's working hours: minutes after midnight. `end` before `start` means the hours run
 * past midnight. `ctx.workingHours()` gives `undefined` (on the wire `null`) when none are set.
 *
 * @example
 * { start: 540, end: 1050, weekdaysOnly: true } // 09:00–17:30, Monday to Friday
 */
export const workingHoursSchema = z.object({
  start: minuteOfDay,
  end: minuteOfDay,
  weekdaysOnly: z.boolean(),
});

/** Working hours, or `null` when none are set (`host.workingHours` result). */
export const workingHoursOrNullSchema = workingHoursSchema.nullable();

/**
 * A secret's name: 1–64 of `A–Z a–z 0–9 . _ -`.
 *
 * @example
 * "github.refresh_token"
 */
export const secretNameSchema = z.string().regex(SECRET_NAME, { error: `should be ${SECRET_NAME_RULE}` });

/**
 * A secret's value: a string of at most 16 KB, counted as 16,384 bytes of UTF-8.
 *
 * @example
 * "ghp_…"
 */
export const secretValueSchema = z.string().refine((s) => utf8ByteLength(s) <= LIMITS.secretValueBytes, {
  error: `should be at most ${LIMITS.secretValueBytes} bytes (16 KB) of UTF-8`,
});

export type WorkingHours = z.infer<typeof workingHoursSchema>;

/**
 * `<support>/webhook.json`, which the app writes at every launch (mode 0600): the local HTTP
 * server's port and a new bearer token.
 *
 * @example
 * { port: 47811, token: "3f9c…" }
 */
export const webhookFileSchema = z.object({
  port: z.number().int().min(1).max(65535),
  token: z.string().min(1),
});

export type WebhookFile = z.infer<typeof webhookFileSchema>;
