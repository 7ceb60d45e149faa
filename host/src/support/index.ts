/**
 * The support folder (SPEC.md "File layout", DESIGN.md "Entry points"): where it is, what is in
 * it, `webhook.json`, the `svc-hook` launcher, and atomic whole-file writes.
 *
 * @example
 * const support = await prepareSupportFolder();        // SVC_HOME or the platform default
 * support.extensions; support.data; support.webhookFile; support.blipsFile
 */
export { supportRoot, supportPaths, type SupportPaths } from "./paths.js";
export { prepareSupportFolder, type PrepareOptions } from "./support-folder.js";
export { newToken, readWebhookFile, writeWebhookFile, WebhookFileError, type WebhookInfo } from "./webhook-file.js";
export { installHookLauncher, defaultHelperPath, type HookLauncherOptions } from "./hook-launcher.js";
export { writeFileAtomic, type AtomicWriteOptions } from "./atomic-file.js";
export {
  acquireInstanceLock,
  runningHolder,
  AlreadyRunningError,
  type InstanceLock,
  type LockHolder,
} from "./instance-lock.js";
export { readDisabled, setDisabled } from "./disabled-file.js";
export { errorLine, crashText, ERROR_LINE_MAX } from "./command-output.js";
