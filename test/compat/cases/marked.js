import { marked } from "marked";
export default () =>
  marked.parse(
    "# Title\n\nSome *emphasis*, a [link](https://example.com)\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nlet x = 1 < 2;\n```\n",
  );
