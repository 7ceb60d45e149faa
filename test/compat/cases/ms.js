import ms from "ms";
export default () => [
  ms("2 days"),
  ms("1.5h"),
  ms(60000),
  ms(2 * 60000, { long: true }),
  ms("-3 weeks"),
  ms("nonsense"),
];
