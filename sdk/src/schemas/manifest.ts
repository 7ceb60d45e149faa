/**
 * The manifest: `package.json` with `name`, `version`, `main` and the `svc` object
 * (SPEC.md, "Manifest"). Read it with `parseManifest` (processing), which keeps an extension
 * whose `oauth` block has mistakes and reports them apart; `manifestSchema` alone refuses them.
 */
import { z } from "zod";
import { LIMITS } from "./limits.js";
import { oauthProviderSchema, providerNameSchema } from "./oauth.js";
import { permissionsSchema } from "./permissions.js";
import { atMost, preferenceSchema } from "./preferences.js";
import { maxChars, nonEmpty } from "./text.js";
import { displayLine, displayParagraph, nonEmptyDisplayLine } from "../display/display-text.js";

/**
 * Seconds in an interval written `<n>s`, `<n>m` or `<n>h`; `undefined` when not of that form.
 *
 * @example
 * intervalSeconds("5m") // 300
 */
export function intervalSeconds(interval: string): number | undefined {
  const match = /^(\d{1,9})([smh])$/.exec(interval);
  if (!match) return undefined;
  const unit = match[2] === "h" ? 3600 : match[2] === "m" ? 60 : 1;
  return Number(match[1]) * unit;
}

/** A run interval: `<n>s`, `<n>m` or `<n>h`, at least 10 seconds. @example "15m" */
export const intervalSchema = z
  .string()
  .refine((s) => intervalSeconds(s) !== undefined, {
    error: "should be <n>s, <n>m or <n>h, like 30s or 15m",
    abort: true,
  })
  .refine((s) => (intervalSeconds(s) ?? 0) >= LIMITS.minIntervalSeconds, {
    error: `should be at least ${LIMITS.minIntervalSeconds}s`,
  });

/** A reverse-DNS extension id, e.g. `com.example.deploys`: two or more dot-separated parts. */
export const extensionIdSchema = z
  .string()
  .max(128, { error: "should be at most 128 characters" })
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)+$/, {
    error: "should be a reverse-DNS id like com.example.deploys",
  });

export const triggersSchema = z.object({
  /** Receive `POST /v1/hooks/<id>` bodies as events. */
  webhook: z.boolean().default(false),
  /** Paths whose changes arrive as events; each must be in `permissions.files` too. */
  watch: atMost(nonEmpty, LIMITS.manifestListEntries, "paths").default([]),
});

/** Everything in `svc` but `oauth`, which `parseManifest` checks provider by provider. */
export const svcManifestShape = {
  id: extensionIdSchema,
  title: nonEmptyDisplayLine.pipe(maxChars(LIMITS.manifestTitleChars)),
  description: displayParagraph.pipe(maxChars(LIMITS.manifestDescriptionChars)).optional(),
  icon: displayLine.pipe(maxChars(LIMITS.manifestValueChars)).optional(),
  author: displayLine.pipe(maxChars(LIMITS.manifestTitleChars)).optional(),
  categories: atMost(
    displayLine.pipe(maxChars(LIMITS.manifestTitleChars)),
    LIMITS.manifestListEntries,
    "categories",
  ).default([]),
  interval: intervalSchema.optional(),
  triggers: triggersSchema.default({ webhook: false, watch: [] }),
  preferences: atMost(preferenceSchema, LIMITS.manifestPreferences, "options").default([]),
  permissions: permissionsSchema.default({ network: [], files: [], exec: [], runAnyCommand: false }),
};

/** True when `path` is a listed files entry or lies inside one. */
function filesAllow(files: readonly string[], path: string): boolean {
  return files.some((entry) => {
    const folder = entry.replace(/\/+$/, "");
    return path === entry || path === folder || path.startsWith(`${folder}/`);
  });
}

type CrossChecked = {
  preferences: { name: string; data?: unknown[] }[];
  triggers: { watch: string[] };
  permissions: { files: string[] };
};

/** Checks that span fields: unique preference names, choices in all, watched paths allowed by `files`. */
export function checkManifestCrossFields(svc: CrossChecked, ctx: z.RefinementCtx): void {
  const choices = svc.preferences.reduce((sum, pref) => sum + (pref.data?.length ?? 0), 0);
  if (choices > LIMITS.manifestChoicesInAll) {
    ctx.addIssue({
      code: "custom",
      path: ["preferences"],
      message: `should have at most ${LIMITS.manifestChoicesInAll} dropdown choices in all (it has ${choices})`,
    });
  }
  const names = new Set<string>();
  svc.preferences.forEach((pref, i) => {
    if (names.has(pref.name)) {
      ctx.addIssue({
        code: "custom",
        path: ["preferences", i, "name"],
        message: `should be unique: "${pref.name}" is used twice`,
      });
    }
    names.add(pref.name);
  });
  svc.triggers.watch.forEach((path, i) => {
    if (!filesAllow(svc.permissions.files, path)) {
      ctx.addIssue({
        code: "custom",
        path: ["triggers", "watch", i],
        message: `should also be in permissions.files: add "${path}" to svc.permissions.files`,
      });
    }
  });
}

/** The `svc` object with every provider of `oauth` valid. */
export const svcManifestSchema = z
  .object({
    ...svcManifestShape,
    oauth: z.record(providerNameSchema, oauthProviderSchema).default({}),
  })
  .superRefine(checkManifestCrossFields);

/**
 * `package.json`: other keys (scripts, dependencies…) are kept as they are.
 *
 * @example
 * { name: "deploys", version: "1.0.0", main: "dist/index.js",
 *   svc: { id: "com.example.deploys", title: "Deploys", interval: "1m",
 *          permissions: { network: ["api.example.com"] } } }
 */
export const manifestSchema = z.looseObject({
  name: nonEmpty,
  version: nonEmpty,
  main: z.string().default("dist/index.js"),
  svc: svcManifestSchema,
});

export type SvcManifest = z.infer<typeof svcManifestSchema>;
export type SvcManifestInput = z.input<typeof svcManifestSchema>;
export type Manifest = z.infer<typeof manifestSchema>;
export type Triggers = z.infer<typeof triggersSchema>;
