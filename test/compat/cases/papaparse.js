import Papa from "papaparse";
export default () => {
  const parsed = Papa.parse('name,age,city\n"Smith, J",42,"New\nYork"\nDoe,7,Oslo\n', {
    header: true,
    dynamicTyping: true,
    skipEmptyLines: true,
  });
  return {
    data: parsed.data,
    fields: parsed.meta.fields,
    back: Papa.unparse([
      { a: 1, b: "x,y" },
      { a: 2, b: 'q"t' },
    ]),
  };
};
