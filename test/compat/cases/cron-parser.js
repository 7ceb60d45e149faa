import { CronExpressionParser } from "cron-parser";
export default () => {
  const options = { currentDate: new Date("2024-03-09T12:00:00Z"), tz: "America/New_York" };
  const every = CronExpressionParser.parse("30 2 * * *", options);
  const weekdays = CronExpressionParser.parse("0 9 * * 1-5", {
    currentDate: new Date("2024-01-05T10:00:00Z"),
    tz: "UTC",
  });
  return {
    nights: every.take(3).map((d) => d.toISOString()),
    weekdays: weekdays.take(3).map((d) => d.toISOString()),
  };
};
