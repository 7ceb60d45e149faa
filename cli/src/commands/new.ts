/**
 * `svckit new <name>`: scaffold an extension from a template.
 */
import { join, relative } from "node:path";
import { defineCommand } from "../command.js";
import { planExtension, writeExtension } from "../scaffold/scaffold.js";
import { TEMPLATE_NAMES } from "../scaffold/template.js";

export const create = defineCommand({
  name: "new",
  summary: "scaffold an extension that builds and validates at once",
  details: [
    "Makes the folder <name> with package.json (the manifest), src/index.ts, tests that pass",
    "offline (test/extension.test.ts, replaying test/recordings/api.json), README.md,",
    "tsconfig.json and .gitignore. Each template fetches from an API URL you set in Settings",
    "and shows sample data, marked as such, until you do.",
    "",
    "Templates:",
    "  tracker    work items as a list, with triage buttons and snooze",
    "  payments   today's revenue as a currency figure with an hourly sparkline",
    "  deploys    running deploys as progress with pipeline stages",
    "  errors     open errors as a count with a state and an acknowledge button",
    "  traffic    quota use as meters",
  ],
  positionals: [{ name: "name", description: "the folder and package name, e.g. my-deploys", required: true }],
  options: {
    template: {
      type: "string",
      valueName: "name",
      description: `what to start from: ${TEMPLATE_NAMES.join(", ")} (default: tracker)`,
    },
    id: { type: "string", valueName: "id", description: "the extension id (default: com.example.<name>)" },
  },
  examples: [
    "svckit new my-deploys --template deploys --id com.ann.deploys",
    "create-svc my-extension   # the same, from the clone's node_modules/.bin",
  ],
  async run({ positionals, options }, ctx) {
    const plan = planExtension(positionals[0], options.template, options.id);
    const dir = join(ctx.cwd, plan.name);
    const files = await writeExtension(dir, plan);
    const where = relative(ctx.cwd, dir) || ".";
    ctx.out.info(`created ${where} (${plan.id}, template ${plan.template.name}): ${files.join(", ")}`);
    ctx.out.info("");
    // The command as this svckit was run: svckit is on no registry, so never `npx svckit`.
    const svckit = ctx.invokedAs ?? "svckit";
    ctx.out.info("Next:");
    ctx.out.info(`  cd ${where}`);
    ctx.out.info(`  ${svckit} validate   # builds, runs update() once, prints the blips`);
    ctx.out.info(`  ${svckit} test       # runs test/*.test.ts offline with @svc/testkit`);
    ctx.out.info(`  ${svckit} dev        # rebuilds on save and links it into the app`);
  },
});
