#!/usr/bin/env bash
# The robustness checks CI runs (docs/ROBUSTNESS.md): every fuzz target for 30 s, then the
# server suites (protocol, socket file, client) under ThreadSanitizer (the server's event loop and
# reload threads, the index swap, the built binary itself). Builds go under .build/fuzz and
# .build/tsan, so the regular debug build is left as it was. Estimated 8-10 minutes from a cold
# cache on 2 cores, mostly the two builds (not yet timed end to end). Exits non-zero on the
# first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
mkdir -p .build/fuzz
for target in fuzz-query fuzz-protocol fuzz-corpus fuzz-mapping; do
    echo "== $target for $seconds s"
    log=.build/fuzz/ci-$target.log
    status=0
    scripts/fuzz.sh "$target" "$seconds" >"$log" 2>&1 || status=$?
    grep -E "^(stat::|Done |INFO: seed corpus)" "$log" || true
    if [ "$status" != 0 ]; then
        grep -v "Cannot export local symbol" "$log" | tail -40 >&2
        echo "ci-robustness: $target failed (input in .build/fuzz/artifacts/)" >&2
        exit 1
    fi
done
echo "== ThreadSanitizer: the server suites"
swift build --build-tests --sanitize=thread --build-path .build/tsan
# Reports go to files, one per process, so those of the `pokesearch` processes the tests start
# (servers, ingests) are seen too, not only the test runner's.
reports=.build/tsan/reports
rm -rf "$reports" && mkdir -p "$reports"
SWIFT_BACKTRACE=enable=no TSAN_OPTIONS="log_path=$PWD/$reports/tsan suppressions=$PWD/scripts/tsan-suppressions.txt" \
    swift test --skip-build --sanitize=thread --build-path .build/tsan --filter 'Server'
if ls "$reports"/tsan.* >/dev/null 2>&1; then
    cat "$reports"/tsan.* >&2
    echo "ci-robustness: ThreadSanitizer reports above" >&2
    exit 1
fi
echo "ThreadSanitizer: no reports"
