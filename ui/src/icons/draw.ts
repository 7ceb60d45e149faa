/**
 * An icon name becomes a Lucide drawing: looked up in the fixed table (`map.ts`), built once per
 * name from the table's own data with `createElementNS`, then cloned. What an extension sends is
 * only ever a key into the table; it never becomes markup, an attribute or a URL. A name the
 * table lacks draws a dashed circle, a placeholder that reads as "no icon", not as a bug.
 */
import { baseIconName } from "@svc/api/icon-names";
import { CircleDashed, type IconNode } from "lucide";
import { ICONS } from "./map.js";

const SVG = "http://www.w3.org/2000/svg";
const built = new Map<string, SVGSVGElement>();

function build(node: IconNode, unknown: boolean): SVGSVGElement {
  const root = document.createElementNS(SVG, "svg");
  const attributes = {
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "2",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    class: unknown ? "glyph unknown" : "glyph",
    "aria-hidden": "true",
    focusable: "false",
  };
  for (const [name, value] of Object.entries(attributes)) root.setAttribute(name, value);
  for (const [tag, attrs] of node) {
    const child = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) child.setAttribute(name, String(value));
    root.append(child);
  }
  return root;
}

/** The table's key for `name`, or undefined when svc does not draw it. */
export function iconKey(name: unknown): keyof typeof ICONS | undefined {
  if (typeof name !== "string") return undefined;
  const base = baseIconName(name);
  return Object.hasOwn(ICONS, base) ? (base as keyof typeof ICONS) : undefined;
}

/** A fresh `<svg>` for an icon name (the placeholder when the name is not in the table). */
export function iconElement(name: unknown): SVGSVGElement {
  const key = iconKey(name) ?? "";
  let svg = built.get(key);
  if (!svg) {
    svg = key ? build(ICONS[key as keyof typeof ICONS], false) : build(CircleDashed, true);
    built.set(key, svg);
  }
  return svg.cloneNode(true) as SVGSVGElement;
}
