/** Short text for typed values: one definition, in `@svc/api` (svckit prints tool results with it too). */
export { clockTime, formatValue, shortDuration } from "@svc/api";
