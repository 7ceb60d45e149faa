import { diffLines, diffWords, createTwoFilesPatch, applyPatch } from "diff";
export default () => {
  const before = "alpha\nbeta\ngamma\n";
  const after = "alpha\nBETA\ngamma\ndelta\n";
  const patch = createTwoFilesPatch("a.txt", "b.txt", before, after, "", "", { context: 1 });
  return {
    lines: diffLines(before, after),
    words: diffWords("the quick fox", "the slow fox"),
    patch,
    applied: applyPatch(before, patch),
  };
};
