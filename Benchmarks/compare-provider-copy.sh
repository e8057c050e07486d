#!/bin/sh
# Side by side: loading a 1 GiB file representation as a file copy through NSItemProvider, against `cp` of
# the same file on the same file system, and against `cp` then `rm` of the copy (the same work: the
# provider removes its copy when the consumer's handler returns). Prints wall time and peak memory of each,
# and the ratios.
# Peak memory is whole-process maximum RSS (GNU time); "extra" subtracts the provider process's baseline.
set -eu
cd "$(dirname "$0")"
sh machine.sh
size_mb=${SIZE_MB:-1024}
runs=${RUNS:-5}
# On /dev/shm (memory) by default: on this VM's virtual disk, writeback makes any 1 GiB copy take from
# 0.3 s to 2.9 s, whoever copies; in memory what is measured is the copying. DATA_DIR=… for a disk.
data=${DATA_DIR:-/dev/shm/opensharing-bench}
mkdir -p "$data/tmp"
source="$data/source-${size_mb}m.bin"
[ -f "$source" ] || head -c "${size_mb}M" /dev/urandom > "$source"
swift build -c release --product ProviderCopy >/dev/null 2>&1 || swift build -c release --product ProviderCopy
measure() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: > "$data/cp.txt"; : > "$data/cprm.txt"; : > "$data/ours.txt"
# Each run starts with the previous run's writes flushed (sync), so neither pays for the other's.
for _ in $(seq "$runs"); do
    rm -f "$data/tmp/cp-copy"; sync
    measure cp "$source" "$data/tmp/cp-copy" >> "$data/cp.txt"
    rm -f "$data/tmp/cp-copy"; sync
    measure sh -c 'cp "$1" "$2" && rm "$2"' - "$source" "$data/tmp/cp-copy" >> "$data/cprm.txt"
    sync
    measure .build/release/ProviderCopy "$source" "$(cd "$data/tmp" && pwd)" >> "$data/ours.txt"
done
baseline=$(measure .build/release/ProviderCopy --baseline | cut -d' ' -f2)
cp_time=$(cut -d' ' -f1 "$data/cp.txt" | median); cp_mem=$(cut -d' ' -f2 "$data/cp.txt" | median)
cprm_time=$(cut -d' ' -f1 "$data/cprm.txt" | median)
our_time=$(cut -d' ' -f1 "$data/ours.txt" | median); our_mem=$(cut -d' ' -f2 "$data/ours.txt" | median)
echo "file: ${size_mb} MiB, median of $runs runs"
printf '%-28s %8s s %9s KB\n' "cp" "$cp_time" "$cp_mem"
printf '%-28s %8s s\n' "cp, then rm of the copy" "$cprm_time"
printf '%-28s %8s s %9s KB (baseline %s KB, extra %s KB)\n' "NSItemProvider file copy" "$our_time" "$our_mem" "$baseline" "$((our_mem - baseline))"
awk -v a="$our_time" -v b="$cp_time" -v c="$cprm_time" \
    'BEGIN { printf "time ratio: %.2fx of cp, %.2fx of cp + rm\n", a / b, a / c }'
