/**
 * What the host does with each notification the runtime sends: blips into the store (whose
 * change is the one `blip` event), tools and status to the extension set, replies to held
 * webhook requests; and each becomes exactly one event on the bus (`publish`), which the
 * terminal, the page's feed and `GET /v1/logs` hear.
 */
import {
  BlipEnd,
  BlipRemove,
  BlipUpdate,
  ExtensionDenied,
  ExtensionStatusChanged,
  ExtensionTools,
  Log,
  WebhookRespond,
  type Connection,
} from "@svc/runtime";
import { decodeToolSpec, type ToolSpec } from "@svc/api";
import type { HostEvent } from "../events/index.js";
import type { WebhookReply } from "../http/index.js";
import type { BlipStore } from "../store/index.js";

export interface NotificationTargets {
  store: BlipStore;
  setTools(extensionId: string, tools: ToolSpec[]): void;
  /** The runtime's `extension.status` of an extension. */
  setStatus?(extensionId: string, status: string, error?: string): void;
  respond(reply: WebhookReply): boolean;
  /** The event bus. */
  publish(event: HostEvent): void;
}

/**
 * @example
 * registerNotifications(connection, { store, setTools, respond: (r) => http.respond(r), publish: (e) => bus.publish(e) });
 */
export function registerNotifications(connection: Connection, targets: NotificationTargets): void {
  const { store, publish: emit } = targets;
  connection.onNotification(BlipUpdate, (params) => {
    if (!store.applyUpdate(params))
      emit({
        type: "log",
        level: "debug",
        extensionId: params.extensionId,
        message: `blip.update ${params.payload.id} #${params.payload.seq} ignored`,
      });
  });
  connection.onNotification(BlipEnd, (params) => void store.applyEnd(params));
  connection.onNotification(BlipRemove, (params) => void store.applyRemove(params));
  connection.onNotification(ExtensionTools, ({ extensionId, tools }) => {
    // Decoded again on this side: the host lists and checks requests against canonical specs only.
    const specs: ToolSpec[] = [];
    for (const raw of tools) {
      const decoded = decodeToolSpec(raw);
      if (decoded.ok) specs.push(decoded.spec);
      else
        emit({
          type: "log",
          level: "warn",
          extensionId,
          message: `tool ${JSON.stringify(raw.id)} left out: ${decoded.error}`,
        });
    }
    targets.setTools(extensionId, specs);
  });
  connection.onNotification(ExtensionStatusChanged, (params) => {
    const { extensionId, status, error } = params;
    targets.setStatus?.(extensionId, status, error);
    emit({ type: "status", ...params });
  });
  connection.onNotification(ExtensionDenied, ({ extensionId, denial }) =>
    emit({ type: "denied", extensionId, denial }),
  );
  connection.onNotification(WebhookRespond, (reply) => {
    if (!targets.respond(reply))
      emit({ type: "log", level: "debug", message: `webhook.respond ${reply.replyId}: nobody is waiting any more` });
  });
  connection.onNotification(Log, (params) => emit({ type: "log", ...params }));
}
