/**
 * The `Intl` kinds the guest may make and the option names each reads (ECMA-402): the one
 * definition for both halves of the guest's `Intl` (guest/intl.ts picks these from the guest's
 * options object; intl-ops.ts passes only these to the host's `Intl`). Plain data: the
 * prelude bundles it too.
 */
export type IntlKind =
  | "DateTimeFormat"
  | "NumberFormat"
  | "RelativeTimeFormat"
  | "PluralRules"
  | "ListFormat"
  | "Collator"
  | "Segmenter"
  | "DisplayNames";

/** The option names each kind reads (ECMA-402); others never reach the host's `Intl`. */
const DIGIT_OPTIONS = [
  "minimumIntegerDigits",
  "minimumFractionDigits",
  "maximumFractionDigits",
  "minimumSignificantDigits",
  "maximumSignificantDigits",
  "roundingPriority",
  "roundingIncrement",
  "roundingMode",
  "trailingZeroDisplay",
];
export const OPTION_NAMES: Record<IntlKind | "Locale", readonly string[]> = {
  DateTimeFormat: [
    "localeMatcher",
    "calendar",
    "numberingSystem",
    "hour12",
    "hourCycle",
    "timeZone",
    "weekday",
    "era",
    "year",
    "month",
    "day",
    "dayPeriod",
    "hour",
    "minute",
    "second",
    "fractionalSecondDigits",
    "timeZoneName",
    "formatMatcher",
    "dateStyle",
    "timeStyle",
  ],
  NumberFormat: [
    "localeMatcher",
    "numberingSystem",
    "style",
    "currency",
    "currencyDisplay",
    "currencySign",
    "unit",
    "unitDisplay",
    "notation",
    "compactDisplay",
    "signDisplay",
    "useGrouping",
    ...DIGIT_OPTIONS,
  ],
  RelativeTimeFormat: ["localeMatcher", "numberingSystem", "style", "numeric"],
  PluralRules: ["localeMatcher", "type", ...DIGIT_OPTIONS],
  ListFormat: ["localeMatcher", "type", "style"],
  Collator: ["localeMatcher", "usage", "sensitivity", "ignorePunctuation", "numeric", "caseFirst", "collation"],
  Segmenter: ["localeMatcher", "granularity"],
  DisplayNames: ["localeMatcher", "style", "type", "fallback", "languageDisplay"],
  Locale: [
    "language",
    "script",
    "region",
    "calendar",
    "collation",
    "hourCycle",
    "caseFirst",
    "numeric",
    "numberingSystem",
  ],
};

/**
 * The options ECMA-402 reads as booleans (`useGrouping` too: any falsy value is `false`), where
 * `null` means `false`; elsewhere `null` is the string "null", as ToString makes it. JSON
 * carries `null`, but the host drops it as "not given", so the guest sends `false`.
 */
export const NULL_IS_FALSE: Partial<Record<IntlKind | "Locale", readonly string[]>> = {
  DateTimeFormat: ["hour12"],
  NumberFormat: ["useGrouping"],
  Collator: ["ignorePunctuation", "numeric"],
  Locale: ["numeric"],
};
