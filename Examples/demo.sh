#!/bin/sh
# `make demo`: OpenSharing on the bundled examples — a Photos share and a Safari share received into
# ./demo-inbox, the extension manifests that decide who is offered them, the types underneath, and the
# example extensions (`make extensions`) run as their own processes on shares and push payloads.
set -eu
cd "$(dirname "$0")/.."
sharing=".build/debug/sharing"
show() {
    echo
    echo "\$ sharing $*"
    "$sharing" "$@"
}

rm -rf demo-inbox demo-app-group demo-data-store demo-matrix
show receive --host photos --file Examples/files/sunset.jpg --file Examples/files/diagram.png --file Examples/files/clip.mp4 --previews 120 --inbox demo-inbox
show receive --host safari --url https://www.apple.com/ --title "Apple" --inbox demo-inbox
show receive --share Examples/shares/duplicates.json --inbox demo-inbox
show inbox list demo-inbox --verify

show thumbnail Examples/files/sunset.jpg --header
show thumbnail Examples/files/sunset.jpg --max 160 -o demo-thumbnail.jpg

show match Examples/manifests/PhotoSaver.plist Examples/manifests/LinkSaver.plist --share Examples/shares/safari.json ||
    echo "(exit status $?: one of them would not appear)"
show lint Examples/manifests/Careless.plist || echo "(exit status $?: Careless.plist has errors)"

show types --file Examples/files/sunset.jpg --file Examples/files/script.lua public.heic

show extensions .build/extensions --host photos --file Examples/files/sunset.jpg
mkdir demo-app-group
show run .build/extensions/ImageSaver.appex --host photos --file Examples/files/sunset.jpg --file Examples/files/diagram.png --app-group demo-app-group
show inbox list demo-app-group/group.org.opensharing.examples/Inbox
show run .build/extensions/Uppercase.appex --host notes --text "Shopping: milk, bread"
show run .build/extensions/NeverCompletes.appex --host safari --url https://www.apple.com/ --timeout 1 ||
    echo "(exit status $?: the extension never ended the request)"
show run .build/extensions/MemoryHog.appex --host notes --text "anything" --memory-limit 64MB ||
    echo "(exit status $?: killed at its memory limit)"
show test .build/extensions/Uppercase.appex .build/extensions/ImageSaver.appex .build/extensions/MemoryHog.appex \
    --hosts notes,photos,safari --faults none,load-fails --work demo-matrix ||
    echo "(exit status $?: the memory hog is interrupted wherever it is offered)"
show notify .build/extensions/BundledAttachment.appex --payload Examples/payloads/lunch.json --payload Examples/payloads/plain.json \
    --data-store demo-data-store
show notify .build/extensions/BannerRenderer.appex --payload Examples/payloads/lunch.json --data-store demo-data-store ||
    echo "(exit status $?: killed at 24 MB on the default phone, drawing at 3x; --device iphone-se-2 draws at 2x and fits)"
show run .build/extensions/CompletesTwice.appex --host notes --text "milk" ||
    echo "(exit status $?: it completed, but ended its request twice: a finding that fails the run)"
