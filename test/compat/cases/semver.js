import semver from "semver";
export default () => ({
  valid: semver.valid("1.2.3-beta.1"),
  satisfies: semver.satisfies("1.5.0", "^1.2.0 || >=3"),
  max: semver.maxSatisfying(["1.2.3", "1.9.0", "2.0.0"], "~1.2 || 1.x"),
  sorted: semver.sort(["1.10.0", "1.2.0", "1.2.0-rc.1"]),
  inc: semver.inc("1.2.3", "preminor", "beta"),
  coerce: semver.coerce("v2.3").version,
});
