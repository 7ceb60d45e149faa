import { RRule, rrulestr } from "rrule";
export default () => {
  const rule = new RRule({
    freq: RRule.WEEKLY,
    byweekday: [RRule.MO, RRule.FR],
    dtstart: new Date(Date.UTC(2024, 0, 1, 10)),
    count: 5,
  });
  const tz = rrulestr("DTSTART;TZID=America/Denver:20240309T090000\nRRULE:FREQ=DAILY;COUNT=3");
  return {
    dates: rule.all().map((d) => d.toISOString()),
    text: rule.toText(),
    tz: tz.all().map((d) => d.toISOString()),
    string: rule.toString(),
  };
};
