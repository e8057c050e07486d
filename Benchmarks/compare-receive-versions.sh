#!/bin/sh
# Two builds of `sharing receive` side by side with the kernel's durable copy, on one file, in one run:
# each round runs `cp SRC DST && sync DST`, then BEFORE, then AFTER (each `sharing receive SRC --inbox DIR`),
# and prints the three as "seconds user sys peak-KB". Nothing is removed until the end (ext4 skips recently
# freed blocks, so a run that follows a removal pays for it), so the folder needs room for 3 × ROUNDS copies.
#   Benchmarks/compare-receive-versions.sh SRC BEFORE AFTER        (ROUNDS, default 7)
# The last lines are the medians over the rounds of each time and of each ratio, pair by pair.
set -eu
[ $# -eq 3 ] || { echo "usage: $0 SRC BEFORE-BINARY AFTER-BINARY" >&2; exit 2; }
src=$1; before=$2; after=$3; rounds=${ROUNDS:-7}
work=$(dirname "$src")/versions-$$
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
cat "$src" > /dev/null
measure() { { /usr/bin/time -f "%e %U %S %M" "$@" > /dev/null; } 2>&1 | tail -1; }
: > "$work/rounds"
for round in $(seq "$rounds"); do
    sync; kernel=$(measure sh -c 'cp "$1" "$2" && sync "$2"' - "$src" "$work/cp-$round")
    sync; old=$(measure "$before" receive "$src" --inbox "$work/before-$round")
    sync; new=$(measure "$after" receive "$src" --inbox "$work/after-$round")
    echo "$kernel | $old | $new" | tee -a "$work/rounds"
done
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
column() { awk -F'|' -v f="$1" '{ split($1, k, " "); split($2, b, " "); split($3, a, " ");
    v["cp"] = k[1]; v["before"] = b[1]; v["after"] = a[1]
    v["before/cp"] = b[1] / k[1]; v["after/cp"] = a[1] / k[1]; v["after/before"] = a[1] / b[1]; print v[f] }' "$work/rounds" | median; }
echo "medians of $rounds rounds: cp $(column cp) s, before $(column before) s, after $(column after) s"
echo "paired ratios: before/cp $(column before/cp), after/cp $(column after/cp), after/before $(column after/before)"
