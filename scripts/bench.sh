#!/usr/bin/env bash
# Builds pokesearch-bench with the Swift runtime linked in, as scripts/setup.sh installs
# pokesearch (the bench then builds and measures pokesearch the same way), and runs it:
#   scripts/bench.sh [pokesearch-bench options...]    e.g. --quick, --engine, --out FILE
# (`swift run` takes no --static-swift-stdlib, hence this script.)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
scripts/pgo.sh --check || true
swift build -c release --static-swift-stdlib --product pokesearch-bench
exec .build/release/pokesearch-bench "$@"
