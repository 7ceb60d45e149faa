/**
 * Ids of pushed blips (SPEC.md `POST /v1/blips` rule 1). No imports: svc-hook uses this file
 * too and must start fast.
 */

/** The prefix pushed blips get when their id has no `/`. */
export const WEBHOOK_PREFIX = "webhook/";

/** Longest key made from a title; long titles still make readable ids. */
const MAX_SLUG = 64;

/**
 * A title lower-cased and hyphenated: letters and digits kept (any script), every other run of
 * characters one `-`, no `-` at either end. Empty when the title has no letter or digit.
 *
 * @example
 * slugFromTitle("Deploy API: v2!") // "deploy-api-v2"
 */
export function slugFromTitle(title: string): string {
  const words = title
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if ([...next].length > MAX_SLUG) return slug || [...word].slice(0, MAX_SLUG).join("");
    slug = next;
  }
  return slug;
}

/**
 * The id a pushed blip is stored under: an id without `/` gets `webhook/`; an id with one is kept.
 *
 * @example
 * pushedBlipId("deploy")        // "webhook/deploy"
 * pushedBlipId("ci/build")      // "ci/build"
 */
export function pushedBlipId(id: string): string {
  return id.includes("/") ? id : `${WEBHOOK_PREFIX}${id}`;
}

/**
 * The ids an HTTP client may mean by `id` on the end and DELETE routes, which take it with or
 * without the `webhook/` prefix: as given first, then with the prefix.
 *
 * @example
 * idCandidates("deploy")          // ["webhook/deploy"]
 * idCandidates("webhook/deploy")  // ["webhook/deploy", "webhook/webhook/deploy"]
 */
export function idCandidates(id: string): string[] {
  return id.includes("/") ? [id, `${WEBHOOK_PREFIX}${id}`] : [`${WEBHOOK_PREFIX}${id}`];
}
