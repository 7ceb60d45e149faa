/**
 * What a `svckit new` template is: the manifest parts that differ between templates and the
 * `src/index.ts` it starts from. Everything else (package.json, tsconfig, README, .gitignore)
 * is shared, in project-files.ts.
 */

export const TEMPLATE_NAMES = ["tracker", "payments", "deploys", "errors", "traffic"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export interface Template {
  name: TemplateName;
  /** The manifest's description, and the README's first line. */
  description: string;
  /** A system symbol name. */
  icon: string;
  categories: string[];
  interval: string;
  /** What the API URL preference's placeholder shows. */
  apiExample: string;
  /** The JSON the extension expects from that URL, shown in the README. */
  apiShape: string;
  /** `src/index.ts`. */
  source: string;
  /** What the recorded API answers at `apiExample`, in `test/recordings/api.json`. */
  apiSample: unknown;
  /** The tests after the shared opening (see snippets.ts `testFile`): run offline by `svckit test`. */
  tests: string;
}
