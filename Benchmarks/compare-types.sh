#!/bin/sh
# Side by side: OpenSharing's UTType against GIO's content types (the Linux desktop's type system), same
# operations and inputs, in one run. Prints nanoseconds per call and the ratio (ours / GIO's).
set -eu
cd "$(dirname "$0")"
sh machine.sh
mkdir -p .build/peers
gcc -O2 -o .build/peers/gio_types Peers/gio_types.c $(pkg-config --cflags --libs gio-2.0)
swift build -c release --product TypeTiming >/dev/null 2>&1 || swift build -c release --product TypeTiming
ours=$(.build/release/TypeTiming)
peer=$(.build/peers/gio_types)
printf '%-14s %12s %12s %8s\n' operation "OpenSharing" "GIO" ratio
echo "$ours" | while IFS="$(printf '\t')" read -r name ns _; do
    peer_ns=$(echo "$peer" | awk -F'\t' -v n="$name" '$1 == n { print $2 }')
    printf '%-14s %9s ns %9s ns %7.3fx\n' "$name" "$ns" "$peer_ns" "$(echo "$ns $peer_ns" | awk '{ print $1 / $2 }')"
done
