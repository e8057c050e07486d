#!/bin/sh
# Side by side, on one disk: receiving files durably with `sharing receive` against the durable copy the
# kernel can do (`cp SRC DST && sync DST`) and against the two ways share extensions are commonly written
# (a 1 KB stream loop; the whole file read into Data).
#   1. one large file (SIZE_MB, default 2048): wall time and whole-process peak memory (GNU time), the
#      memory also above `sharing --version` measured the same way;
#   2. many small files (COUNT, default 1000, 16 KB each): items per second.
# Each run writes to a fresh folder, and what the runs wrote is removed at the end, so that no run pays for
# another's deletions (ext4 skips recently freed inodes when allocating). RUNS (default 9) pairs.
# SHARING=path/to/sharing measures that binary instead of building this checkout.
# BEFORE=path/to/sharing also runs that build in each pair, right after `cp` and before SHARING, and prints
# its row and the paired ratio of the two builds: a change measured against the tree before it, in one run.
set -eu
cd "$(dirname "$0")"
sh machine.sh
size_mb=${SIZE_MB:-2048}
count=${COUNT:-1000}
runs=${RUNS:-9}
data=${DATA_DIR:-/var/tmp/opensharing-bench}
mkdir -p "$data"
if [ -z "${SHARING:-}" ]; then (cd .. && swift build -c release --product sharing >/dev/null 2>&1 || swift build -c release --product sharing); fi
swift build -c release --product ReceiveNaive >/dev/null 2>&1 || swift build -c release --product ReceiveNaive
sharing=${SHARING:-$(cd .. && pwd)/.build/release/sharing}
naive=$(pwd)/.build/release/ReceiveNaive

source="$data/source-${size_mb}m.bin"
[ -f "$source" ] || head -c "${size_mb}M" /dev/urandom > "$source"
small="$data/small-$count"
if [ ! -d "$small" ]; then
    mkdir -p "$small"
    i=0
    while [ $i -lt "$count" ]; do head -c 16384 /dev/urandom > "$small/file-$i.bin"; i=$((i + 1)); done
fi
# Everything starts from the page cache, as a shared file usually is.
cat "$source" "$small"/* > /dev/null

work="$data/work-$$"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
# "seconds peak-KB user-seconds system-seconds" of one run.
measure() { /usr/bin/time -f "%e %M %U %S" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: > "$work/cp.txt"; : > "$work/before.txt"; : > "$work/ours.txt"; : > "$work/stream.txt"; : > "$work/data.txt"; : > "$work/cp-small.txt"; : > "$work/ours-small.txt"
# cp and sharing receive run in pairs, back to back: this VM's disk makes the same 2 GiB durable copy take
# anywhere from 1.3 s to 8 s, so each pair's ratio says more than a ratio of medians.
for run in $(seq "$runs"); do
    sync
    measure sh -c 'cp "$1" "$2" && sync "$2"' - "$source" "$work/cp-$run.bin" >> "$work/cp.txt"
    if [ -n "${BEFORE:-}" ]; then
        sync
        measure "$BEFORE" receive "$source" --inbox "$work/inbox-before-$run" >> "$work/before.txt"
    fi
    sync
    measure "$sharing" receive "$source" --inbox "$work/inbox-$run" >> "$work/ours.txt"
    mkdir -p "$work/cp-small-$run"
    sync
    measure sh -c 'cp "$1"/* "$2" && sync "$2"/*' - "$small" "$work/cp-small-$run" >> "$work/cp-small.txt"
    sync
    measure sh -c '"$1" receive "$2"/* --inbox "$3" >/dev/null' - "$sharing" "$small" "$work/inbox-small-$run" >> "$work/ours-small.txt"
done
# The naive ways take many times longer; three runs say enough.
for run in 1 2 3; do
    sync
    measure "$naive" stream "$source" "$work/stream-$run.bin" >> "$work/stream.txt"
    sync
    measure "$naive" data "$source" "$work/data-$run.bin" >> "$work/data.txt"
    rm -f "$work/stream-$run.bin" "$work/data-$run.bin"
done
baseline=$(measure "$sharing" --version | cut -d' ' -f2)
t() { cut -d' ' -f1 "$work/$1.txt" | median; }
low() { cut -d' ' -f1 "$work/$1.txt" | sort -n | head -1; }
m() { cut -d' ' -f2 "$work/$1.txt" | median; }
user() { cut -d' ' -f3 "$work/$1.txt" | median; }
sys() { cut -d' ' -f4 "$work/$1.txt" | median; }
# The median over runs of (this run's time / the same run's time of the other).
paired() { paste -d' ' "$work/$1.txt" "$work/$2.txt" | awk '{ print $1 / $(NF / 2 + 1) }' | median; }
echo "one file of $size_mb MiB, received durably: median and fastest of $runs runs (3 for the naive ways)"
echo "memory is the peak resident set; sharing --version peaks at $baseline KB"
printf '%-26s %8s %8s %6s %6s %11s %11s %13s\n' "" "median" "fastest" "user" "sys" "peak" "extra" "ratio to cp"
row() {
    printf '%-26s %7ss %7ss %5ss %5ss %8s KB %8s KB %12s\n' "$1" "$(t "$2")" "$(low "$2")" "$(user "$2")" "$(sys "$2")" "$(m "$2")" "$3" "$4"
}
row "cp SRC DST && sync DST" cp "-" "1.00x"
if [ -n "${BEFORE:-}" ]; then
    row "sharing receive, BEFORE" before "$(($(m before) - baseline))" "$(paired before cp | awk '{ printf "%.2fx", $1 }') (paired)"
fi
row "sharing receive" ours "$(($(m ours) - baseline))" "$(paired ours cp | awk '{ printf "%.2fx", $1 }') (paired)"
if [ -n "${BEFORE:-}" ]; then
    echo "sharing receive against BEFORE: $(paired ours before | awk '{ printf "%.2fx", $1 }') (paired)"
fi
row "1 KB stream loop" stream "-" "$(echo "$(t stream) $(t cp)" | awk '{ printf "%.2fx", $1 / $2 }')"
row "whole file in Data" data "-" "$(echo "$(t data) $(t cp)" | awk '{ printf "%.2fx", $1 / $2 }')"
echo
echo "$count files of 16 KB, each received durably: median of $runs runs"
cp_small=$(t cp-small); ours_small=$(t ours-small)
printf '%-26s %7ss %8.0f items/s\n' "cp SRC/* DST && sync DST/*" "$cp_small" "$(echo "$count $cp_small" | awk '{ print $1 / $2 }')"
printf '%-26s %7ss %8.0f items/s   %s to cp (paired)\n' "sharing receive SRC/*" "$ours_small" "$(echo "$count $ours_small" | awk '{ print $1 / $2 }')" \
    "$(paired ours-small cp-small | awk '{ printf "%.2fx", $1 }')"
