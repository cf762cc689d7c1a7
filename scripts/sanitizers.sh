#!/usr/bin/env bash
# Runs the test suite under a sanitizer, the way docs/ROBUSTNESS.md records it:
#   scripts/sanitizers.sh address [SWIFT TEST ARGS...]   AddressSanitizer + LeakSanitizer, .build/asan
#   scripts/sanitizers.sh thread [SWIFT TEST ARGS...]    ThreadSanitizer, .build/tsan
# Extra arguments go to `swift test`, e.g. `scripts/sanitizers.sh thread --filter 'Server|Locking'`
# (what CI runs, 29 tests in 1.6 minutes); without them it is the whole suite (11-22 minutes
# under TSan, 9-17 under ASan, on 2 busy cores).
# Builds under its own build path, so the regular debug build is left alone; the end-to-end
# tests run the sanitized `pokesearch` built next to the test bundle. Reports go to files, one
# per process (.build/asan/reports, .build/tsan/reports), so those of the `pokesearch` processes
# the tests start (servers, ingests) are seen too, not lost in a pipe. Exits non-zero when a
# test fails or when any process left a report; the reports are printed.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizer=${1:?usage: scripts/sanitizers.sh address|thread [swift test arguments...]}
shift
case "$sanitizer" in
    address) build=.build/asan ;;
    thread) build=.build/tsan ;;
    *) echo "sanitizers.sh: unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 2 ;;
esac

echo "== build: swift build --build-tests --sanitize=$sanitizer --build-path $build"
swift build --build-tests --sanitize="$sanitizer" --build-path "$build"

reports=$PWD/$build/reports
rm -rf "$reports" && mkdir -p "$reports"
# No crash backtracer: under a sanitizer it can hang instead of letting the crash fail the test.
export SWIFT_BACKTRACE=enable=no
if [ "$sanitizer" = address ]; then
    # Leaks that are not ours (XCTest, Foundation), each with its reason, in the file.
    export ASAN_OPTIONS="log_path=$reports/asan"
    export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt print_suppressions=1"
else
    export TSAN_OPTIONS="log_path=$reports/tsan suppressions=$PWD/scripts/tsan-suppressions.txt print_suppressions=1"
fi
echo "== test: swift test --skip-build --sanitize=$sanitizer --build-path $build $*"
start=$(date +%s)
status=0
swift test --skip-build --sanitize="$sanitizer" --build-path "$build" "$@" || status=$?
echo "== swift test exited $status after $(( $(date +%s) - start )) s"
# A process whose suppressions matched writes only their counts ("Suppressions used:",
# "ThreadSanitizer: Matched N suppressions"): shown, not a failure. Anything that says ERROR,
# WARNING or FATAL is a report.
found=0
for file in "$reports"/*; do
    [ -e "$file" ] || continue
    if grep -qE "ERROR|WARNING|FATAL" "$file"; then
        found=1
        cat "$file" >&2
    else
        echo "== suppressed in $(basename "$file"):" && grep -vE "^-+$|^$" "$file"
    fi
done
if [ "$found" = 1 ]; then
    echo "sanitizers.sh: $sanitizer sanitizer reports above (files in $reports)" >&2
    exit 1
fi
[ "$status" = 0 ] || { echo "sanitizers.sh: tests failed under the $sanitizer sanitizer" >&2; exit "$status"; }
echo "sanitizers.sh: $sanitizer sanitizer: tests passed, no reports"
