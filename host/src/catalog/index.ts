/**
 * The catalog of first-party packages in the bundled roots: listed with what each can reach,
 * added through the install review (Settings → Add extensions, `svc-host install <name>`).
 */
export {
  readCatalogs,
  catalogListing,
  catalogPackage,
  CatalogError,
  type CatalogListing,
  type Catalogs,
} from "./catalog.js";
export { runCatalogCommand, installTarget, CATALOG_USAGE, type CatalogIo } from "./catalog-command.js";
