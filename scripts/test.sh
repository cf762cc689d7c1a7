#!/usr/bin/env bash
# Builds everything (the end-to-end tests run the built binary) and runs the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
swift test --skip-build
