/**
 * `svc-host catalog [--json]`: the catalog packages, each with its sentence and what it can
 * reach; `svc-host install <name>` takes a name from it (the same review as any `.svc`).
 */
import { escapeForDisplay } from "@svc/api";
import { catalogListing, catalogPackage } from "./catalog.js";

export const CATALOG_USAGE = "usage: svc-host catalog [--json]";

export interface CatalogIo {
  bundled: readonly string[];
  supportDir: string;
  out(text: string): void;
  err(text: string): void;
}

/**
 * @example
 * await runCatalogCommand([], io)
 * // Weather (weather) 1.0.0 — Now, today's high and low, and rain in the next hour.
 * //   can: connect to api.met.no
 * //   add it: svc-host install weather
 */
export async function runCatalogCommand(argv: readonly string[], io: CatalogIo): Promise<number> {
  const json = argv.includes("--json");
  const unknown = argv.find((word) => word !== "--json");
  if (unknown) {
    io.err(
      `svc-host catalog: unknown ${unknown.startsWith("-") ? "option" : "word"} ${escapeForDisplay(unknown)}\n${CATALOG_USAGE}\n`,
    );
    return 2;
  }
  const { packages: listing, problems } = await catalogListing(io.bundled, io.supportDir);
  for (const problem of problems) io.err(`svc-host catalog: ${escapeForDisplay(problem)}\n`);
  if (json) {
    io.out(`${JSON.stringify({ packages: listing, problems })}\n`);
    return problems.length ? 1 : 0;
  }
  if (listing.length === 0) io.out("The catalog is empty: this svc was built without catalog packages.\n");
  for (const item of listing) {
    const lines = [
      `${item.title} (${item.name}) ${item.version}${item.installed ? " — added" : ""}`,
      `  ${item.description}`,
      ...(item.reach.length
        ? item.reach.map((r) => `  can: ${r.text}${r.risk ? ` (! ${r.risk})` : ""}`)
        : ["  can: nothing outside svc"]),
      `  signed by ${item.signedBy.fingerprint} (${item.signedBy.words})`,
      item.installed ? "" : `  add it: svc-host install ${item.name}`,
    ];
    // Each line escaped on its own: a stranger's text never starts a line of its own.
    for (const line of lines.filter(Boolean)) io.out(`${escapeForDisplay(line)}\n`);
  }
  return problems.length ? 1 : 0;
}

/**
 * `svc-host install <word>`: a bare name (no `/`, not ending in `.svc`, not an address) is a
 * catalog package; anything else is a file or address, as before.
 *
 * @example
 * await installTarget("weather", ["/repo/extensions"]) // "/repo/extensions/catalog/svc-weather-1.0.0.svc"
 * await installTarget("./x.svc", ["/repo/extensions"]) // "./x.svc"
 */
export async function installTarget(word: string, bundled: readonly string[]): Promise<string> {
  if (word.includes("/") || word.includes("\\") || word.endsWith(".svc") || word.includes(":")) return word;
  return catalogPackage(bundled, word);
}
