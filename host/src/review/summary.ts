/**
 * The summary a person reads before installing: what the extension is, everything it can
 * reach (risky things marked with "!" and why), and for an update what it gains.
 */
import { escapeForDisplay, type Manifest } from "@svc/api";
import { gainedReach, reachOf, type ReachItem, type ReachPlaces } from "./reach.js";
import { authorLine, type AuthorView } from "./author-view.js";

/** The installed extension this package would replace. */
export interface InstalledVersion {
  manifest: Manifest;
  /** True when the installed one is another package (a different `name`) using the same id. */
  differentPackage: boolean;
  /** The folder, when what is there is `svckit dev`'s link to it rather than an installed copy. */
  devLink?: string;
}

export interface InstallSummary {
  id: string;
  title: string;
  version: string;
  reach: ReachItem[];
  /** True when any reach item is risky, or the package replaces a different one. */
  risky: boolean;
  /** Present when an extension with this id is installed already. */
  replaces?: {
    title: string;
    version: string;
    name: string;
    differentPackage: boolean;
    gained: ReachItem[];
    devLink?: string;
  };
  /** Titles of the tools the package adds. */
  tools: string[];
  /** Who signed it (a package being installed); absent when reviewing an installed extension. */
  author?: AuthorView;
  /** Who made it, as the manifest says (a claim; the signature's key is `author`). */
  madeBy?: string;
  /**
   * The sentences after the reach (its tools, how often it runs, what its programs can do): the
   * same ones the terminal prints, for the page to show too.
   */
  notes: string[];
  /** The summary as text, for a terminal or a dialog: every line escaped (display-text.ts). */
  text: string;
}

/** Longest line of the summary, in characters. */
const MAX_SUMMARY_LINE = 400;

function line(item: ReachItem): string {
  return item.risk ? `  ! ${item.text} — ${item.risk}` : `  • ${item.text}`;
}

/**
 * @example
 * summarize(manifest, { supportDir }).text
 * // Deploys 1.2.0 (com.example.deploys) by Example
 * // Shows your deploys.
 * //
 * // It can:
 * //   • connect to api.example.com
 * //   ! run the program bash — it runs any command it is given
 */
export function summarize(
  manifest: Manifest,
  where: ReachPlaces,
  installed?: InstalledVersion,
  tools: readonly { title: string }[] = [],
  author?: AuthorView,
): InstallSummary {
  const svc = manifest.svc;
  const reach = reachOf(manifest, where);
  const lines: string[] = [`${svc.title} ${manifest.version} (${svc.id})${svc.author ? ` by ${svc.author}` : ""}`];
  if (svc.description) lines.push(svc.description);
  if (author) lines.push(authorLine(author));
  lines.push("");
  if (reach.length) lines.push("It can:", ...reach.map(line));
  else lines.push("It can reach nothing outside svc: no network, no files, no programs.");
  const notes: string[] = [];
  if (tools.length)
    notes.push(
      `It adds ${tools.length === 1 ? "a tool" : `${tools.length} tools`}: ${tools.map((t) => t.title).join(", ")}.`,
    );
  if (svc.interval) notes.push(`It runs every ${svc.interval}.`);
  if (reach.some((item) => item.text.startsWith("run the program"))) {
    notes.push("Programs it runs can do anything your account can.");
  }
  lines.push(...notes);

  let replaces: InstallSummary["replaces"];
  if (installed) {
    const old = installed.manifest;
    const gained = gainedReach(old, manifest, where);
    replaces = {
      title: old.svc.title,
      version: old.version,
      name: old.name,
      differentPackage: installed.differentPackage,
      gained,
      ...(installed.devLink ? { devLink: installed.devLink } : {}),
    };
    lines.push("");
    if (installed.devLink) {
      lines.push(
        `This replaces the dev link to ${installed.devLink} (svckit dev): the package's own copy takes its place; that folder stays.`,
      );
    } else if (installed.differentPackage) {
      lines.push(
        `! This replaces "${old.svc.title}" ${old.version} (package ${old.name}), a different package installed with the same id.`,
      );
    } else {
      lines.push(`This updates the installed ${old.svc.title} ${old.version}.`);
    }
    if (gained.length) lines.push(`Compared with ${old.version}, it can now also:`, ...gained.map(line));
    else lines.push(`It can reach nothing that ${old.version} could not.`);
  }
  const risky = reach.some((item) => item.risk) || installed?.differentPackage === true;
  // The package wrote most of these words: each line is made inert and kept to a sane length.
  const text = lines.map((l) => escapeForDisplay(l, { max: MAX_SUMMARY_LINE })).join("\n");
  return {
    id: svc.id,
    title: svc.title,
    version: manifest.version,
    reach,
    risky,
    replaces,
    tools: tools.map((t) => t.title),
    ...(author ? { author } : {}),
    ...(svc.author ? { madeBy: svc.author } : {}),
    notes,
    text: `${text}\n`,
  };
}
