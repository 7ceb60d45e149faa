/**
 * The build every command shares (`build`, `pack`, `validate`, each rebuild of `dev`):
 * check the manifest, bundle, find the tools by loading the bundle in the sandbox the app
 * uses, and write `dist/` only when all of it is sound.
 */
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { ToolSpec } from "@svc/api";
import type { Output } from "../command.js";
import { CliError } from "../errors.js";
import { writeFileAtomic } from "../files.js";
import { readProject } from "../project.js";
import { bundle, type BundleOutcome, OUTFILE } from "../bundle/bundle.js";
import { checkManifest, type CheckedManifest } from "./manifest-check.js";
import { discoverTools } from "./discover-tools.js";
import { updateToolsFile } from "./tools-file.js";
import { manifestAndToolIconWarnings } from "./icon-check.js";

/** Everything one build learned; `problems` empty means it may be written. */
export interface BuildReport {
  problems: string[];
  warnings: string[];
  manifest?: CheckedManifest;
  code?: string;
  /** The bundle's source map (written as dist/index.js.map, never packed). */
  sourceMap?: string;
  tools: ToolSpec[];
}

/**
 * Checks an extension given an already-run bundle (so `dev` can feed its watch results in).
 * Never writes.
 *
 * @example
 * const report = await checkBuild(dir, await bundle(dir));
 */
export async function checkBuild(dir: string, outcome: BundleOutcome): Promise<BuildReport> {
  const { packageJson } = await readProject(dir);
  const manifest = checkManifest(packageJson);
  const report: BuildReport = {
    problems: [...manifest.errors],
    warnings: [...manifest.warnings, ...outcome.warnings],
    manifest: manifest.manifest,
    tools: [],
  };
  if (!outcome.ok) {
    report.problems.push(...outcome.errors);
    return report;
  }
  report.code = outcome.code;
  if (outcome.sourceMap !== undefined) report.sourceMap = outcome.sourceMap;
  const tools = await discoverTools(outcome.code, manifest.manifest);
  report.problems.push(...tools.errors);
  report.tools = tools.specs;
  if (manifest.manifest) report.warnings.push(...manifestAndToolIconWarnings(manifest.manifest.svc, tools.specs));
  return report;
}

/**
 * Writes a sound build: `dist/index.js`, and `dist/tools.json` (or removes a stale one).
 * Returns the lines that describe what was written.
 */
export async function writeBuild(dir: string, report: BuildReport): Promise<string> {
  if (report.code === undefined || report.problems.length > 0)
    throw new Error("writeBuild needs a build without problems");
  await writeFileAtomic(join(dir, OUTFILE), report.code);
  // The map goes with this bundle; one left by an older bundle would point at the wrong lines.
  if (report.sourceMap !== undefined) await writeFileAtomic(join(dir, `${OUTFILE}.map`), report.sourceMap);
  else await rm(join(dir, `${OUTFILE}.map`), { force: true });
  const toolsLine = await updateToolsFile(dir, report.tools);
  return `built ${OUTFILE} (${kilobytes(report.code)})${toolsLine}`;
}

export interface BuiltExtension {
  id: string;
  name: string;
  version: string;
  tools: ToolSpec[];
  code: string;
  manifest: CheckedManifest;
  report: BuildReport;
}

/**
 * Bundles and checks once without writing, printing warnings.
 *
 * @example
 * const checked = await checkExtension("/path/to/ext", ctx.out); // what validate runs
 * @throws CliError listing every problem, one line each.
 */
export async function checkExtension(dir: string, out: Output, verb = "build"): Promise<BuiltExtension> {
  const report = await checkBuild(dir, await bundle(dir));
  for (const warning of report.warnings) out.warn(`warning: ${warning}`);
  if (report.problems.length > 0 || !report.manifest || report.code === undefined) {
    throw new CliError(failureText(report.problems, verb));
  }
  const { manifest } = report;
  return {
    id: manifest.id,
    name: manifest.name,
    version: manifest.version,
    tools: report.tools,
    code: report.code,
    manifest,
    report,
  };
}

/**
 * Builds once and writes `dist/`, printing warnings and a summary line.
 *
 * @example
 * const built = await buildExtension("/path/to/ext", ctx.out);
 * @throws CliError listing every problem, one line each.
 */
export async function buildExtension(dir: string, out: Output): Promise<BuiltExtension> {
  const built = await checkExtension(dir, out);
  out.info(await writeBuild(dir, built.report));
  return built;
}

/** Every problem on its own line, then how many. */
export function failureText(problems: string[], verb = "build"): string {
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return [...problems, `${verb} failed: ${count}`].join("\n");
}

function kilobytes(code: string): string {
  return `${(Buffer.byteLength(code) / 1024).toFixed(1)} KB`;
}
