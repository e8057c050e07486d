#!/bin/sh
# Two builds of `sharing` side by side, in one run, on the work that hashes: BEFORE and AFTER are two
# binaries (two commits, or one commit built two ways). Paired runs, alternating, medians:
#   1. hash: `sharing inbox list DIR --verify` over an inbox holding one SIZE_MB file (default 1024), which
#      reads the payload from the page cache and hashes it (BLAKE3);
#   2. durable receive: `sharing receive FILE --inbox DIR` of the same file (copy, hash, fsync, rename).
# Each line gives wall, user and system seconds and the peak resident set (GNU time).
#   Benchmarks/compare-builds.sh BEFORE AFTER [RUNS]
set -eu
before=$1
after=$2
runs=${3:-${RUNS:-7}}
size_mb=${SIZE_MB:-1024}
data=${DATA_DIR:-/var/tmp/opensharing-bench}
mkdir -p "$data"
sh "$(dirname "$0")/machine.sh" "$data"
source="$data/source-${size_mb}m.bin"
[ -f "$source" ] || head -c "${size_mb}M" /dev/urandom > "$source"
work="$data/builds-$$"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cat "$source" > /dev/null
"$after" receive "$source" --inbox "$work/hashed" > /dev/null
cat "$work"/hashed/new/*/payload/* > /dev/null

measure() { /usr/bin/time -f "%e %U %S %M" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
for name in before after; do : > "$work/hash-$name.txt"; : > "$work/receive-$name.txt"; done
for run in $(seq "$runs"); do
    for name in before after; do
        eval binary=\$$name
        measure "$binary" inbox list "$work/hashed" --verify >> "$work/hash-$name.txt"
        sync
        measure "$binary" receive "$source" --inbox "$work/inbox-$name-$run" >> "$work/receive-$name.txt"
        rm -rf "$work/inbox-$name-$run"
    done
done
column() { cut -d' ' -f"$2" "$work/$1.txt" | median; }
# The median over runs of (after / before) in the same pair.
paired() { paste -d' ' "$work/$1-after.txt" "$work/$1-before.txt" | awk '{ print $1 / $5 }' | median; }
echo "$size_mb MiB, median of $runs paired runs; CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); disk: $(df --output=source "$data" | tail -1)"
printf '%-34s %8s %8s %8s %10s %10s\n' "" wall user sys peak "after/before"
for work_kind in hash receive; do
    for name in before after; do
        ratio=""
        [ "$name" = after ] && ratio=$(paired "$work_kind" | awk '{ printf "%.2fx", $1 }')
        printf '%-34s %7ss %7ss %7ss %7s KB %10s\n' "$work_kind, $name" "$(column "$work_kind-$name" 1)" \
            "$(column "$work_kind-$name" 2)" "$(column "$work_kind-$name" 3)" "$(column "$work_kind-$name" 4)" "$ratio"
    done
done
