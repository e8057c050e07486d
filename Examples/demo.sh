#!/bin/sh
# `make demo`: OpenSharing on the bundled examples: types of files, a host app's share, extension manifests.
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

echo
echo "\$ sharing lint Examples/manifests/*.plist"
"$sharing" lint Examples/manifests/*.plist || echo "(exit status $?: Careless.plist has errors)"

echo
echo "\$ sharing match Examples/manifests/PhotoSaver.plist Examples/manifests/LinkSaver.plist --share Examples/shares/safari.json"
"$sharing" match Examples/manifests/PhotoSaver.plist Examples/manifests/LinkSaver.plist --share Examples/shares/safari.json ||
    echo "(exit status $?: one of them would not appear)"
