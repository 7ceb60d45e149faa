/**
 * HTTP record and replay: the recording lives in @svc/sandbox (capabilities/http-recording.ts),
 * where svc-runtime's test replay switch (SVC_TEST_REPLAY) uses the same code; the test kit
 * uses it from here.
 */
export {
  HttpRecording,
  UnmatchedRequestError,
  jsonExchange,
  formatRecording,
  type RecordedExchange,
  type RecordingFile,
} from "@svc/sandbox";
