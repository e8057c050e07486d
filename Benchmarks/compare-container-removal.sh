#!/bin/sh
# What the host's removal of a container of COUNT (default 100000) empty files costs an extension run, beside
# `rm -rf` of the same tree: `sharing run` of an extension that makes the files and completes, timed from its
# last file to the command's exit (the removal, the report, the process's end), and `rm -rf` of a tree made
# the same way. PAIRS (default 5) pairs; the medians and their ratio. Target (issue 35): under 5 s. With
# BEFORE set to another build's `sharing`, it runs in each pair too.
set -eu
cd "$(dirname "$0")"
sh machine.sh
pairs=${PAIRS:-5}
count=${COUNT:-100000}
root=$(cd .. && pwd)
(cd .. && swift build -c release --product sharing >/dev/null 2>&1 || swift build -c release --product sharing)
work=$(mktemp -d /var/tmp/opensharing-removal-XXXXXX)
trap 'rm -rf "$work"' EXIT
bundle="$work/ManyFiles.appex"
mkdir -p "$bundle"
sed -e 's/<string>NeverCompletes<\/string>/<string>ManyFiles<\/string>/' "$root/Examples/Extensions/NeverCompletes/Info.plist" > "$bundle/Info.plist"
sed -e "s/{COUNT}/$count/" many-files.py > "$bundle/ManyFiles"
chmod +x "$bundle/ManyFiles"
cp "$root/Tests/ExtensionRuntimeTests/Hostile/wire.py" "$bundle/wire.py"
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
: > "$work/ours.txt"; : > "$work/peer.txt"
timed() {  # sharing binary, file of seconds; a run of this tree's that does not complete stops the script
    rm -rf "$work/groups"; mkdir -p "$work/groups"
    status=0
    "$1" run "$bundle" --host safari --url https://example.com --ignore-activation --app-group "$work/groups" > "$work/run.txt" || status=$?
    [ "$status" = 0 ] || [ "$1" = "${BEFORE:-}" ] || { echo "sharing run exited $status"; cat "$work/run.txt"; exit 1; }
    ended=$(date +%s.%N)
    python3 -c "print('%.3f' % ($ended - float(open('$work/groups/made').read())))" >> "$2"
}
: > "$work/before.txt"
for pair in $(seq "$pairs"); do
    timed "$root/.build/release/sharing" "$work/ours.txt"
    [ -z "${BEFORE:-}" ] || timed "$BEFORE" "$work/before.txt"
    python3 -c "
import os
os.mkdir('$work/tree')
for n in range($count): os.close(os.open('$work/tree/f%d' % n, os.O_CREAT | os.O_WRONLY, 0o644))"
    started=$(date +%s.%N)
    rm -rf "$work/tree"
    ended=$(date +%s.%N)
    python3 -c "print('%.3f' % ($ended - $started))" >> "$work/peer.txt"
done
ours=$(median < "$work/ours.txt"); peer=$(median < "$work/peer.txt")
echo "container of $count empty files, median of $pairs pairs"
echo "sharing run, last file to exit   $ours s   ($(tr '\n' ' ' < "$work/ours.txt"))"
echo "rm -rf of the same tree          $peer s   ($(tr '\n' ' ' < "$work/peer.txt"))"
python3 -c "print('ratio: %.2fx of rm -rf (target: under 5 s)' % ($ours / $peer))"
if [ -n "${BEFORE:-}" ]; then
    echo "BEFORE, last file to exit        $(median < "$work/before.txt") s   ($(tr '\n' ' ' < "$work/before.txt"))"
fi
