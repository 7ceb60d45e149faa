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
