/** The version printed by `svckit --version`: cli/package.json's (one folder up from src/ and dist/). */
import { readFileSync } from "node:fs";

export const svckitVersion: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;
