/**
 * A real `CapabilityContext` for tests and tools that drive the handlers without a sandbox:
 * a temporary data folder, recorded denials and pushes, and a dispose that aborts the signal.
 */
import { mkdtempSync, mkdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import type { Denial, Permissions } from "../types.js";
import type { CapabilityContext } from "./context.js";
import { formatDenial } from "./denial.js";

export interface TestContext {
  cx: CapabilityContext;
  /** The temporary root holding `Data/<id>/`; removed by `cleanup`. */
  root: string;
  denials: Omit<Denial, "at">[];
  pushes: { kind: string; data: unknown }[];
  logs: string[];
  /** Files the "user gave" to a running tool; tests push into it. */
  toolFiles: string[];
  /** Aborts the context's signal, as disposing a sandbox does. */
  dispose(): void;
  /** dispose() and remove the temporary folder. */
  cleanup(): void;
}

/**
 * @example
 * const t = createTestContext({ network: ["127.0.0.1"] });
 * // With `supportIsRoot`, the temporary root is svc's support folder (the fence refuses it).
 * await caps.async.fetch({ requestId: 1, url: "http://127.0.0.1:8080/" }, t.cx);
 */
export function createTestContext(
  permissions: Partial<Permissions> = {},
  id = "com.example.test",
  { supportIsRoot = false } = {},
): TestContext {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "svc-caps-")));
  const dataDir = join(root, "Data", id);
  mkdirSync(dataDir, { recursive: true });
  const controller = new AbortController();
  const t: TestContext = {
    root,
    denials: [],
    pushes: [],
    logs: [],
    toolFiles: [],
    dispose: () => controller.abort(),
    cleanup() {
      controller.abort();
      rmSync(root, { recursive: true, force: true });
    },
    cx: {
      id,
      permissions: { network: [], files: [], exec: [], ...permissions },
      dataDir,
      ...(supportIsRoot ? { supportDir: root } : {}),
      signal: controller.signal,
      deny(denial) {
        t.denials.push(denial);
        return new Error(formatDenial(denial));
      },
      push: (kind, data) => void t.pushes.push({ kind, data: JSON.parse(JSON.stringify(data)) }),
      toolFiles: () => t.toolFiles,
      log: (level, message) => void t.logs.push(`${level}: ${message}`),
    },
  };
  return t;
}

export interface TestServer {
  port: number;
  /** `http://127.0.0.1:<port><path>` */
  url(path?: string): string;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 with a free port.
 * @example const server = await startHttpServer((req, res) => res.end("hi"));
 */
export async function startHttpServer(handler: RequestListener): Promise<TestServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = "/") => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
