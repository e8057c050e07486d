#!/bin/sh
# Side by side: ImageIO's thumbnail as extension code calls it (CGImageSourceCreateThumbnailAtIndex, then a JPEG
# through CGImageDestination) against vipsthumbnail, a 48 MP JPEG (photo-like, and smooth) to 2000 and to 300
# pixels, each run its own process: wall time (to the millisecond, timed.sh) and whole-process peak memory (GNU
# time's maximum resident set), median of RUNS (default 5) runs in which the two take turns; the time ratio is
# the median of each run's ratio. Beside them: the same program doing nothing (its own memory, the baseline),
# and the naive way (UIImage drawn into a renderer).
#   Benchmarks/compare-imageio.sh      (needs libvips-tools; inputs from make-thumbnail-inputs.py)
set -eu
cd "$(dirname "$0")"
sh machine.sh
runs=${RUNS:-5}
data=${DATA_DIR:-/var/tmp/opensharing-bench}/thumbnails
python=${PYTHON:-python3}
[ -f "$data/48mp-smooth.jpg" ] || "$python" make-thumbnail-inputs.py "$data"
swift build -c release --product ImageIOThumbnail >/dev/null 2>&1 || swift build -c release --product ImageIOThumbnail
program=$(swift build -c release --show-bin-path)/ImageIOThumbnail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$data/48mp.jpg" "$data/48mp-smooth.jpg" > /dev/null

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
once() { name=$1; shift; sh timed.sh "$work/$name" "$@" || true; }
summary() { echo "$(cut -d' ' -f1 "$work/$1" | median) $(cut -d' ' -f2 "$work/$1" | median)"; }

echo "median of $runs paired runs (each its own process); time in seconds, peak resident memory in KB;"
echo "ratio = median over the runs of ImageIO's / vipsthumbnail's time in the same run"
rm -f "$work/empty"
i=0; while [ $i -lt "$runs" ]; do once empty "$program" empty; i=$((i + 1)); done
echo "the same program doing nothing: $(summary empty | cut -d' ' -f2) KB"
printf '%-16s %-6s %20s %20s %12s %16s\n' input size "ImageIO thumbnail" vipsthumbnail "time ratio" "over nothing"
for case in "48mp.jpg 2000" "48mp.jpg 300" "48mp-smooth.jpg 2000" "48mp-smooth.jpg 300"; do
    set -- $case
    input=$1 size=$2
    rm -f "$work/ours" "$work/vips"
    i=0
    while [ $i -lt "$runs" ]; do
        once ours "$program" thumbnail "$data/$input" "$size" "$work/ours.jpg"
        once vips vipsthumbnail "$data/$input" -s "$size" -o "$work/vips.jpg"
        i=$((i + 1))
    done
    ratio=$(paste -d' ' "$work/ours" "$work/vips" | awk '$3 > 0 { print $1 / $3 }' | median | awk '{ printf "%.2fx", $1 }')
    over=$(( $(summary ours | cut -d' ' -f2) - $(summary empty | cut -d' ' -f2) ))
    printf '%-16s %-6s %20s %20s %12s %13s KB\n' "$input" "$size" "$(summary ours)" "$(summary vips)" "$ratio" "$over"
done
rm -f "$work/naive"
i=0; while [ $i -lt "$runs" ]; do once naive "$program" naive "$data/48mp.jpg" 2000 "$work/naive.jpg"; i=$((i + 1)); done
echo "the naive way (UIImage drawn into a 2000-pixel renderer, then jpegData): $(summary naive) (seconds, KB),"
echo "  $(( $(summary naive | cut -d' ' -f2) - $(summary empty | cut -d' ' -f2) )) KB over nothing"
