import Mustache from "mustache";
export default () =>
  Mustache.render("{{#items}}<li>{{name}}: {{&html}}</li>{{/items}}{{^items}}none{{/items}} {{esc}}", {
    items: [
      { name: "a", html: "<b>1</b>" },
      { name: "b", html: "<i>2</i>" },
    ],
    esc: "<script>",
  });
