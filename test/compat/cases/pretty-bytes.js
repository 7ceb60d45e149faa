import prettyBytes from "pretty-bytes";
export default () => [
  prettyBytes(1337),
  prettyBytes(1e12, { binary: true }),
  prettyBytes(1536, { locale: "de" }),
  prettyBytes(-42000, { signed: true }),
  prettyBytes(123456789, { maximumFractionDigits: 1, locale: "en-US" }),
];
