# OpenSharing — the two commands of the README's Quick start, and the benchmarks.
#   make demo    run `sharing` on the bundled examples (and the example extensions, as processes)
#   make test    build and run every test
#   make bench   run the benchmarks side by side with their peers (Benchmarks/RESULTS.md)
# Each first installs the Debian packages it needs that are missing.

SWIFT ?= swift

# Debian packages the build and the tests need (Chromium renders `sharing test --html` for its test).
PACKAGES := zip unzip pkg-config libssl-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libde265-dev libheif-dev libtiff-dev chromium
# PyPI packages the tests use as independent checks (BLAKE3's reference implementation; Pillow reading the
# images ImageIO's stand-in writes).
PYTHON_PACKAGES := blake3 pillow jsonschema
# More for the benchmarks' peers.
BENCH_PACKAGES := $(PACKAGES) gcc libglib2.0-dev shared-mime-info libvips-tools imagemagick libheif-examples libjpeg-turbo-progs
# The benchmarks' Python peers and references, pinned, in a virtual environment of their own: Pillow, and
# pillow-heif for HEIF (it brings its own libheif).
BENCH_VENV := /var/tmp/opensharing-bench/venv
BENCH_PYTHON_PACKAGES := pillow==11.3.0 pillow-heif==1.8.1

# The example extensions (Examples/Extensions), each a bundle NAME.appex in .build/extensions.
EXTENSIONS := Uppercase CompletesTwice ImageSaver FileSaver NeverCompletes CrashesMidLoad MemoryHog ShareProber NaiveResizer DownsamplingResizer \
	ImportAction UploadShare BannerRenderer BundledAttachment DecryptingService SilentService RecipeShare

.PHONY: deps demo test bench extensions

deps:
	@Tools/install-system-packages.sh $(PACKAGES)
	@python3 -c "import blake3, PIL, jsonschema" 2>/dev/null || python3 -m pip install --quiet --root-user-action=ignore $(PYTHON_PACKAGES)

# Each bundle is made as a user's are: by the package's own plugin, `swift package appex`, optimised, as a
# device runs an extension (a debug build's times are not a device's, and its runs say so: `debug-build`).
extensions: deps
	@$(SWIFT) build
	@$(SWIFT) package --allow-writing-to-package-directory appex --configuration release --output .build/extensions \
		$(EXTENSIONS:%=--product %)

demo: extensions
	@Examples/demo.sh

# Tests of concurrent code run a second time under the thread sanitizer (its own build folder); its reports
# are written apart and printed last when it fails, so that the end of a CI log shows them. Not those that
# start child processes: the runtime's child is a clone of this threaded process, whose first libc call that the
# sanitizer intercepts (vfork) waits forever for a lock another thread held at the clone.
TSAN_SKIPPED := ChildProcessTests|ProcessTreeTests|ChildRunTests|ProcessIdentityTests
TSAN_TESTS := PackageSupportTests|SharingSystemTests|ContentTypesTests|OpenItemProviderTests|OpenTransferableTests|OpenUserNotificationsTests|SharingShimTests|ShareIntakeTests|ShareInboxTests|heifOrientations

# The suites whose verdicts hang on what the kernel lets the sandbox do (the disk gate, the PID namespace), run a
# second time as a container's CI runs them, through Tools/confine.c: the runtime falls back, and the verdicts hold.
CONFINE := .build/confine
CONFINED_TESTS := NewestWallsTests|CarriedUploadTests|HostileInputTests|HostileExtensionTests|ExtensionHostTests|NewUserVerdictTests

# The compatibility suite (Tests/Compatibility): a package of its own, so that nothing it builds enters this
# package's build, depending on a tagged clone of this checkout by version, as a user's package does.
COMPATIBILITY := Tests/Compatibility
# Its extensions, each made into a bundle by the plugin, as a user makes theirs, and run as a process by its tests.
COMPATIBILITY_EXTENSIONS := IntentComposerShare SchemeOpenerShare DeepLinkShare SearchOrOpenAction FirstLinkAction \
	ComposeSheetOpener QuickLinkAction ContinuationAction FirstImageShare ImageDownloadService CallOnceService TmpHintService DiscardService \
	ErrorImageService ChatAvatarService ReadLaterShare BoardPickerShare

# The modules whose API is documented in DocC catalogues, built with every warning an error.
DOCUMENTED := SharingShim ExtensionRuntime ConformanceMatrix

# The runtime's reliability tests count this process's descriptors, children and memory, so they run in a
# test process of their own, where no other test opens or allocates at the same time; the tests that make the
# machine busy on purpose run in one of their own too, so that their load slows no other test, and one at a time,
# so that each is beside the loops it starts and no others (a "quiet" run of one is quiet). Every import a target
# makes must be a dependency it declares (the build fails otherwise).
test: deps $(CONFINE)
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(SWIFT) test --skip-build --skip 'ReliabilityTests|BusyMachine'
	$(CONFINE) env OPENSHARING_TEST_CONFINED=1 $(SWIFT) test --skip-build --filter '$(CONFINED_TESTS)' --skip BusyMachine
	$(SWIFT) test --skip-build --filter ReliabilityTests
	$(SWIFT) test --skip-build --filter BusyMachine --no-parallel
	rm -f $(COMPATIBILITY)/Package.resolved
	clone=$$(Tools/versioned-clone.sh .build/versioned) && cd $(COMPATIBILITY) && export OPENSHARING_VERSIONED_CLONE=$$clone && \
		$(SWIFT) build --disable-dependency-cache --product sharing && \
		$(SWIFT) package --disable-dependency-cache --allow-writing-to-package-directory appex --configuration debug \
			$(COMPATIBILITY_EXTENSIONS:%=--product %) && \
		$(SWIFT) test --disable-dependency-cache
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	rm -rf .build-tsan/races && mkdir -p .build-tsan/races
	TSAN_OPTIONS=log_path=$(CURDIR)/.build-tsan/races/report $(SWIFT) test --sanitize=thread --scratch-path .build-tsan \
		--filter '$(TSAN_TESTS)' --skip '$(TSAN_SKIPPED)' || { cat .build-tsan/races/report* 2>/dev/null; exit 1; }
	$(SWIFT) package generate-documentation --warnings-as-errors $(DOCUMENTED:%=--target %)

$(CONFINE): Tools/confine.c
	mkdir -p $(@D) && clang -O2 -Wall -Werror -o $@ Tools/confine.c

$(BENCH_VENV)/bin/python:
	python3 -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install --quiet $(BENCH_PYTHON_PACKAGES)

bench: $(BENCH_VENV)/bin/python
	@Tools/install-system-packages.sh $(BENCH_PACKAGES)
	Benchmarks/compare-types.sh
	Benchmarks/compare-provider-copy.sh
	Benchmarks/compare-hash.sh
	Benchmarks/compare-receive.sh
	PYTHON=$(BENCH_VENV)/bin/python Benchmarks/compare-thumbnails.sh
	PYTHON=$(BENCH_VENV)/bin/python Benchmarks/compare-imageio.sh
	Benchmarks/compare-notify.sh
	$(SWIFT) build -c release --product sharing
	sh Benchmarks/machine.sh
	$(BENCH_VENV)/bin/python -W ignore Benchmarks/thumbnail-corpus.py .build/release/sharing
	Benchmarks/compare-runtime.sh
	Benchmarks/fuzz-rate.sh
	sh Benchmarks/machine.sh
	cd Benchmarks && $(SWIFT) run -c release ManifestTiming
	cd Benchmarks && $(SWIFT) package --disable-sandbox benchmark
