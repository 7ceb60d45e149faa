import { DateTime, Duration, Interval, Info } from "luxon";
export default () => {
  const t = DateTime.fromISO("2024-03-10T01:30:00", { zone: "America/New_York" });
  return {
    plus: t.plus({ hours: 1 }).toISO(),
    berlin: t.setZone("Europe/Berlin").toFormat("yyyy-LL-dd HH:mm ZZZZ"),
    valid: DateTime.fromISO("2024-02-30").isValid,
    locale: DateTime.fromISO("2024-05-01T12:00:00Z", { zone: "UTC" })
      .setLocale("fr")
      .toLocaleString(DateTime.DATETIME_FULL),
    relative: DateTime.fromISO("2024-01-01T00:00:00Z").toRelative({ base: DateTime.fromISO("2024-01-04T00:00:00Z") }),
    duration: Duration.fromObject({ hours: 26, minutes: 5 }).shiftTo("days", "hours", "minutes").toHuman(),
    interval: Interval.fromISO("2024-01-01/2024-03-01").length("days"),
    months: Info.months("short", { locale: "de" }),
    week: DateTime.fromISO("2024-12-30").weekNumber,
  };
};
