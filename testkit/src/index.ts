/**
 * @svc/testkit: test an svc extension in the app's own sandbox and runtime processing, with a
 * fake app around it, one manual clock, and HTTP recorded once and replayed offline.
 *
 * @example
 * const ext = await loadExtension(".", { recording: "test/recordings/status.json" });
 * await ext.run();
 * assert.equal(ext.blips[0].title, "GitHub");
 * await ext.dispose();
 */
export { loadExtension, type LoadOptions } from "./load-extension.js";
export { TestExtension, DEFAULT_START, type LogLine } from "./test-extension.js";
export { TestClock } from "./test-clock.js";
export { resolvePreferences } from "./preferences.js";
export { FakeHost, HOST_OPS, type FakeHostOptions, type HostOp, type SignIn } from "./fake-host.js";
export { FakeForwardedCalls, type EmittedBlip, type LineOutput } from "./fake-forwarded-calls.js";
// The recording lives in the sandbox, where svc-runtime's SVC_TEST_REPLAY uses it too.
export * from "@svc/sandbox/recording";
export { matchSnapshot, snapshotOf, lineDiff, SnapshotMismatchError, type SnapshotOptions } from "./snapshot.js";
export { ManualClock } from "./manual-clock.js";
export { toMilliseconds } from "./duration.js";
export { unansweredAddress } from "./unanswered.js";
export { ProgramRecording, type ProgramRecordingFile, type RecordedRun } from "./program-recording.js";
export { FolderView } from "./folder-view.js";
