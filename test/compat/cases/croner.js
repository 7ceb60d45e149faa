import { Cron } from "croner";
export default () => {
  const job = new Cron("0 0 8 * * MON", { timezone: "Europe/Stockholm", paused: true });
  const runs = job.nextRuns(3, new Date("2024-10-20T00:00:00Z")).map((d) => d.toISOString());
  job.stop();
  const utc = new Cron("*/15 * * * *", { timezone: "UTC", paused: true });
  const next = utc.nextRun(new Date("2024-01-01T00:07:00Z")).toISOString();
  utc.stop();
  return { runs, next };
};
