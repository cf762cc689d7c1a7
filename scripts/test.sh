#!/usr/bin/env bash
# Builds everything (the end-to-end tests run the built binary) and runs the test suite: the
# everyday command. Tests tagged `exhaustive` (a shortcut or a reader against a brute force
# over the whole corpus, a fault at many instants) check a fixed sample of their cases, and
# the few whole-corpus end-to-end ones whose parts are checked apart wait for `--full`, which
# checks every case (POKESEARCH_EXHAUSTIVE=1, what CI runs). Other arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
if [ "${1:-}" = "--full" ]; then
    shift
    export POKESEARCH_EXHAUSTIVE=1
fi
swift build --build-tests
if [ "${POKESEARCH_EXHAUSTIVE:-}" = 1 ]; then
    echo "test.sh: exhaustive tests check every case"
else
    echo "test.sh: exhaustive tests check a sample of their cases (scripts/test.sh --full for all)"
fi
swift test --skip-build "$@"
