/**
 * @svc/runtime's public face: the protocol (every method declared once, the error table), the
 * JSON-RPC connection and the NDJSON framing (svc-host imports these to speak to svc-runtime), and
 * where the support folder is.
 */
export * from "./protocol/index.js";
export * from "./connection.js";
export * from "./framing.js";
export * from "./support-folder.js";
export * from "./precompile.js";
/** How the network fence classes an address (loopback, private, cloud metadata …), for the install summary. */
export { classifyAddress, type AddressClass } from "@svc/sandbox";
/** Tags on the programs extensions run, so the host can end them if the runtime dies (sandbox CAPABILITIES.md). */
export { EXEC_OWNER_VARIABLE, killTagged, newTagPrefix } from "@svc/sandbox";
