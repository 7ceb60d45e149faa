/**
 * The operations of the running app, over its authenticated local API (`/v1/extensions`).
 * `webhook.json` is read on every call (the token is new at every launch), and the port proves
 * it is svc's before the token goes to it (`GET /v1/proof`, @svc/runtime's app-link.ts).
 */
import { NotSvcError, proveApp } from "@svc/runtime";
import { readWebhookFile } from "../support/index.js";
import {
  ManageError,
  MANAGE_HTTP_STATUS,
  type ExtensionInfo,
  type ExtensionManager,
  type ManageErrorCode,
  type UninstallReport,
} from "../manage/index.js";
import type { LedgerReview } from "../ledger/index.js";

/** How long one call may take; a `run` only starts the run, so this is generous. */
const TIMEOUT_MS = 30_000;

function codeOf(status: number): ManageErrorCode {
  const found = (Object.entries(MANAGE_HTTP_STATUS) as [ManageErrorCode, number][]).find(([, s]) => s === status);
  return found?.[0] ?? "unavailable";
}

/**
 * @example
 * const manager = new HttpManager(support.webhookFile);
 * await manager.list();
 */
export class HttpManager implements ExtensionManager {
  constructor(private readonly webhookFile: string) {}

  async list(): Promise<ExtensionInfo[]> {
    return ((await this.call("GET", "/v1/extensions")) as { extensions: ExtensionInfo[] }).extensions;
  }

  async enable(id: string): Promise<void> {
    await this.call("POST", `/v1/extensions/${encodeURIComponent(id)}/enable`);
  }

  async disable(id: string): Promise<void> {
    await this.call("POST", `/v1/extensions/${encodeURIComponent(id)}/disable`);
  }

  async uninstall(id: string): Promise<UninstallReport> {
    return (await this.call("DELETE", `/v1/extensions/${encodeURIComponent(id)}`)) as UninstallReport;
  }

  async setOption(id: string, name: string, value: unknown, allowed?: string): Promise<void> {
    await this.call("PUT", `/v1/extensions/${encodeURIComponent(id)}/options/${encodeURIComponent(name)}`, {
      value,
      ...(allowed === undefined ? {} : { allowed }),
    });
  }

  async run(id: string): Promise<void> {
    await this.call("POST", `/v1/extensions/${encodeURIComponent(id)}/run`);
  }

  async review(id: string): Promise<LedgerReview> {
    return (await this.call("GET", `/v1/extensions/${encodeURIComponent(id)}/review`)) as LedgerReview;
  }

  async accept(id: string, reviewed: string): Promise<void> {
    await this.call("POST", `/v1/extensions/${encodeURIComponent(id)}/accept`, { reviewed });
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const { port, token } = await readWebhookFile(this.webhookFile);
    const silent = (error: Error) =>
      new ManageError(`svc is running but does not answer on 127.0.0.1:${port} (${error.message})`, "unavailable");
    await proveApp(port, token, { timeoutMs: TIMEOUT_MS }).catch((error: Error) => {
      throw error instanceof NotSvcError ? new ManageError(error.message, "unavailable") : silent(error);
    });
    let response: Response;
    try {
      response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw silent(error as Error);
    }
    const text = await response.text();
    let answer: unknown;
    try {
      answer = text ? JSON.parse(text) : {};
    } catch {
      answer = {};
    }
    if (!response.ok) {
      const message = (answer as { error?: unknown }).error;
      throw new ManageError(
        typeof message === "string" ? message : `svc answered ${response.status}`,
        codeOf(response.status),
      );
    }
    return answer;
  }
}
