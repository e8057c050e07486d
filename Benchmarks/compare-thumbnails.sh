#!/bin/sh
# Side by side: `sharing thumbnail` against vipsthumbnail (libvips) and Pillow (draft() + thumbnail()), the
# same input to the same size, each run as its own process: wall time (to the millisecond, timed.sh) and
# whole-process peak memory (GNU time's maximum resident set), median of RUNS (default 5) runs in which the
# tools take turns; the time ratio is the median of each run's ratio. Inputs come from make-thumbnail-inputs.py.
#   Benchmarks/compare-thumbnails.sh        (needs libvips-tools, imagemagick, libheif-examples, libjpeg-turbo-progs)
# Last, the floor for a 48 MP JPEG: libjpeg-turbo's 1/8-scale decode alone (djpeg), paired with ours at 300 px.
# PYTHON is a Python with Pillow (`make bench` gives its own, pinned); python3 if unset.
# SHARING=path/to/sharing measures that binary instead of building this checkout (to compare two versions).
set -eu
cd "$(dirname "$0")"
sh machine.sh
runs=${RUNS:-5}
data=${DATA_DIR:-/var/tmp/opensharing-bench}/thumbnails
python=${PYTHON:-python3}
[ -f "$data/48mp-smooth.jpg" ] || "$python" make-thumbnail-inputs.py "$data"
if [ -z "${SHARING:-}" ]; then (cd .. && swift build -c release --product sharing >/dev/null 2>&1 || swift build -c release --product sharing); fi
sharing=${SHARING:-$(cd .. && pwd)/.build/release/sharing}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat "$data"/* > /dev/null

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# One run of a command: appends "seconds KB" to $work/NAME, or records its failure in $work/NAME.failed.
once() {
    name=$1; shift
    sh timed.sh "$work/$name" "$@" || echo "failed: $(tail -1 "$work/$name.err" | cut -c1-60)" > "$work/$name.failed"
}
# "seconds KB" medians of a tool's runs, or its failure.
summary() {
    if [ -f "$work/$1.failed" ]; then cat "$work/$1.failed"; return; fi
    echo "$(cut -d' ' -f1 "$work/$1" | median) $(cut -d' ' -f2 "$work/$1" | median)"
}
# Pillow's fastest way: draft() lets libjpeg decode at a reduced scale, thumbnail() reduces the rest. HEIF
# through pillow-heif where it is installed (`make bench`'s Python has it).
cat > "$work/pillow.py" <<'PY'
import sys
from PIL import Image
try:
    import pillow_heif
    pillow_heif.register_heif_opener()
except ImportError:
    pass
image = Image.open(sys.argv[1])
image.draft("RGB", (int(sys.argv[2]),) * 2)
image.thumbnail((int(sys.argv[2]),) * 2)
image.convert("RGB").save(sys.argv[3], quality=85)
PY

echo "median of $runs paired runs (the three tools in turn, each its own process); time in seconds, peak resident"
echo "memory in KB; ratio = median over the runs of ours / vipsthumbnail in the same run"
: > "$work/version"; once version "$sharing" --version
echo "sharing --version alone: $(summary version | cut -d' ' -f2) KB"
printf '%-24s %-6s %18s %18s %18s %12s\n' input size "sharing thumbnail" vipsthumbnail "Pillow" "time ratio"
for case in "48mp.jpg 300" "48mp.jpg 2000" "48mp-smooth.jpg 300" "12mp.jpg 300" "12mp.png 300" "12mp.webp 300" "12mp.tif 300" "12mp-thumbnail.heic 300" "12mp.heic 300" \
            "12mp-grid-thumbnail.heic 300" "12mp-grid.heic 300"; do
    set -- $case
    for tool in ours vips pil; do rm -f "$work/$tool" "$work/$tool.failed"; done
    i=0
    while [ $i -lt "$runs" ]; do
        once ours "$sharing" thumbnail "$data/$1" --max "$2" --memory-budget 120 -o "$work/ours.jpg"
        once vips vipsthumbnail "$data/$1" -s "$2" -o "$work/vips.jpg"
        once pil "$python" "$work/pillow.py" "$data/$1" "$2" "$work/pil.jpg"
        i=$((i + 1))
    done
    ratio=-
    if [ ! -f "$work/ours.failed" ] && [ ! -f "$work/vips.failed" ]; then
        ratio=$(paste -d' ' "$work/ours" "$work/vips" | awk '$3 > 0 { print $1 / $3 }' | median | awk '{ printf "%.2fx", $1 }')
    fi
    printf '%-24s %-6s %18s %18s %18s %12s\n' "$1" "$2" "$(summary ours)" "$(summary vips)" "$(summary pil)" "$ratio"
done
# The floor: decoding each 48 MP JPEG at 1/8 scale and nothing else, no resampling, no encoding.
for input in 48mp.jpg 48mp-smooth.jpg; do
    for tool in ours djpeg; do rm -f "$work/$tool" "$work/$tool.failed"; done
    i=0
    while [ $i -lt "$runs" ]; do
        once ours "$sharing" thumbnail "$data/$input" --max 300 --memory-budget 120 -o "$work/ours.jpg"
        once djpeg djpeg -scale 1/8 -outfile "$work/djpeg.ppm" "$data/$input"
        i=$((i + 1))
    done
    floor=$(paste -d' ' "$work/ours" "$work/djpeg" | awk '$3 > 0 { print $1 / $3 }' | median | awk '{ printf "%.2fx", $1 }')
    echo "$input at 1/8 scale alone (djpeg -scale 1/8): $(summary djpeg); sharing thumbnail --max 300 is $floor of it"
done
