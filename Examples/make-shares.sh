#!/bin/sh
# Writes Examples/shares/NAME.json, one share fixture per host profile, from the files in Examples/files.
# The fixtures are committed; run this after changing a profile, and commit what changes.
set -eu
cd "$(dirname "$0")/.."
sharing=.build/debug/sharing
f=Examples/files
out=Examples/shares
share() { name=$1; shift; "$sharing" share --host "$name" "$@" --write "$out/$name.json"; }
share safari --url https://www.apple.com/newsroom/ --title "Newsroom - Apple"
share safari-javascript --url https://www.apple.com/newsroom/ --title "Newsroom - Apple" --text "the selected words"
share safari-image --file $f/sunset.jpg --url https://example.com/gallery/sunset --title "Sunset gallery"
share chrome --url https://www.swift.org/blog/
share firefox --url https://www.mozilla.org/firefox/ --title "Firefox"
share photos --file $f/sunset.jpg --file $f/diagram.png --file $f/clip.mp4
share live-photo --file $f/sunset.jpg --file $f/clip.mov
share live-photo-messages --file $f/sunset.jpg
share live-photo-bundle --file $f/Sunset.pvt --file $f/sunset.jpg
share messages --file $f/sunset.jpg
share screenshot --file $f/diagram.png
share files --file $f/report.pdf --file $f/Sunset.pvt
share notes --text "Shopping: milk, bread" --title "Shopping" --file $f/diagram.png
share mail --text "Hello, the report is attached below. Best, A." --title "Quarterly report"
share empty
share no-attachments --title "Untitled"
share empty-attachment
share duplicates --url https://www.apple.com/newsroom/ --title "Newsroom - Apple"
