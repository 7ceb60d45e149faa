import dayjs from "dayjs";
import utc from "dayjs/plugin/utc";
import timezone from "dayjs/plugin/timezone";
import relativeTime from "dayjs/plugin/relativeTime";
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(relativeTime);
export default () => ({
  tokyo: dayjs.tz("2024-07-01 09:00", "Asia/Tokyo").format(),
  toNewYork: dayjs.utc("2024-11-03T06:30:00Z").tz("America/New_York").format("YYYY-MM-DD HH:mm Z"),
  from: dayjs("2024-01-01T00:00:00Z").from(dayjs("2024-03-01T00:00:00Z")),
  add: dayjs.utc("2024-01-31").add(1, "month").format("YYYY-MM-DD"),
});
