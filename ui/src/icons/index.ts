/** Icons: a name from `@svc/api`'s list becomes its drawing; any other name, a placeholder. */
export { iconElement, iconKey } from "./draw.js";
export { ICONS } from "./map.js";
