/**
 * Writes a new extension folder from a template: one that builds and validates at once,
 * offline, showing labelled sample data until it is pointed at a real API.
 */
import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../files.js";
import { GITIGNORE, type NewExtension, packageJson, readme, TSCONFIG } from "./project-files.js";
import { formatRecording, jsonExchange } from "@svc/testkit";
import { testFile } from "./snippets.js";
import { TEMPLATES } from "./templates/index.js";
import { TEMPLATE_NAMES, type TemplateName } from "./template.js";

/** npm's rules for a package name, kept to the unscoped, lower-case form a folder name can share. */
const PACKAGE_NAME = /^[a-z0-9][a-z0-9._-]*$/;
/** Reverse-DNS: at least two dot-separated labels of letters, digits and hyphens. */
const REVERSE_DNS = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/**
 * Checks the `new` command's inputs and fills in the defaults.
 *
 * @example
 * planExtension("my-deploys", "deploys") // { name: "my-deploys", id: "com.example.my-deploys", title: "My Deploys", … }
 * @throws CliError (usage) for a bad name, template or id.
 */
export function planExtension(name: string, templateName = "tracker", id?: string): NewExtension {
  if (!PACKAGE_NAME.test(name) || name.length > 214) {
    throw new CliError(
      `"${name}" cannot be an extension name: use lower-case letters, digits, "-", "." or "_", starting with a letter or digit.`,
      2,
      "new",
    );
  }
  if (!(TEMPLATE_NAMES as readonly string[]).includes(templateName)) {
    throw new CliError(`unknown template "${templateName}": choose one of ${TEMPLATE_NAMES.join(", ")}.`, 2, "new");
  }
  const extensionId = id ?? `com.example.${name.replace(/[._]+/g, "-").replace(/^-+|-+$/g, "") || "extension"}`;
  if (!REVERSE_DNS.test(extensionId)) {
    throw new CliError(`--id "${extensionId}" is not a reverse-DNS id like "com.yourname.${name}".`, 2, "new");
  }
  return { name, id: extensionId, title: titleOf(name), template: TEMPLATES[templateName as TemplateName] };
}

/** `my-deploys` → `My Deploys`. */
export function titleOf(name: string): string {
  return name
    .split(/[-._]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(" ");
}

/**
 * Writes the extension into `dir`, which must not exist or be empty. Returns the files written.
 *
 * @example
 * await writeExtension("/src/my-deploys", planExtension("my-deploys", "deploys"));
 */
export async function writeExtension(dir: string, plan: NewExtension): Promise<string[]> {
  const existing = await readdir(dir).catch(() => []);
  if (existing.length > 0) {
    throw new CliError(`${dir} already exists and is not empty: choose another name, or remove it first.`);
  }
  await mkdir(join(dir, "src"), { recursive: true });
  await mkdir(join(dir, "test", "recordings"), { recursive: true });
  const { template } = plan;
  const files: Record<string, string> = {
    "package.json": packageJson(plan),
    "src/index.ts": template.source,
    "test/extension.test.ts": testFile(template.apiExample, template.tests),
    // What the example API answers, as `svckit test --record` would have recorded it.
    "test/recordings/api.json": formatRecording([jsonExchange("GET", template.apiExample, template.apiSample)]),
    "README.md": readme(plan),
    "tsconfig.json": TSCONFIG,
    ".gitignore": GITIGNORE,
  };
  for (const [path, content] of Object.entries(files)) await writeFileAtomic(join(dir, path), content);
  return Object.keys(files);
}
