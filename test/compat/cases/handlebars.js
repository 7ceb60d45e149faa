import Handlebars from "handlebars";
export default () => {
  const hb = Handlebars.create();
  hb.registerHelper("upper", (s) => String(s).toUpperCase());
  const template = hb.compile(
    "{{#each people}}{{upper name}} ({{age}}){{#unless @last}}, {{/unless}}{{/each}} {{title}}",
  );
  return template({
    people: [
      { name: "ada", age: 36 },
      { name: "alan", age: 41 },
    ],
    title: "<b>",
  });
};
