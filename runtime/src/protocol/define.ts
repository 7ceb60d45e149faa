/**
 * How a protocol message is declared: its method string and its param/result schemas travel
 * together, so a call site can neither misspell a method nor mistype its params. Both sides of
 * the pipe (svc-runtime and svc-host) import the same declarations.
 */
import type { z } from "zod";

/** A request: the receiver answers with a result or an error. */
export interface RequestType<P, R> {
  readonly kind: "request";
  readonly method: string;
  readonly params: z.ZodType<P>;
  readonly result: z.ZodType<R>;
}

/** A notification: fire and forget, never answered. */
export interface NotificationType<P> {
  readonly kind: "notification";
  readonly method: string;
  readonly params: z.ZodType<P>;
}

/** The params type a declaration carries. */
export type ParamsOf<T> = T extends RequestType<infer P, unknown> ? P : T extends NotificationType<infer P> ? P : never;
/** The result type a request declaration carries. */
export type ResultOf<T> = T extends RequestType<unknown, infer R> ? R : never;

/**
 * Declares a request once.
 *
 * @example
 * export const Shutdown = request("shutdown", z.object({}), z.object({}));
 * connection.onRequest(Shutdown, async () => ({}));
 */
export function request<PS extends z.ZodType, RS extends z.ZodType>(
  method: string,
  params: PS,
  result: RS,
): RequestType<z.output<PS>, z.output<RS>> {
  return Object.freeze({ kind: "request", method, params, result }) as RequestType<z.output<PS>, z.output<RS>>;
}

/**
 * Declares a notification once.
 *
 * @example
 * export const Log = notification("log", z.object({ level: z.string(), message: z.string() }));
 * connection.sendNotification(Log, { level: "info", message: "hi" });
 */
export function notification<PS extends z.ZodType>(method: string, params: PS): NotificationType<z.output<PS>> {
  return Object.freeze({ kind: "notification", method, params }) as NotificationType<z.output<PS>>;
}
