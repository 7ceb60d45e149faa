/**
 * Who speaks on the terminal's lines: the `@svc/api` rule (`speakerOf`) fed from the host's own
 * catalog (the manifests as found on disk), so nothing an extension sends at run time can change
 * the name its notify lines and blips carry. The page applies the same rule to the same titles
 * (Settings' extension list).
 */
import { speakerOf, type CatalogName, type Speaker } from "@svc/api";
import type { Catalog } from "../discovery/index.js";
import type { BlipSource } from "../store/index.js";

/** The titles the catalog holds: loadable and broken extensions (a broken one still has a name). */
export function catalogNames(catalog: Catalog | undefined): CatalogName[] {
  if (!catalog) return [];
  return [...catalog.active, ...catalog.broken].map((ext) => ({
    id: ext.id,
    ...(ext.manifest ? { title: ext.manifest.svc.title } : {}),
  }));
}

/**
 * @example
 * const speaker = speakers(() => extensions.current);
 * speaker({ kind: "extension", extensionId: "dev.svc.focus" }); // { name: "Focus" }
 * speaker({ kind: "webhook" });                                 // { name: "pushed" }
 */
export function speakers(catalog: () => Catalog | undefined): (source: BlipSource) => Speaker {
  return (source) => speakerOf(source.kind === "webhook" ? undefined : source.extensionId, catalogNames(catalog()));
}
