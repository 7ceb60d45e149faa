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
export { loadExtension, TestExtension, TestClock, DEFAULT_START, resolvePreferences, type LoadOptions, type LogLine } from "./test-extension.js";
export { FakeHost, HOST_OPS, type FakeHostOptions, type HostOp, type SignIn } from "./fake-host.js";
export { FakeHostCalls, type EmittedBlip, type LineOutput } from "./fake-host-calls.js";
export { HttpRecording, UnmatchedRequestError, jsonExchange, formatRecording, type RecordedExchange, type RecordingFile } from "./http-recording.js";
export { matchSnapshot, snapshotOf, lineDiff, SnapshotMismatchError, type SnapshotOptions } from "./snapshot.js";
export { ManualClock } from "./manual-clock.js";
export { toMilliseconds } from "./duration.js";
