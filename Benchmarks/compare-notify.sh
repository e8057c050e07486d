#!/bin/sh
# A notification through a service that only edits its title (Benchmarks/TitleEditor), payload bytes to the
# shown notification: the first (its process started for it) beside spawning a bare Foundation program that
# exits, each later one through the same process, and the service's peak footprint beside that program's
# (target: at most 3 MB more). RUNS (default 11).
set -eu
cd "$(dirname "$0")"
sh machine.sh
runs=${RUNS:-11}
for product in NotifyTiming TitleEditor BareFoundation; do
    swift build -c release --product "$product" >/dev/null 2>&1 || swift build -c release --product "$product"
done
here=$(pwd)/.build/release
root=$(cd .. && pwd)
work=$(mktemp -d /tmp/opensharing-notify-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/TitleEditor.appex"
sed -e 's/SilentService/TitleEditor/g' "$root/Examples/Extensions/SilentService/Info.plist" > "$work/TitleEditor.appex/Info.plist"
cp "$here/TitleEditor" "$work/TitleEditor.appex/TitleEditor"
echo "== a notification through a title-editing service beside a bare Foundation program"
"$here/NotifyTiming" "$work/TitleEditor.appex" "$here/BareFoundation" "$runs"
