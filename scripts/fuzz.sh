#!/usr/bin/env bash
# Runs one libFuzzer target for a while: scripts/fuzz.sh TARGET SECONDS
# TARGET: fuzz-query | fuzz-protocol | fuzz-corpus | fuzz-mapping (Fuzz/TARGET).
# Builds it (release, ASan, libFuzzer coverage) under .build/fuzz, then fuzzes from the committed
# seeds (Fuzz/corpus/TARGET) plus what earlier runs found (.build/fuzz/corpus/TARGET).
# A crash, a leak, an input slower than 5 s or over 4 GB exits non-zero and leaves the
# input in .build/fuzz/artifacts/; replay it with `scripts/fuzz.sh TARGET replay FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET SECONDS (targets: fuzz-query fuzz-protocol fuzz-corpus fuzz-mapping)}
seconds=${2:?usage: scripts/fuzz.sh TARGET SECONDS}
case "$target" in
    fuzz-query) max_len=4200 ;;      # past QueryParser.maxLength (4096)
    fuzz-protocol) max_len=20000 ;;  # past LineFramer.maxLineBytes (8192), twice
    fuzz-corpus | fuzz-mapping) max_len=16384 ;;
    *) echo "fuzz.sh: unknown target '$target' (fuzz-query, fuzz-protocol, fuzz-corpus, fuzz-mapping)" >&2; exit 2 ;;
esac

build=.build/fuzz
# (gold's "Cannot export local symbol" warnings about ASan's helpers are noise. No profile:
# the instrumented code is not what it was made for, and fuzzing wants coverage, not layout.)
if ! POKESEARCH_FUZZ=1 POKESEARCH_PGO=off swift build -c release --build-path "$build" --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing >"$build.log" 2>&1; then
    grep -v -e "Cannot export local symbol" "$build.log" >&2
    echo "fuzz.sh: building $target failed" >&2
    exit 1
fi
binary="$build/release/$target"

export POKESEARCH_CORPUS="$PWD/corpus"
if [ "$seconds" = replay ]; then
    exec "$binary" "${@:3}"
fi
mkdir -p "$build/corpus/$target" "$build/artifacts"
# FUZZ_SLOW_OK=1 (long runs while a known slow input is being fixed): an input may take 60 s
# instead of 5 before it counts as a hang; inputs over 2 s are still logged ("Slowest unit").
timeout=5
[ "${FUZZ_SLOW_OK:-0}" = 1 ] && timeout=60
exec "$binary" "$build/corpus/$target" "Fuzz/corpus/$target" -report_slow_units=2 \
    -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -max_len="$max_len" \
    -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1
