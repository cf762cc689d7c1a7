#!/usr/bin/env bash
# Prints two pokesearch-bench results files side by side: each figure's two values and
# new/old, and each reference ratio both runs have (BENCHMARKS.md, "Runs kept as data"):
#   scripts/bench-compare.sh Benchmarks/runs/OLD.json Benchmarks/runs/NEW.json
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/bench-compare.sh OLD.json NEW.json" >&2; exit 2; }
old="$(realpath -m -- "$1")"
new="$(realpath -m -- "$2")"
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --static-swift-stdlib --product pokesearch-bench >&2
exec .build/release/pokesearch-bench --compare "$old" "$new"
