#!/bin/sh
# Side by side, in paired runs: loading a 1 GiB file representation with loadTransferable (a type whose
# FileRepresentation imports it) against loadFileRepresentation of the same representation, both as a file copy
# on the same file system; and a small Codable value's round trip through CodableRepresentation
# (exported(as:), then init(importing:contentType:)) against JSONEncoder and JSONDecoder alone. Prints the
# medians and the ratios.
set -eu
cd "$(dirname "$0")"
sh machine.sh
size_mb=${SIZE_MB:-1024}
runs=${RUNS:-7}
# In memory by default, as compare-provider-copy.sh: on a virtual disk writeback swamps what is measured.
data=${DATA_DIR:-/dev/shm/opensharing-bench}
mkdir -p "$data/transfer-tmp"
source="$data/source-${size_mb}m.bin"
[ -f "$source" ] || head -c "${size_mb}M" /dev/urandom > "$source"
swift build -c release --product TransferableLoad >/dev/null 2>&1 || swift build -c release --product TransferableLoad
measure() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: > "$data/provider.txt"; : > "$data/transferable.txt"; : > "$data/ratio.txt"
# Each pair alternates which goes first, and starts with the other's writes flushed.
for run in $(seq "$runs"); do
    if [ $((run % 2)) -eq 1 ]; then order="provider transferable"; else order="transferable provider"; fi
    for mode in $order; do
        sync
        measure .build/release/TransferableLoad file "$source" "$data/transfer-tmp" "$mode" >> "$data/$mode.txt"
    done
    paste -d' ' "$data/transferable.txt" "$data/provider.txt" | tail -1 | awk '{ printf "%.4f\n", $1 / $2 }' >> "$data/ratio.txt"
done
echo "file: ${size_mb} MiB, median of $runs paired runs"
printf '%-40s %8s s\n' "loadFileRepresentation" "$(median < "$data/provider.txt")"
printf '%-40s %8s s\n' "loadTransferable (FileRepresentation)" "$(median < "$data/transferable.txt")"
echo "median ratio of pairs: $(median < "$data/ratio.txt")x"
count=${COUNT:-20000}
: > "$data/codable.txt"
for _ in $(seq "$runs"); do .build/release/TransferableLoad codable "$count" >> "$data/codable.txt"; done
pairs=$(wc -l < "$data/codable.txt")
plain=$(cut -d' ' -f1 "$data/codable.txt" | median); transferred=$(cut -d' ' -f2 "$data/codable.txt" | median)
ratio=$(awk '{ printf "%.4f\n", $2 / $1 }' "$data/codable.txt" | median)
echo "codable round trip: $pairs paired batches of $count, medians"
printf '%-40s %8s µs\n' "JSONEncoder + JSONDecoder" "$plain"
printf '%-40s %8s µs\n' "CodableRepresentation" "$transferred"
echo "median ratio of pairs: ${ratio}x (machinery: $(awk -v a="$transferred" -v b="$plain" 'BEGIN { printf "%.2f", a - b }') µs a round trip)"
