/**
 * axe-core in the page: the violations it finds, as "rule: target — summary" lines (empty when
 * clean). axe is injected through the DevTools protocol, which the page's CSP does not govern.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

let axeSource: Promise<string> | undefined;

export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(await axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[] }>;
        };
      }
    ).axe;
    return axe.run(document, { resultTypes: ["violations"] });
  });
  return result.violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id}: ${node.target.join(" ")} — ${node.failureSummary ?? ""}`),
  );
}
