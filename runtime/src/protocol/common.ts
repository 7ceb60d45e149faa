/** Schemas shared by several protocol messages. */
import { z } from "zod";
import { LOG_LEVELS, secretNameSchema } from "@svc/api";

/** The protocol versions this runtime speaks. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [1];
export const PROTOCOL_VERSION = 1;

/**
 * An extension id: reverse-DNS, and safe as one folder name (`Data/<id>/`), so no `/`, no `..`
 * on its own, no leading dot.
 */
export const ExtensionIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,126}[A-Za-z0-9])?$/,
    "should be a reverse-DNS id such as com.example.weather",
  );

export const LogLevelSchema = z.enum(LOG_LEVELS);
export type LogLevel = z.output<typeof LogLevelSchema>;

export const StatusSchema = z.enum(["loaded", "running", "idle", "crashed"]);
export type ExtensionStatus = z.output<typeof StatusSchema>;

export const TriggerTypeSchema = z.enum(["launch", "interval", "manual", "preferences"]);

/** SPEC "Secret names": 1–64 characters from A–Z a–z 0–9 `.` `_` `-`. */
export const SecretNameSchema = secretNameSchema;

/** SPEC "Secret values": at most 16KB, counted in UTF-8 bytes. */
export const SECRET_VALUE_MAX_BYTES = 16 * 1024;
export const SecretValueSchema = z
  .string()
  .refine((value) => Buffer.byteLength(value, "utf8") <= SECRET_VALUE_MAX_BYTES, {
    message: `should be at most ${SECRET_VALUE_MAX_BYTES} bytes`,
  });

/** SPEC "OAuth connection record"; a token is never part of it. */
export const ConnectionRecordSchema = z.looseObject({
  id: z.string(),
  account: z.string().optional(),
  label: z.string().optional(),
  connectedAt: z.union([z.number(), z.string()]),
  scopes: z.array(z.string()).optional(),
  needsReconnect: z.boolean(),
});
export type ConnectionRecord = z.output<typeof ConnectionRecordSchema>;

/** SPEC "Working hours": minutes after midnight. */
export const WorkingHoursSchema = z.object({
  start: z.number().int().min(0).max(1440),
  end: z.number().int().min(0).max(1440),
  weekdaysOnly: z.boolean(),
});

export const EmptySchema = z.object({});
export type Empty = Record<string, never>;
