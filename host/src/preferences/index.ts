/** Preference values for `extension.load`: defaults today, a `PreferenceSource` seam for stored ones. */
export * from "./resolve.js";
