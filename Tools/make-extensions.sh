#!/bin/sh
# `make extensions`: puts each example extension (Examples/Extensions/NAME) in a bundle NAME.appex under
# DIRECTORY: its Info.plist and its executable, as in an app's PlugIns. Build the products first.
#   Tools/make-extensions.sh DIRECTORY NAME…
set -eu
cd "$(dirname "$0")/.."
directory=$1
shift
products=$(${SWIFT:-swift} build --show-bin-path)
mkdir -p "$directory"
for name in "$@"; do
    bundle="$directory/$name.appex"
    rm -rf "$bundle"
    mkdir -p "$bundle"
    cp "Examples/Extensions/$name/Info.plist" "$bundle/Info.plist"
    # A copy, not a link: Foundation finds Bundle.main's Info.plist beside the executable's real path.
    cp "$products/$name" "$bundle/$name"
done
echo "made $# extension bundles in $directory"
