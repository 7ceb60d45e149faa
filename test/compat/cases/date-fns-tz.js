import { formatInTimeZone, toZonedTime, fromZonedTime, getTimezoneOffset } from "date-fns-tz";
export default () => ({
  formatted: formatInTimeZone(new Date("2024-03-31T00:30:00Z"), "Europe/Paris", "yyyy-MM-dd HH:mm:ss zzz XXX"),
  zoned: toZonedTime(new Date("2024-06-01T12:00:00Z"), "Australia/Sydney").getHours(),
  fromZoned: fromZonedTime("2024-11-03 01:30:00", "America/Chicago").toISOString(),
  offset: getTimezoneOffset("Asia/Kolkata", new Date("2024-01-01T00:00:00Z")),
});
