# cuzk — the two commands of the README, and a few more.
#
#   make demo    install what is missing, build, run the main job on sample data
#   make test    build and run the tests (ctest), all but the long ones
#   make test-long   the long ones (label long: minutes each on 2 cores;
#                CI runs them after make test)
#   make install PREFIX=/usr/local [DESTDIR=/stage]   header, libcuzk.so/.a,
#                cuzk.pc, cuzk, cuzkd and the systemd unit
#
#   make deps    fetch + check + build blst (scripts/deps.sh)
#   make build   configure and build into $(BUILD)
#   make asan    ASan+UBSan build in build-asan, run the tests there
#   make tsan    ThreadSanitizer build in build-tsan, run the concurrency tests
#   make gpu-test   GPU tests and benchmarks (tests/gpu/run-on-gpu.sh)
#   make abi-snapshot   rewrite tests/api/abi.snapshot from this build, after
#                a deliberate change of the public ABI (docs/API.md, "ABI policy")
#   make lint    cppcheck over src/ as $(BUILD) compiles it (scripts/lint.sh;
#                fails on any finding not in scripts/cppcheck.supp), and the
#                layers: no door (src/cli, src/daemon) includes circuits/,
#                gadgets/ or groth16/ (scripts/layers.sh)
#   make format  reformat the C sources by .clang-format (scripts/format.sh)
#   make format-check   the same, changing nothing: fails where they differ
#
# Variables: BUILD (build dir), JOBS, BLST_DIR,
#            CUZK_CUDA=AUTO|ON|OFF (AUTO: the CUDA backend when nvcc and a GPU
#            are present; ON compiles it on a machine without a GPU too),
#            CUDA_ARCHS (e.g. 90-real; default: the GPU present, else sm_90;
#            CUZK_CUDA_ALL_ARCHS=ON for sm_80/86/89/90 + PTX, as packagers want),
#            CUZK_PTXAS_VERBOSE=ON (ptxas reports register spills per kernel),
#            CUZK_WERROR=ON (C warnings are errors, as in CI; also for asan/tsan).

# cmake's generated makefiles recurse; without this every level prints
# "Entering directory" lines
MAKEFLAGS += --no-print-directory

BUILD     ?= build
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
CUZK_CUDA ?= AUTO
BLST_DIR  ?= $(abspath $(BUILD))/deps/blst
# the .deb files scripts/deps.sh unpacked offline, shared by every build dir
DEPS_PREFIX = $(abspath $(BUILD))/deps/prefix
CMAKE_ARGS ?=
CUDA_ARCHS ?=
CUZK_CUDA_ALL_ARCHS ?= OFF
CUZK_PTXAS_VERBOSE ?= OFF
CUZK_WERROR ?= OFF
CMAKE_ARGS += -DCUZK_CUDA_ALL_ARCHS=$(CUZK_CUDA_ALL_ARCHS) -DCUZK_PTXAS_VERBOSE=$(CUZK_PTXAS_VERBOSE)
CMAKE_ARGS += -DCUZK_WERROR=$(CUZK_WERROR)
ifneq ($(CUDA_ARCHS),)
CMAKE_ARGS += -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCHS)
endif

PREFIX    ?= /usr/local

.PHONY: all deps build test test-long install demo asan tsan gpu-test abi-snapshot lint format format-check clean

all: build

deps:
	@scripts/deps.sh $(BUILD)

# configure (once) and build
build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=$(CUZK_CUDA) \
	       -DBLST_DIR=$(BLST_DIR) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE long

test-long: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L long

# DESTDIR (staged installs, packaging) is read by cmake --install from the environment
install: build
	@DESTDIR=$(DESTDIR) cmake --install $(BUILD) --prefix $(PREFIX)

demo: build
	@scripts/demo.sh $(BUILD)

asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_CUDA=OFF \
	       -DCUZK_SANITIZE=address,undefined -DBLST_DIR=$(BLST_DIR) \
	       -DCUZK_DEPS_PREFIX=$(DEPS_PREFIX) -DCUZK_WERROR=$(CUZK_WERROR) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@ctest --test-dir build-asan --output-on-failure -j $(JOBS) -LE 'gpu|nosan|slow'

tsan: deps
	@cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUZK_CUDA=OFF \
	       -DCUZK_SANITIZE=thread -DBLST_DIR=$(BLST_DIR) \
	       -DCUZK_DEPS_PREFIX=$(DEPS_PREFIX) -DCUZK_WERROR=$(CUZK_WERROR) >/dev/null
	@cmake --build build-tsan -j $(JOBS)
	@ctest --test-dir build-tsan --output-on-failure -j $(JOBS) -L tsan

# the api_abi test compares the same description with the committed snapshot
abi-snapshot: build
	@sh tests/api/abi.sh $(BUILD)/tests/abi_dump $(BUILD)/lib/libcuzk.so tests/api/abi.snapshot --update

gpu-test:
	@tests/gpu/run-on-gpu.sh

# the build writes compile_commands.json and the generated headers cppcheck reads
lint: build
	@JOBS=$(JOBS) scripts/lint.sh $(BUILD)

format:
	@scripts/format.sh

format-check:
	@scripts/format.sh --check

clean:
	rm -rf $(BUILD) build-asan build-tsan
