import {
  addDays,
  differenceInCalendarDays,
  format,
  formatDistanceStrict,
  parseISO,
  startOfWeek,
  eachDayOfInterval,
  isWeekend,
} from "date-fns";
import { de } from "date-fns/locale";
export default () => ({
  plus3: addDays(parseISO("2024-02-27T10:30:00Z"), 3).toISOString(),
  formatted: format(new Date(2024, 1, 29, 8, 5), "EEEE d MMMM yyyy HH:mm", { locale: de }),
  diff: differenceInCalendarDays(new Date(2024, 11, 25), new Date(2024, 0, 1)),
  distance: formatDistanceStrict(new Date(2024, 0, 1), new Date(2024, 2, 1)),
  week: startOfWeek(new Date(2024, 4, 15), { weekStartsOn: 1 }).getDate(),
  weekends: eachDayOfInterval({ start: new Date(2024, 5, 1), end: new Date(2024, 5, 14) }).filter(isWeekend).length,
});
