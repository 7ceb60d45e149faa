/**
 * A switch for tests only: `SVC_TEST_REPLAY` names extensions whose fetches are answered from
 * an HTTP recording (the test kit's format, `http-recording.ts`) instead of the network, so an
 * end-to-end test can run a real extension in the real app on a machine that reaches no API.
 *
 * `SVC_TEST_REPLAY='{"app.svc.weather": "/abs/path/test/recordings/weather.json"}'`
 *
 * The fence is unchanged: every hop is checked against `permissions.network` (and the person's
 * grants) before the transport sees it, exactly as without the switch. A listed extension never
 * reaches the network, not even for a request the recording lacks (that fetch fails, naming it).
 * Extensions not listed are untouched. svc-runtime announces the switch on stderr when it is
 * set, and refuses to start when its value cannot be read (runtime/src/main.ts).
 */
import { HttpRecording } from "./http-recording.js";
import type { FetchTransport } from "./options.js";
import { replayFiles } from "../test-switches.js";

/**
 * The transport for the switch's value, or `undefined` when it is off. A value that cannot be
 * read fails every fetch with that problem: the switch never falls back to the network.
 *
 * @example
 * createCapabilities({ transport: replayTransport(process.env) });
 */
export function replayTransport(env: Readonly<Record<string, string | undefined>>): FetchTransport | undefined {
  let files: Map<string, string> | undefined;
  try {
    files = replayFiles(env);
  } catch (error) {
    const problem = (error as Error).message;
    return () => Promise.reject(new TypeError(`fetch: refused: ${problem}`));
  }
  if (!files) return undefined;
  const recordings = new Map<string, Promise<HttpRecording>>();
  return async (hop, network, extensionId) => {
    const file = files.get(extensionId);
    if (file === undefined) return network(hop);
    let recording = recordings.get(extensionId);
    if (!recording) {
      recording = HttpRecording.open(file, { mode: "replay" });
      recordings.set(extensionId, recording);
    }
    return (await recording).transport(hop, network, extensionId);
  };
}
