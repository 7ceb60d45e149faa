/**
 * Code every template's `src/index.ts` shares, written once here and pasted into each
 * generated file (a generated extension stands alone: it has no helper module of ours).
 */

/** The preference type, the sample-data label and the fetch helper. */
export const COMMON_CODE = `/** The options a person sets in Settings (see "preferences" in package.json). */
type Prefs = { apiUrl: string | null; apiToken: string | null };

/** Shown while no API URL is set, so sample figures are never taken for real ones. */
const SAMPLE_NOTE = "Sample data · set the API URL in Settings";

/** The blip's title, marked when the figures are samples. */
function titled(title: string, sample: boolean): string {
  return sample ? \`\${title} (sample)\` : title;
}

/**
 * GETs JSON from your API. The token, when set, travels as a Bearer token. The API's host
 * must be listed in "permissions.network" in package.json, or the sandbox refuses the call.
 */
async function fetchJson<T>(url: string, token: string | null): Promise<T> {
  const response = await fetch(url, { headers: token ? { authorization: \`Bearer \${token}\` } : {} });
  if (!response.ok) throw new Error(\`\${url} answered \${response.status}\`);
  return (await response.json()) as T;
}`;

/**
 * `test/extension.test.ts`: the shared opening (imports, where the API is replayed from, and the
 * sample-data test every template passes), then the template's own tests.
 */
export function testFile(apiExample: string, tests: string): string {
  return `/**
 * Tests for this extension, run by \`npx svckit test\` with Node's test runner and @svc/testkit:
 * the app's own sandbox and processing, a fake app around it, and a clock that moves only when a
 * test moves it. The API is replayed from test/recordings/api.json, so the tests run offline;
 * once API URL points at your real API, \`npx svckit test --record\` records it again.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadExtension, matchSnapshot } from "@svc/testkit";

/** The extension pointed at the API, whose answers come from the recording. */
const withApi = {
  preferences: { apiUrl: ${JSON.stringify(apiExample)}, apiToken: "test-token" },
  recording: "test/recordings/api.json",
};

test("shows sample data, marked as such, until an API URL is set", async (t) => {
  const ext = await loadExtension(".");
  t.after(() => ext.dispose());
  await ext.run();
  assert.equal(ext.blips.length, 1);
  assert.match(ext.blips[0].title, /\\(sample\\)$/);
});
${tests}`;
}
