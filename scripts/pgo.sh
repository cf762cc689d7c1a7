#!/usr/bin/env bash
# Writes pgo/pokesearch.profdata, the profile release builds are optimised with (Package.swift):
#   scripts/pgo.sh
# Builds instrumented binaries (no profile in, counters out), runs them on a training run
# (the benchmark's workloads generated with another seed than Benchmarks/queries.tsv's, so the
# benchmark times queries the profile never saw: the engine in process, the server over its
# socket, the one-shot CLI), and merges the counts. A profile older than the code only leaves
# the changed functions unoptimised by it: regenerate it as DEVELOPERS.md says (deliberately,
# when a paired benchmark shows the stale one costs speed), not after every change.
#   scripts/pgo.sh --check
# Says whether the profile was trained on this code (exit 1 and a line on stderr if not;
# scripts/bench.sh asks): a stale profile builds silently, only without its gain in the
# functions that changed. Comments and formatting do not count (see sources_hash).
#   scripts/pgo.sh --hash
# Prints the hash --check compares with pgo/sources.sha256.
# When to regenerate: DEVELOPERS.md, "Profile-guided optimisation".
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# What the profile was trained on: every file of Sources/ and Package.swift (the build
# settings), by path and by content with comments and formatting taken out, which change no
# function the profile counts. Swift, C and header files are read token by token: `//` and
# (nested) `/* */` comments go, a run of spaces and tabs becomes one space, a line break ends
# a line, and blank lines and the spaces at either end of a line go. String literals
# ("…", """…""", #"…"#, and C's '…') are kept byte for byte, so a `//` inside one is text.
# Where the reading could be wrong (an interpolation holding a string with `//`, say) it
# keeps more, never less: such a change counts as a change of code. Other files (module
# maps) count byte for byte.
sources_hash() {
  find Sources Package.swift -type f -print0 | LC_ALL=C sort -z | perl -0 -MDigest::SHA -e '
    my $digest = Digest::SHA->new(256);
    while (my $path = <STDIN>) {
      chomp $path;
      open(my $file, "<:raw", $path) or die "pgo.sh: cannot read $path\n";
      my $text = do { local $/; <$file> };
      my $c = $path =~ /\.[ch]$/;
      if ($c || $path =~ /\.swift$/) {
        my $out = "";
        pos($text) = 0;
        while (pos($text) < length $text) {
          if ($text =~ /\G\/\/[^\n]*/gc) { }
          elsif ($text =~ /\G\/\*/gc) {
            my $depth = 1;
            while ($depth > 0 && $text =~ /\G.*?(\/\*|\*\/)/gcs) { $depth += $1 eq "/*" ? 1 : -1 }
            pos($text) = length $text if $depth > 0;
          }
          elsif (!$c && $text =~ /\G(#*)"""/gc) {
            my $hashes = $1;
            my $body = $hashes ne "" ? qr/.*?"""$hashes/s : qr/(?:\\.|[^\\])*?"""/s;
            my $start = pos($text);
            $text =~ /\G$body/gc or pos($text) = length $text;
            $out .= $hashes . "\"\"\"" . substr($text, $start, pos($text) - $start);
          }
          elsif (!$c && $text =~ /\G(#+)"(.*?)"\1/gc) { $out .= $& }
          elsif ($text =~ /\G"(?:\\.|[^"\\\n])*"?/gc) { $out .= $& }
          elsif ($c && $text =~ /\G\x27(?:\\.|[^\x27\\\n])*\x27?/gc) { $out .= $& }
          elsif ($text =~ /\G[ \t\r\f]*\n\s*/gc) { $out =~ s/ $//; $out .= "\n" if $out ne "" && $out !~ /\n$/ }
          elsif ($text =~ /\G[ \t\r\f]+/gc) { $out .= " " if $out ne "" && $out !~ /[ \n]$/ }
          elsif ($text =~ /\G[^\/"\x27#\s]+/gc) { $out .= $& }
          else { $text =~ /\G./gcs; $out .= $& }
        }
        $text = $out;
      }
      $digest->add("$path\0" . length($text) . "\0$text");
    }
    print $digest->hexdigest, "\n";'
}
case "${1:-}" in
  --hash) sources_hash; exit 0 ;;
  --check)
    [ "$(cat pgo/sources.sha256 2>/dev/null)" = "$(sources_hash)" ] && exit 0
    echo "pgo.sh: pgo/pokesearch.profdata was trained on other code than this: see DEVELOPERS.md before regenerating it" >&2
    exit 1 ;;
  "") ;;
  *) echo "usage: scripts/pgo.sh [--check | --hash]" >&2; exit 2 ;;
esac

toolchain_lib="$(dirname "$(command -v swift)")/../lib"
runtime="$(ls "$toolchain_lib"/clang/*/lib/linux/libclang_rt.profile-x86_64.a 2>/dev/null | head -1)"
[ -n "$runtime" ] || { echo "pgo.sh: no libclang_rt.profile in the toolchain ($toolchain_lib/clang)" >&2; exit 1; }
profdata="$(command -v llvm-profdata || true)"
[ -n "$profdata" ] || { echo "pgo.sh: no llvm-profdata beside swift" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
build=.build/pgo-instrumented

# The frontend's LLVM-level instrumentation (-profile-generate would count for Swift's own
# optimiser too, whose use of it crashes: see Package.swift); the driver does not link its
# runtime for it, so it is linked here, kept by its registration symbol.
POKESEARCH_PGO=off swift build -c release --static-swift-stdlib --build-path "$build" \
  -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate="$work/unused.profraw" \
  -Xlinker -u__llvm_profile_runtime -Xlinker "$runtime"

# (Generating the training queries is not what pokesearch runs: its counts are left out.)
export LLVM_PROFILE_FILE="$work/generate.profraw"
"$build/release/pokesearch-bench" --regenerate-queries --seed 1 --queries "$work/training.tsv"
# %p: one file per process (the bench, the server, each one-shot CLI run). A fixed number of
# pipelined requests, not as many as fill two seconds: the same training every time.
export LLVM_PROFILE_FILE="$work/raw/%p.profraw"
"$build/release/pokesearch-bench" --quick --queries "$work/training.tsv" --pokesearch "$build/release/pokesearch" \
  --pipelined-requests 300000 --out "$work/training.json" >/dev/null
unset LLVM_PROFILE_FILE

mkdir -p pgo
# (Functions that never ran stay in, counted zero: LLVM compiles them as cold, for size, and
# places them apart from the code that runs.)
"$profdata" merge -o pgo/pokesearch.profdata "$work"/raw/*.profraw
sources_hash >pgo/sources.sha256
# SwiftPM does not track the profile as an input: the next release build must recompile.
rm -rf .build/release "$(swift build -c release --show-bin-path)"
echo "pgo.sh: wrote pgo/pokesearch.profdata ($(wc -c <pgo/pokesearch.profdata) bytes) from $(ls "$work"/raw | wc -l) processes"
