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
import { isAbsolute } from "node:path";
import { HttpRecording } from "./http-recording.js";
import type { FetchTransport } from "./options.js";

export const REPLAY_ENV = "SVC_TEST_REPLAY";

/**
 * The extension ids and their recording files, `undefined` when the switch is off; throws with
 * a message naming what is wrong when it is set but unreadable.
 *
 * @example
 * replayFiles({ SVC_TEST_REPLAY: '{"app.svc.weather":"/t/weather.json"}' }) // Map { "app.svc.weather" => "/t/weather.json" }
 */
export function replayFiles(env: Readonly<Record<string, string | undefined>>): Map<string, string> | undefined {
  const raw = env[REPLAY_ENV];
  if (raw === undefined || raw === "") return undefined;
  const usage = `write it as {"<extension id>": "/absolute/path/recording.json"}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${REPLAY_ENV} is not JSON (${(error as Error).message}): ${usage}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw new Error(`${REPLAY_ENV} should be a JSON object: ${usage}`);
  const files = new Map<string, string>();
  for (const [id, file] of Object.entries(parsed)) {
    if (typeof file !== "string" || !isAbsolute(file))
      throw new Error(`${REPLAY_ENV}: the recording of ${JSON.stringify(id)} should be an absolute path: ${usage}`);
    files.set(id, file);
  }
  return files;
}

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
