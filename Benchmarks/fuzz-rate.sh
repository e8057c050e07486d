#!/bin/sh
# How fast `sharing fuzz` runs shares in the common case (issue 41: at least 20 a second on two cores): the
# careful control (CarefulShare, an extension that describes what it is given and completes at once), release
# builds, SHARES (default 200) shares for each of RUNS (default 5) seeds; prints each run's line and the median
# of the extensions run per second (skipped shares, which start nothing, not counted). No peer exists to pair
# it with: no other tool runs an iOS share extension on generated shares.
set -eu
cd "$(dirname "$0")"
sh machine.sh
runs=${RUNS:-5}
shares=${SHARES:-200}
data=${DATA_DIR:-/var/tmp/opensharing-bench}
root=$(cd .. && pwd)
(cd .. && swift build -c release --product sharing >/dev/null 2>&1 || swift build -c release --product sharing)
(cd .. && swift build -c release --product CarefulShare >/dev/null 2>&1 || swift build -c release --product CarefulShare)
work="$data/fuzz-rate-$$"
bundle="$work/CarefulShare.appex"
mkdir -p "$bundle"
trap 'rm -rf "$work"' EXIT
cp "$root/Examples/Extensions/CarefulShare/Info.plist" "$root/.build/release/CarefulShare" "$bundle/"
seed=1
while [ "$seed" -le "$runs" ]; do
    "$root/.build/release/sharing" fuzz "$bundle" --shares "$shares" --seed "$seed" --out "$work/out" --work "$work/work" | grep 'shares in'
    seed=$((seed + 1))
done | tee "$work/lines"
sed -n 's/.*run (\([0-9.]*\) per second).*/\1/p' "$work/lines" | sort -n | awk '{ v[NR] = $1 } END { printf "median: %s extensions run per second\n", v[int((NR + 1) / 2)] }'
