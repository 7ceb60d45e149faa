/** Icon names: the list svc draws, and the check svckit runs on them. */
export { ICON_NAMES, type IconName } from "./names.js";
export { baseIconName } from "./base-name.js";
export { isKnownIcon, suggestIcon, iconWarning } from "./lookup.js";
export { nearestWord } from "./nearest.js";
