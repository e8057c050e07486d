#!/bin/sh
# The hash alone, side by side in one run: throughput over a file of SIZE_MB (default 1024) MiB in the page
# cache, median of RUNS (default 5), one thread each:
#   - OpenSharing's BLAKE3 (Sources/CBLAKE3, built here at -O2, as SwiftPM builds C in release): the kernel this CPU gets,
#     AVX2 where that is AVX-512, and the portable one;
#   - the blake3 package on PyPI (the BLAKE3 team's Rust implementation), one thread;
#   - openssl dgst -sha256, as the CPU is, and with its SHA extensions masked (OPENSSL_ia32cap), which is
#     how SHA-256 runs on CPUs without them.
set -eu
cd "$(dirname "$0")"
sh machine.sh
size_mb=${SIZE_MB:-1024}
runs=${RUNS:-5}
data=${DATA_DIR:-/var/tmp/opensharing-bench}
mkdir -p "$data"
file="$data/hash-${size_mb}m.bin"
[ -f "$file" ] || head -c "${size_mb}M" /dev/urandom > "$file"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -I../Sources/CBLAKE3/include ../Sources/CBLAKE3/*.c Peers/b3file.c -o "$work/b3file"
python3 -c "import blake3" 2>/dev/null || python3 -m pip install --quiet --root-user-action=ignore blake3
cat "$file" > /dev/null

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
seconds() {
    : > "$work/t"
    i=0
    while [ $i -lt "$runs" ]; do
        /usr/bin/time -f "%e" -o "$work/one" "$@" > "$work/out"
        cat "$work/one" >> "$work/t"
        i=$((i + 1))
    done
    median < "$work/t"
}
row() {
    s=$(seconds "$@")
    printf '%-44s %7ss %8s GB/s   %s\n' "$label" "$s" "$(echo "$size_mb $s" | awk '{ printf "%.2f", $1 * 1048576 / $2 / 1e9 }')" "$(cut -c1-16 "$work/out")"
}
echo "$size_mb MiB from the page cache, median of $runs runs, one thread; CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(grep -o -m1 -w sha_ni /proc/cpuinfo || echo 'no SHA extensions')"
label="OpenSharing BLAKE3 ($("$work/b3file" /dev/null | cut -d' ' -f3))"; row "$work/b3file" "$file"
if grep -q -m1 -w avx512f /proc/cpuinfo; then label="OpenSharing BLAKE3 (avx2, as on CPUs without AVX-512)"; row "$work/b3file" "$file" avx2; fi
label="OpenSharing BLAKE3 (portable)"; row "$work/b3file" "$file" portable
label="blake3 on PyPI (max_threads=1)"; row python3 -c "import sys, blake3; h = blake3.blake3(); h.update_mmap(sys.argv[1]); print(h.hexdigest())" "$file"
label="openssl dgst -sha256"; row openssl dgst -sha256 -r "$file"
label="openssl dgst -sha256, SHA extensions masked"; row env OPENSSL_ia32cap=":~0x20000000" openssl dgst -sha256 -r "$file"
