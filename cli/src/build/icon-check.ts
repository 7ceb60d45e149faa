/**
 * Icons svc does not draw. An unknown name is not an error (the page draws a placeholder and a
 * newer svc may know it), but the author should hear of it with the name that was likely meant.
 */
import { iconWarning, type ToolSpec } from "@svc/api";

type Named = { icon?: unknown };

/** Where each icon is, as the author wrote it, paired with the name. */
function placed(where: string, holder: Named | undefined): [string, string][] {
  return typeof holder?.icon === "string" ? [[where, holder.icon]] : [];
}

function warnings(pairs: [string, string][]): string[] {
  return pairs.flatMap(([where, name]) => iconWarning(where, name) ?? []);
}

/**
 * The manifest's icon and every icon of the tools (the tool, its actions, its drop actions).
 *
 * @example
 * manifestAndToolIconWarnings({ icon: "guage" }, [])
 * // ['package.json "svc.icon": icon "guage" is not one svc draws (…); did you mean "gauge"? …']
 */
export function manifestAndToolIconWarnings(svc: Named, tools: readonly ToolSpec[]): string[] {
  return warnings([
    ...placed('package.json "svc.icon"', svc),
    ...tools.flatMap((tool) => [
      ...placed(`tool "${tool.id}"`, tool),
      ...(tool.actions ?? []).flatMap((action) => placed(`tool "${tool.id}" action "${action.id}"`, action)),
      ...(tool.dropActions ?? []).flatMap((drop) => placed(`tool "${tool.id}" drop action "${drop.id}"`, drop)),
    ]),
  ]);
}

/**
 * Every icon of an emitted blip: its own, its actions', its list rows' and their actions', its
 * score sides'.
 *
 * @example
 * blipIconWarnings("com.example.x/cpu", { icon: "guage", … })
 * // ['blip "com.example.x/cpu": icon "guage" is not one svc draws …']
 */
export function blipIconWarnings(blipId: string, payload: unknown): string[] {
  const blip = (payload ?? {}) as Named & { actions?: unknown; data?: unknown };
  const at = `blip "${blipId}"`;
  const actionsOf = (where: string, actions: unknown) =>
    (Array.isArray(actions) ? (actions as (Named & { id?: unknown })[]) : []).flatMap((action) =>
      placed(`${where} action "${String(action.id)}"`, action),
    );
  const data = (blip.data ?? {}) as { items?: unknown; home?: Named; away?: Named };
  const items = Array.isArray(data.items) ? (data.items as (Named & { id?: unknown; actions?: unknown })[]) : [];
  return warnings([
    ...placed(at, blip),
    ...actionsOf(at, blip.actions),
    ...items.flatMap((item) => [
      ...placed(`${at} row "${String(item.id)}"`, item),
      ...actionsOf(`${at} row "${String(item.id)}"`, item.actions),
    ]),
    ...placed(`${at} home`, data.home),
    ...placed(`${at} away`, data.away),
  ]);
}
