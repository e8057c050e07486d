#!/bin/sh
# `make demo`: what OpenSharing's type system says about the bundled example files.
set -eu
cd "$(dirname "$0")/.."
sharing=".build/debug/sharing"
echo "\$ sharing types --file Examples/files/…"
for file in Examples/files/*; do
    "$sharing" types --file "$file"
    echo
done
echo "\$ sharing types public.heic image/webp .key"
"$sharing" types public.heic image/webp .key

echo
echo "\$ sharing share --host photos --file Examples/files/sunset.jpg --file Examples/files/clip.mp4 --load"
"$sharing" share --host photos --file Examples/files/sunset.jpg --file Examples/files/clip.mp4 --load
