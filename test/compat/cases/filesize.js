import { filesize } from "filesize";
export default () => [
  filesize(265318),
  filesize(265318, { base: 2, standard: "jedec" }),
  filesize(1e9, { locale: "de", round: 1 }),
  filesize(1024, { output: "object" }),
  filesize(5e12, { fullform: true }),
];
