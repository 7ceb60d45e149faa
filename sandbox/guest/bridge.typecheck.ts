/**
 * Never bundled: `npm run check` compiles it (sandbox/guest/tsconfig.json) to prove that the
 * guest's bridge is typed by the one table of ops (src/bridge/op-table.ts). Each
 * `@ts-expect-error` fails the check if the line it guards ever compiles.
 */
import type { Bridge } from "./bridge.ts";

export function typedCalls(bridge: Bridge): void {
  // @ts-expect-error: no op "emt"
  void bridge.call("emt", { blip: {} });
  // @ts-expect-error: `emit` sends {blip: object}
  void bridge.call("emit", { blop: {} });
  // @ts-expect-error: `timer.cancel` is sync: bridge.callSync
  void bridge.call("timer.cancel", { id: 1 });
  // @ts-expect-error: `fetch` is async: bridge.call
  bridge.callSync("fetch", {
    requestId: 1,
    url: "",
    method: "GET",
    headers: [],
    bodyEncoding: "utf8",
    redirect: "follow",
  });
  const secret: Promise<{ value: string | null }> = bridge.call("secrets.get", { name: "apiKey" });
  // @ts-expect-error: `files.exists` answers a boolean
  const exists: Promise<string> = bridge.call("files.exists", { path: "a" });
  void secret;
  void exists;
}
