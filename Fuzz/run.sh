#!/bin/sh
# Builds the fuzz targets with libFuzzer and AddressSanitizer and runs each for SECONDS (default 180).
#   Fuzz/run.sh [SECONDS] [property-list|predicate|image-header|runtime-message|returned-items …]
# Seeds come from Fuzz/seeds (committed; Fuzz/make-seeds.py writes them); what the fuzzer learns goes to
# .build-fuzz/corpus, crashes and hangs to .build-fuzz/artifacts. Exit status 1 when a target failed.
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-180}
[ $# -gt 0 ] && shift
targets=${*:-property-list predicate image-header runtime-message returned-items}
build=.build-fuzz
mkdir -p "$build/artifacts"

build_target() {  # name, sources…
    name=$1; shift
    rm -f "$build/$name"
    # The package's language settings (Package.swift's strictSettings), so the sources compile as there.
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name OpenSharing \
        -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
        -enable-upcoming-feature InternalImportsByDefault \
        -module-name "$(echo "$name" | tr -d -)" "$@" -o "$build/$name" 2>&1 |
        grep -v "Cannot export local symbol '__asan" || true  # gold's noise about ASan's own symbols
    [ -x "$build/$name" ] || { echo "building $name failed"; exit 2; }
}

# The targets that need modules and those under them are built by the package (Package.swift adds them
# when OPENSHARING_FUZZ is set), every module instrumented. The Swift driver keeps only the last of separate
# -sanitize= flags, so SwiftPM's --sanitize=fuzzer --sanitize=address would build Swift without coverage;
# the two are given to swiftc as one flag. A debug build, whose modules are testable (the targets read
# internal types): an optimized one with -enable-testing crashes Swift 6.3.1's compiler ("Found ownership
# error").
build_package_target() {  # name, product
    OPENSHARING_FUZZ=1 swift build --scratch-path "$build/package" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
        -Xcc -fsanitize=address --product "$2" >"$build/$1-build.log" 2>&1 ||
        { echo "building $1 failed; see $build/$1-build.log"; exit 2; }
    ln -sf "package/debug/$2" "$build/$1-fuzzer"
}

build() {  # target
    case $1 in
    property-list) build_target property-list-fuzzer Sources/PropertyLists/*.swift Fuzz/PropertyListFuzzer.swift ;;
    predicate) build_target predicate-fuzzer Sources/ExtensionManifest/Predicate/*.swift Fuzz/PredicateFuzzer.swift ;;
    image-header) build_package_target image-header ImageHeaderFuzzer ;;
    returned-items) build_package_target returned-items ReturnedItemsFuzzer ;;
    runtime-message) build_package_target runtime-message RuntimeMessageFuzzer ;;
    *) echo "no fuzz target $1"; exit 2 ;;
    esac
}
for target in $targets; do build "$target"; done

# Swift's crash backtracer reads the stack in ways AddressSanitizer reports as errors of its own.
export SWIFT_BACKTRACE=enable=no
# Foundation's own leaks, each named with where it is reported upstream.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-suppressions.txt"
status=0
for target in $targets; do
    mkdir -p "$build/corpus/$target"
    dict=""
    [ -f "Fuzz/$target.dict" ] && dict="-dict=Fuzz/$target.dict"
    echo "== $target: $seconds seconds"
    # -rss_limit_mb bounds memory, -timeout calls any input slower than 10 s a hang.
    if ! "$build/$target-fuzzer" "$build/corpus/$target" "Fuzz/seeds/$target" $dict \
            -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 -max_len=65536 \
            -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 > "$build/$target.log" 2>&1; then
        status=1
        echo "$target: FAILED; see $build/$target.log and $build/artifacts"
    fi
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)" "$build/$target.log" || true
done
exit $status
