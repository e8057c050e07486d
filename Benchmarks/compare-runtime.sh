#!/bin/sh
# The extension runtime beside its peers (Linux):
#   1. RuntimeTiming: a small load's round trip beside a bare 64-byte SOCK_SEQPACKET round trip between two
#      processes (Peers/seqpacket_pingpong.c); launch to beginRequest beside spawning a Swift program with
#      Foundation that exits (BareFoundation); the extension's footprint at beginRequest beside that
#      program's; how far over a 120 MB limit an allocation at 500 MB/s gets. RUNS (default 11) pairs; then
#      all of it again with every process on one core.
#   2. FileSaver (an extension process, 120 MB limit) saving one file of SIZE_MB (default 1024), given as
#      `sharing receive` is given it (openable in place, no host profile), beside
#      `sharing receive` of the same file in one process: paired runs (PAIRS, default 5), median ratio.
set -eu
cd "$(dirname "$0")"
sh machine.sh
runs=${RUNS:-11}
pairs=${PAIRS:-5}
size_mb=${SIZE_MB:-1024}
data=${DATA_DIR:-/var/tmp/opensharing-bench}
mkdir -p "$data"
(cd .. && swift build -c release >/dev/null 2>&1 || swift build -c release)
for product in RuntimeTiming RoundTrip BareFoundation; do
    swift build -c release --product "$product" >/dev/null 2>&1 || swift build -c release --product "$product"
done
root=$(cd .. && pwd)
ours=$root/.build/release
here=$(pwd)/.build/release
work="$data/runtime-$$"
mkdir -p "$work/bundles"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/seqpacket_pingpong" Peers/seqpacket_pingpong.c

# The bundles: the benchmark's RoundTrip extension, and the examples' MemoryHog and FileSaver (release builds).
bundle() {  # name, executable, Info.plist
    mkdir -p "$work/bundles/$1.appex"
    cp "$3" "$work/bundles/$1.appex/Info.plist"
    cp "$2" "$work/bundles/$1.appex/$1"
}
sed -e 's/NeverCompletes/RoundTrip/g' \
    "$root/Examples/Extensions/NeverCompletes/Info.plist" > "$work/RoundTrip.plist"
bundle RoundTrip "$here/RoundTrip" "$work/RoundTrip.plist"
bundle MemoryHog "$ours/MemoryHog" "$root/Examples/Extensions/MemoryHog/Info.plist"
bundle FileSaver "$ours/FileSaver" "$root/Examples/Extensions/FileSaver/Info.plist"
cp "$root/Examples/Extensions/FileSaver/FileSaver.entitlements" "$work/bundles/FileSaver.appex/archived-expanded-entitlements.xcent"

echo "== the runtime beside a bare socket and a bare Foundation program"
pingpong=$("$work/seqpacket_pingpong" 100000)
"$here/RuntimeTiming" "$work/bundles" "$here/BareFoundation" "$pingpong" "$runs"

# On this VM a wake-up across cores costs most of a bare round trip (20 µs there, 6.7 µs on one core): the
# same on one core shows what the runtime itself costs.
echo
echo "== the same with host, extension and peers all on core 0"
pinned=$(taskset -c 0 "$work/seqpacket_pingpong" 100000)
taskset -c 0 "$here/RuntimeTiming" "$work/bundles" "$here/BareFoundation" "$pinned" "$runs"

echo
echo "== one file of $size_mb MiB: FileSaver (its own process, 120 MB limit) beside sharing receive (one process)"
source="$data/source-${size_mb}m.bin"
[ -f "$source" ] || head -c "${size_mb}M" /dev/urandom > "$source"
cat "$source" > /dev/null
seconds() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: > "$work/receive.txt"; : > "$work/run.txt"; : > "$work/peaks.txt"
for pair in $(seq "$pairs"); do
    sync
    seconds "$ours/sharing" receive "$source" --inbox "$work/inbox-$pair" >> "$work/receive.txt"
    rm -rf "$work/inbox-$pair"
    mkdir -p "$work/groups-$pair"
    sync
    start=$(date +%s.%N)
    "$ours/sharing" run "$work/bundles/FileSaver.appex" --file "$source" --app-group "$work/groups-$pair" \
        --memory-limit 120MB > "$work/run-$pair.log"
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.2f\n", $2 - $1 }' >> "$work/run.txt"
    grep "peak memory" "$work/run-$pair.log" | awk '{ print $3 }' >> "$work/peaks.txt"
    rm -rf "$work/groups-$pair"
done
paste -d' ' "$work/run.txt" "$work/receive.txt" | awk '{ print $1 / $2 }' | median > "$work/ratio.txt"
printf '%-44s %8s\n' "sharing receive (one process), median" "$(median < "$work/receive.txt")s"
printf '%-44s %8s  extension peak %s MB (median)\n' "sharing run FileSaver.appex, median" "$(median < "$work/run.txt")s" "$(median < "$work/peaks.txt")"
printf '%-44s %8s  (target <= 1.25x)\n' "paired median ratio" "$(awk '{ printf "%.2fx", $1 }' "$work/ratio.txt")"
