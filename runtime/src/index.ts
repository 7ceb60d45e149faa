/**
 * @svc/runtime's public face: the protocol (every method declared once, the error table), the
 * JSON-RPC connection and the NDJSON framing (svc-host imports these to speak to svc-runtime),
 * where the support folder is, how a local client proves it reached svc (app-link.ts), the fence on the file paths a tool hands back (the host checks
 * them again with the same code), and how a long-lived svc process ends (process-lifetime.ts).
 */
export * from "./protocol/index.js";
export * from "./connection.js";
export * from "./framing.js";
export * from "./support-folder.js";
// How a local client knows it reached svc (the proof of the webhook token) and the UI address shape.
export * from "./app-link.js";
export * from "./app-client.js";
export * from "./precompile.js";
export { RUNTIME_NODE_FLAGS, runtimeEnvironment } from "./launch-options.js";
// The runtime's own service, for @svc/testkit, which runs it in-process over a pair of connections
// (the same processing as svc-runtime: validation, cuts, the 4 KB drop, seq, tools).
export { RuntimeService, type RuntimeServiceOptions } from "./runtime-service.js";
export { DEFAULT_CONFIG, type RuntimeConfig } from "./config.js";
export type { SandboxFactory } from "./sandbox-factory.js";
// The forwarded ops, how the runtime asks the host and checks the ops it serves itself: the test
// kit's fake app (svckit validate) answers with the same code, so both refuse alike.
export {
  HOST_REQUESTS,
  askHost,
  checkEndArgs,
  checkLogArgs,
  checkRemoveArgs,
  takeResponse,
  type HostOp,
  type HostAnswers,
  type AsyncHostAnswers,
  type HostRequestOf,
} from "./forwarder.js";
export { ReplyBook } from "./replies.js";
export type { Clock } from "./clock.js";
export { ToolPathFence, fenceBlocks, fencePaths, type PathVerdict, type DroppedPath } from "./tool-paths.js";
/** What the fence enforces for each manifest entry and how it classes addresses and paths, for the install review (the same functions). */
export {
  classifyAddress,
  canonicalNetworkEntry,
  networkEntryClass,
  networkEntryText,
  canonicalOrigin,
  originText,
  type GrantedOrigin,
  resolveListedPath,
  classifyPath,
  holdsSupportFolder,
  refusedPath,
  expandHome,
  isInside,
  type AddressClass,
  type HostPattern,
  type ListedPath,
  type PathClass,
  type PathKind,
  type PathPlaces,
} from "@svc/sandbox";
export * from "./process-lifetime.js";
/** Tags on the programs extensions run, so the host can end them if the runtime dies (sandbox CAPABILITIES.md). */
export { EXEC_OWNER_VARIABLE, killTagged, newTagPrefix } from "@svc/sandbox";
export * from "./stack-map.js";
