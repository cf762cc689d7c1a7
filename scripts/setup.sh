#!/usr/bin/env bash
# Sets pokesearch up on a fresh Debian machine with Swift 6 (at /opt/swift or on PATH):
# installs the C libraries it links, builds the release binary, and runs the main job.
#   ./scripts/setup.sh                 → builds, then `pokesearch "fire dragon"`
#   ./scripts/setup.sh QUERY...        → builds, then `pokesearch QUERY...`
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

packages=(libicu-dev libsqlite3-dev libcurl4-openssl-dev zlib1g-dev)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}"
fi

# Static Swift runtime: the one-shot CLI starts in about half the time.
swift build -c release --static-swift-stdlib --product pokesearch
[ $# -gt 0 ] || set -- "fire dragon"
exec .build/release/pokesearch "$@"
