/**
 * What a Home Assistant automation sends through svc-hook (see README.md: `shell_command`):
 * `{"title", "message", "entity_id"?, "state"?}`. Only these are read; strings are clipped.
 */
import { clip } from "@svc/api";

const STATES = new Set(["idle", "running", "waiting", "success", "warning", "failure", "cancelled"]);

export interface Push {
  title: string;
  message: string;
  entityId?: string;
  state?: "idle" | "running" | "waiting" | "success" | "warning" | "failure" | "cancelled";
  icon: string;
}

/** @example readPush({ title: "Washer", message: "Done" }) // { title: "Washer", message: "Done", icon: "house" } */
export function readPush(body: unknown): Push | undefined {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const title = typeof b.title === "string" && b.title.trim() ? clip(b.title, 60) : undefined;
  const message = typeof b.message === "string" && b.message.trim() ? clip(b.message, 120) : undefined;
  if (!title && !message) return undefined;
  const state = typeof b.state === "string" && STATES.has(b.state) ? (b.state as Push["state"]) : undefined;
  return {
    title: title ?? "Home Assistant",
    message: message ?? title!,
    ...(typeof b.entity_id === "string" && b.entity_id ? { entityId: b.entity_id } : {}),
    ...(state ? { state } : {}),
    icon: "bell",
  };
}
