#!/bin/sh
# Makes DIRECTORY/ID/OpenSharing, ID new each time, a git repository holding this checkout as a commit would (tracked files and new
# ones not ignored, as they are in the work tree), tagged with the package's version, and prints its path: what
# `.package(url: "file://…", from: VERSION)` resolves, as a package that depends on OpenSharing does. The path is
# new each time because SwiftPM caches a repository by its URL and keeps a tag's first commit; earlier clones in
# DIRECTORY are removed.
#   Tools/versioned-clone.sh DIRECTORY
set -eu
cd "$(dirname "$0")/.."
# The version Tests/Compatibility/Package.swift depends on.
version=0.1.0
mkdir -p "$1"
rm -rf "$1"/*
clone="$(mktemp -d "$1/XXXXXX")/OpenSharing"
mkdir "$clone"
# Files deleted in the work tree but not yet in git are left out, as a commit would leave them.
git ls-files -z --cached --others --exclude-standard \
    | xargs -0 sh -c 'for file; do [ -e "$file" ] && printf "%s\0" "$file"; done' - \
    | xargs -0 cp --parents -t "$clone"
git -C "$clone" init -q
git -C "$clone" add -A
git -C "$clone" -c user.name=OpenSharing -c user.email=opensharing@localhost commit -q -m "OpenSharing $version, as checked out"
git -C "$clone" tag "$version"
echo "$(cd "$clone" && pwd)"
