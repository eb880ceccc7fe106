# Thin wrapper over CMake presets. `make run`, `make test`, `make build`.
JOBS ?= $(shell nproc)
SCENE ?= assets/scenes/maple_seed.json

.PHONY: all deps build debug asan tsan fuzz test test-release test-asan test-tsan test-blender run run-headless bench clean format format-check lint check-style update-golden

all: build

deps:
	@scripts/install-deps

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

debug: deps
	@cmake --preset debug >/dev/null
	@cmake --build --preset debug -j $(JOBS)

asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)

tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan -j $(JOBS)

test-asan: deps
	@cmake --preset asan -DSAMARA_FUZZ_COVERAGE=OFF >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# ThreadSanitizer: the viewer's threading code (runtime: queue, triple buffer, pacer, runner),
# the World's thread pool (tests/runtime/test_world_threads.cpp: bodies on several threads,
# the ghost beside the main world) and the fluid reference's threaded transforms and steps
# (tests/fluid: the two tests that run on two threads).
test-tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan -j $(JOBS) --target test_runtime test_fluid
	@ctest --preset tsan -j $(JOBS) -R '^runtime/|^fluid/.*thread'

# libFuzzer (fuzz/): builds the targets (asan preset) and runs each for FUZZ_TIME seconds,
# its corpus growing in build/asan/fuzz/NAME_new (seeds in fuzz/corpus/NAME, only read);
# a finding is saved as build/asan/fuzz/crash-*, leak-*, timeout-* or oom-*.
FUZZ_TIME ?= 600
FUZZERS ?= scene obj gltf obj_sequence states set
fuzz: deps
	@cmake --preset asan -DSAMARA_FUZZ_COVERAGE=ON >/dev/null
	@cmake --build --preset asan -j $(JOBS) --target $(addprefix fuzz_,$(FUZZERS))
	@set -e; for f in $(FUZZERS); do \
	  case $$f in gltf) len=16384;; obj_sequence) len=8192;; *) len=4096;; esac; \
	  echo "fuzz_$$f: $(FUZZ_TIME) s"; \
	  mkdir -p build/asan/fuzz/$${f}_new; \
	  build/asan/fuzz/fuzz_$$f -max_total_time=$(FUZZ_TIME) -rss_limit_mb=2048 -timeout=30 \
	    -max_len=$$len -print_final_stats=1 -dict=fuzz/$$f.dict \
	    -artifact_prefix=build/asan/fuzz/ build/asan/fuzz/$${f}_new fuzz/corpus/$$f; \
	done

test-release: build
	@ctest --preset release -j $(JOBS)

# Blender round trips of `samara export` (tests/blender): installs Blender (Debian's 3.4) and
# runs the ctests labelled blender. STRICT=1 also fails on checks of pending export features.
STRICT ?= 0
test-blender: build
	@scripts/install-deps --blender
	@cmake --preset release -DSAMARA_BLENDER_STRICT=$(if $(filter 1,$(STRICT)),ON,OFF) >/dev/null
	@cmake --build --preset release -j $(JOBS) --target samara
	@ctest --preset release -j $(JOBS) -L blender --output-on-failure

# Style first (formatting, size limits), sanitizer runs next, Release last, so the output
# ends with ctest's summary line.
test: deps
	@$(MAKE) --no-print-directory check-style
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory test-tsan
	@$(MAKE) --no-print-directory test-release

# The viewer on the default scene (needs a display; headless: `make run-headless`).
run: build
	@build/release/samara

run-headless: build
	@build/release/samara run $(SCENE) --summary

bench: build
	@build/release/bench/samara_bench

clean:
	rm -rf build

# Golden state hashes (tests/golden/hashes.txt): rerun every shipped scene and lesson and
# rewrite the table. A changed line needs a sentence in the commit message saying why.
update-golden: build
	@rm -rf build/release/golden
	@SAMARA_UPDATE_GOLDEN=1 ctest --preset release -j $(JOBS) -R '^golden/' >/dev/null
	@cmake -DWORK=build/release/golden -DTABLE=tests/golden/hashes.txt -P tests/golden/collect.cmake

# Every C++ file of ours, formatted with .clang-format.
CXX_FILES = $$(git ls-files '*.cpp' '*.h' ':!:third_party/*')
format:
	@clang-format -i $(CXX_FILES)

format-check:
	@clang-format --dry-run --Werror $(CXX_FILES)

# Size limits (files in src/ <= 600 lines, functions <= 120 lines) and clang-tidy on src/
# (headers included) with the Release flags, one compile command per file (build/lint, only
# configured: the build trees compile files in batches). clang-tidy takes ~25 s of CPU per
# file (~50 min for src/ on 2 cores): run it before a commit; CI runs check-style.
lint: deps
	@scripts/lint

# What CI checks of the style: formatting and the size limits (seconds).
check-style:
	@clang-format --dry-run --Werror $(CXX_FILES)
	@scripts/lint --limits
