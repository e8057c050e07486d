#!/bin/sh
# One line naming the machine a benchmark's figures hold for: the CPU's model, the features its kernels are
# picked by (AVX-512, AVX2, SHA, NEON), the cores, and the disk and file system under DIR (default: the
# benchmarks' data directory). Every compare-*.sh prints it first.
dir=${1:-${DATA_DIR:-/var/tmp/opensharing-bench}}
mkdir -p "$dir"
model=$(grep -m1 -E '^(model name|Model|CPU part)' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')
[ -n "$model" ] || model=$(uname -m)
flags=$(grep -m1 -E '^(flags|Features)' /proc/cpuinfo 2>/dev/null | cut -d: -f2)
has() { case " $flags " in *" $1 "*) echo yes ;; *) echo no ;; esac; }
sha=$(has sha_ni); [ "$sha" = yes ] || sha=$(has sha2)
source=$(df -P "$dir" | awk 'NR == 2 { print $1 }')
fs=$(df -P -T "$dir" 2>/dev/null | awk 'NR == 2 { print $2 }')
printf 'machine: %s, %s cores; AVX-512 %s, AVX2 %s, SHA %s, NEON %s; disk %s (%s)\n' \
    "$model" "$(nproc)" "$(has avx512f)" "$(has avx2)" "$sha" "$(has asimd)" "$source" "$fs"
