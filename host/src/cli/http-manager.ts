/**
 * The operations of the running app, over its authenticated local API (`/v1/extensions`), through
 * the one client (@svc/runtime's app-client.ts: `webhook.json` read on every call, the port's
 * proof before the token) and the routes of sdk's `V1_ROUTES`.
 */
import type { V1Params, V1RouteName } from "@svc/api";
import { AppUnreachableError, callRoute, type AppAnswer } from "@svc/runtime";
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
    return ((await this.call("listExtensions", {})) as { extensions: ExtensionInfo[] }).extensions;
  }

  async enable(id: string): Promise<void> {
    await this.call("enableExtension", { id });
  }

  async disable(id: string): Promise<void> {
    await this.call("disableExtension", { id });
  }

  async uninstall(id: string): Promise<UninstallReport> {
    return (await this.call("uninstallExtension", { id })) as UninstallReport;
  }

  async setOption(id: string, name: string, value: unknown, allowed?: string): Promise<void> {
    await this.call("setOption", { id, name }, { value, ...(allowed === undefined ? {} : { allowed }) });
  }

  async run(id: string): Promise<void> {
    await this.call("runExtension", { id });
  }

  async review(id: string): Promise<LedgerReview> {
    return (await this.call("reviewExtension", { id })) as LedgerReview;
  }

  async accept(id: string, reviewed: string): Promise<void> {
    await this.call("acceptExtension", { id }, { reviewed });
  }

  private async call<N extends V1RouteName>(name: N, params: V1Params<N>, body?: unknown): Promise<unknown> {
    let answer: AppAnswer;
    try {
      answer = await callRoute(this.webhookFile, name, params, { body, timeoutMs: TIMEOUT_MS });
    } catch (error) {
      if (error instanceof AppUnreachableError)
        throw new ManageError(
          error.reason === "not-svc"
            ? error.message
            : `svc is running but does not answer on 127.0.0.1:${error.port} (${error.message})`,
          "unavailable",
        );
      throw error;
    }
    const found = answer.body ?? {};
    if (answer.status < 200 || answer.status > 299) {
      const message = (found as { error?: unknown }).error;
      throw new ManageError(
        typeof message === "string" ? message : `svc answered ${answer.status}`,
        codeOf(answer.status),
      );
    }
    return typeof found === "object" ? found : {};
  }
}
