/**
 * Every numeric limit of SPEC.md ("Limits") in one place, so schemas, processing, the runtime,
 * the host and svckit never disagree on a number.
 *
 * @example
 * if (bytes > LIMITS.payloadBytes) drop(payload);
 */
export const LIMITS = {
  /** Actions per blip, quick choices included. */
  actionsPerBlip: 4,
  facts: 4,
  listItems: 5,
  actionsPerListItem: 3,
  progressStages: 6,
  meters: 4,
  /** Series points; the newest are kept. */
  seriesPoints: 48,
  /** Bytes of UTF-8 in `JSON.stringify(payload)`. */
  payloadBytes: 4096,

  blocksPerResult: 24,
  tableRows: 64,
  filesPerBlock: 64,
  /** Characters of a text or code block before it is cut with an ellipsis. */
  textChars: 100_000,
  /** Bytes of UTF-8 in `JSON.stringify(blocks)`: 1 MB. */
  resultBytes: 1_048_576,

  /** Characters of a manifest title, author or category (shown in lists and the install prompt). */
  manifestTitleChars: 100,
  /** Characters of a manifest description. */
  manifestDescriptionChars: 1000,
  /**
   * Sizes in a manifest (ours; SPEC.md sets none): a manifest is read at every load and its
   * options are drawn in Settings and sent to every open page, so one extension must not be
   * able to make that costly. Options per extension; choices per dropdown; characters of an
   * option's or a choice's name or value; entries in `categories`, an option's `blips` and
   * `triggers.watch`. Titles, placeholders and descriptions of options use the two above.
   * Choices in all counts every dropdown's together (32 dropdowns of 256 would be 8,192).
   */
  manifestPreferences: 32,
  manifestDropdownChoices: 256,
  manifestChoicesInAll: 512,
  manifestNameChars: 64,
  manifestValueChars: 256,
  manifestListEntries: 32,

  /**
   * Live blips one extension may hold at once, and pushed blips (`POST /v1/blips`) all together
   * (ours; SPEC.md sets none). Past it a new blip is refused (an update of a live one is not):
   * every page gets every blip, so one source must not be able to bury the others.
   */
  blipsPerExtension: 64,
  pushedBlips: 128,

  toolIdChars: 64,
  toolTitleChars: 32,
  toolSummaryChars: 160,
  toolFields: 8,
  toolActions: 4,
  dropActions: 4,
  choiceOptions: 24,

  secretNameChars: 64,
  /** 16 KB, counted as bytes of UTF-8. */
  secretValueBytes: 16_384,
  minIntervalSeconds: 10,
} as const;

/** The only redirect address an OAuth provider may use (SPEC.md, OAuth rule 4). */
export const OAUTH_REDIRECT_URI = "http://127.0.0.1:47812/oauth/callback";

/** The payload field `v`: the version of the blip payload format. */
export const PAYLOAD_VERSION = 1;
