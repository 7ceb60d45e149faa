// Writes the icon list in sdk/README.md from ICON_NAMES (build the SDK first: npx tsc -b).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withIconNames } from "../dist/icons/doc.js";

const readme = fileURLToPath(new URL("../README.md", import.meta.url));
const next = withIconNames(readFileSync(readme, "utf8"));
if (next === undefined) {
  console.error("sdk/README.md has no icon-names markers: put them back under ## Icons");
  process.exit(1);
}
writeFileSync(`${readme}.tmp`, next);
renameSync(`${readme}.tmp`, readme);
console.log("sdk/README.md: icon names written");
