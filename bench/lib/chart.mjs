// The scale bench's chart: RSS and launch time against N for each design, drawn by vega-lite
// (compiled to a vega spec, rendered headless to SVG: no browser, no canvas).
import * as vega from "vega";
import { compile } from "vega-lite";

/**
 * @param rows `{ n, design, measure, value }`, one per point
 * @param subtitle a line under the chart (the machine, the load)
 * @returns the SVG text
 * @example writeFileSync("bench/scale.svg", await renderChart(rows));
 */
export async function renderChart(rows, subtitle = "") {
  const spec = {
    title: { text: subtitle, fontSize: 11, fontWeight: "normal", anchor: "start" },
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values: rows },
    background: "white",
    facet: { column: { field: "measure", type: "nominal", title: null, header: { labelFontSize: 13 } } },
    resolve: { scale: { y: "independent" } },
    spec: {
      width: 320,
      height: 240,
      mark: { type: "line", point: true, tooltip: true },
      encoding: {
        x: {
          field: "n",
          type: "quantitative",
          scale: { type: "log" },
          axis: { values: [1, 5, 10, 30, 100, 300], title: "extensions running (N, log scale)" },
        },
        y: { field: "value", type: "quantitative", scale: { type: "log" }, title: null },
        color: { field: "design", type: "nominal", title: null, legend: { orient: "bottom", labelLimit: 400 } },
      },
    },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: "none" });
  return view.toSVG();
}
