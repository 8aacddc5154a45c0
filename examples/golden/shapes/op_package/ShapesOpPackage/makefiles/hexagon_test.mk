# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The C suite as Hexagon code, with no SDK (`make hexagon-test`):
#   run      kernels, emulator, user math and host/test_kernels.c, inference-only as on
#            the DSP, built by zig's clang for hexagon-linux-musl at $(HEX_RUN_CPU)
#            (HVX integer instructions up to v66, which QEMU runs bit-exact) and run
#            under qemu-hexagon -cpu $(QEMU_CPU); its own checks must pass;
#   x86      the same sources and flags for x86_64-linux-musl with the same zig (the
#            same clang and the same musl libm), run natively. Both runs print one
#            digest per test and op of every status and output byte they computed
#            (LPAI_TEST_DIGEST); the lines must be equal: byte-identical results;
#   compile  every inference-side file (src/, src/ops/*_inference.c, user/) as the DSP
#            library builds it (no emulator), for v79 with all its HVX features
#            ($(HEX_ALL_CPU)), -Wall -Wextra -Werror. Compiled only: QEMU runs some
#            v73+ HVX instructions with wrong results and aborts on HVX float (v68+).
# zig's first link for a target compiles its musl and compiler-rt (HEX_LINK below: one
# each for Hexagon and x86_64, 1-2 minutes in all) into ZIG_GLOBAL_CACHE_DIR (default
# $XDG_CACHE_HOME/zig, else ~/.cache/zig; doctor checks it can be written); later builds
# reuse them.
#
# Variables: PYTHON (the Python with ziglang, default python3), ZIG, QEMU_HEXAGON,
# WERROR=0 (drop -Werror), DEBUG=1 (debug info), BUILD=<dir>.

# V=1 shows the full compiler command lines.
Q := $(if $(filter 1,$(V)),,@)

PYTHON       ?= python3
ZIG          ?= $(PYTHON) -m ziglang
QEMU_HEXAGON ?= qemu-hexagon
QEMU_CPU     := v67
HEX_RUN_CPU  := hexagonv79+hvxv66+hvx_length128b
HEX_ALL_CPU  := hexagonv79+hvxv79+hvx_length128b
WERROR       ?= 1
BUILD        ?= build/hexagon
include makefiles/no_spaces.mk

WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
# -g0: zig's clang emits debug info by default, 13-28% of the compile time (DEBUG=1
# keeps it, for gdb under qemu-hexagon -g).
COMMON   := -std=c11 -O2 $(if $(filter 1,$(DEBUG)),-g,-g0) -fvisibility=hidden $(WARN) -DLPAI_INFERENCE_ONLY -DLPAI_EMU_OWN_DECLS -Iinclude -Ihost
# Two of test_paths' six random scale sets per op (host/test_kernels.c), the same on
# both sides: a binary op's qemu-hexagon run 33 s -> 13 s (the host suite runs six).
EMU      := -DLPAI_HOST_EMULATOR -DLPAI_TEST_TRIALS=2
# -ffp-contract=off on every side: clang fuses a * b + c on Hexagon otherwise, and the
# fused result rounds once where the host rounds twice (lpai_conventions.h's
# `#pragma STDC FP_CONTRACT OFF` says the same for the package's own files; a
# -ffp-contract=fast here would override it and fail the comparison below).
# The test driver without forced inlining (include/lpai_elementwise.h), the same on both
# sides: it compiles in 15 s instead of 41 s for Hexagon (measured); the kernels keep it.
DRIVER   := -DLPAI_NO_FORCED_INLINE
HEX_RUN  := -target hexagon-linux-musl -mcpu=$(HEX_RUN_CPU) -ffp-contract=off
X86_RUN  := -target x86_64-linux-musl -mcpu=x86_64 -ffp-contract=off
HEX_DSP  := -target hexagon-linux-musl -mcpu=$(HEX_ALL_CPU) -ffp-contract=off -fPIC
# The links: plain v79 and -O2, whatever the objects' -mcpu. zig builds a musl, a
# compiler-rt and, for an unoptimized link, a UBSan runtime per target, -mcpu and mode
# the first time they are asked for; the objects' HVX code needs nothing of theirs. A
# cold `make hexagon-test` took 147 s linked at $(HEX_RUN_CPU) without -O2 and 56 s
# like this (measured): one libc per target, the same one as a scalar v79 build's.
HEX_LINK := -target hexagon-linux-musl -mcpu=hexagonv79 -O2
X86_LINK := -target x86_64-linux-musl -mcpu=x86_64 -O2

INF_SRCS := $(wildcard src/*.c) $(wildcard src/ops/*_inference.c) $(wildcard user/*.c)
RUN_SRCS := $(INF_SRCS) host/lpai_emu.c host/test_kernels.c

HEX_OBJS := $(patsubst %.c,$(BUILD)/run/%.o,$(RUN_SRCS))
X86_OBJS := $(patsubst %.c,$(BUILD)/x86/%.o,$(RUN_SRCS))
DSP_OBJS := $(patsubst %.c,$(BUILD)/dsp/%.o,$(INF_SRCS))

.PHONY: test all-builds run-hexagon run-x86 compare compile-dsp FORCE
# One line and success when a tool is missing: the suite cannot run here, nothing failed.
test:
	@if ! $(ZIG) version >/dev/null 2>&1; then \
	  echo "hexagon-test skipped: $(ZIG) does not run (pip install ziglang)"; exit 0; fi; \
	if ! command -v $(QEMU_HEXAGON) >/dev/null 2>&1; then \
	  echo "hexagon-test skipped: no $(QEMU_HEXAGON) (apt-get install qemu-user)"; exit 0; fi; \
	cache="$${ZIG_GLOBAL_CACHE_DIR:-$${XDG_CACHE_HOME:-$$HOME/.cache}/zig}"; \
	if ! mkdir -p "$$cache" 2>/dev/null || ! [ -w "$$cache" ]; then \
	  echo "error: hexagon-test: zig's cache folder $$cache cannot be written (a read-only HOME?): export" \
	    "ZIG_GLOBAL_CACHE_DIR=<a folder you can write> (doctor checks it too)" >&2; exit 1; fi; \
	$(MAKE) --no-print-directory -f makefiles/hexagon_test.mk all-builds

# The steps in order, each a make of its own (also under -j): a failing Hexagon run
# stops before the x86_64 and DSP builds are made (a broken kernel fails in the time of
# one build, not three).
all-builds:
	$(Q)$(MAKE) --no-print-directory -f makefiles/hexagon_test.mk run-hexagon
	$(Q)$(MAKE) --no-print-directory -f makefiles/hexagon_test.mk run-x86
	$(Q)$(MAKE) --no-print-directory -f makefiles/hexagon_test.mk compare
	$(Q)$(MAKE) --no-print-directory -f makefiles/hexagon_test.mk compile-dsp

run-hexagon: $(BUILD)/test_kernels.hexagon
	@echo "== C suite as Hexagon code (inference-only, $(HEX_RUN_CPU)), qemu-hexagon -cpu $(QEMU_CPU)"
	$(Q)LPAI_TEST_DIGEST=1 $(QEMU_HEXAGON) -cpu $(QEMU_CPU) $(BUILD)/test_kernels.hexagon >$(BUILD)/hexagon.out; \
	  rc=$$?; grep -v '^DIGEST ' $(BUILD)/hexagon.out; exit $$rc

run-x86: $(BUILD)/test_kernels.x86
	@echo "== the same suite for x86_64-linux-musl (same zig, same musl libm)"
	$(Q)LPAI_TEST_DIGEST=1 $(BUILD)/test_kernels.x86 >$(BUILD)/x86.out; \
	  rc=$$?; grep -v '^DIGEST ' $(BUILD)/x86.out; exit $$rc

compare:
	$(Q)grep '^DIGEST ' $(BUILD)/hexagon.out >$(BUILD)/hexagon.digests; \
	  grep '^DIGEST ' $(BUILD)/x86.out >$(BUILD)/x86.digests; \
	  n=$$(wc -l <$(BUILD)/x86.digests); \
	  if [ "$$n" -eq 0 ] || ! cmp -s $(BUILD)/x86.digests $(BUILD)/hexagon.digests; then \
	    echo "FAILED: Hexagon and x86_64 results differ (< x86_64, > Hexagon; $(BUILD)/*.out):"; \
	    diff $(BUILD)/x86.digests $(BUILD)/hexagon.digests | head -20; exit 1; fi; \
	  echo "ok: Hexagon results byte-identical to x86_64 ($$n digests of every status and output byte)"

compile-dsp: $(DSP_OBJS)
	@echo "== compiled for $(HEX_ALL_CPU) (DSP build, every HVX feature): $(words $(DSP_OBJS)) files, -Werror"

$(BUILD)/test_kernels.hexagon: $(HEX_OBJS) $(BUILD)/link.flags
	$(Q)$(ZIG) cc $(HEX_LINK) -o $@ $(filter %.o,$^) -lm

$(BUILD)/test_kernels.x86: $(X86_OBJS) $(BUILD)/link.flags
	$(Q)$(ZIG) cc $(X86_LINK) -o $@ $(filter %.o,$^) -lm

# Each build's objects depend on a file holding its compiler and flags, rewritten only
# when they change (the test driver's own define included): a changed flag rebuilds that
# build's objects and no other's; the two executables depend on the link flags' file.
FLAGS_run := $(ZIG) cc $(HEX_RUN) $(COMMON) $(EMU)
FLAGS_x86 := $(ZIG) cc $(X86_RUN) $(COMMON) $(EMU)
FLAGS_dsp := $(ZIG) cc $(HEX_DSP) $(COMMON)
FLAGS_link := $(ZIG) cc $(HEX_LINK) / $(X86_LINK)
FLAGS_DRIVER_run := host/test_kernels.c: $(DRIVER)
FLAGS_DRIVER_x86 := $(FLAGS_DRIVER_run)
$(BUILD)/%.flags: FORCE
	@mkdir -p $(@D); if [ "$$(cat $@ 2>/dev/null)" != "$(FLAGS_$*) $(FLAGS_DRIVER_$*)" ]; then echo "$(FLAGS_$*) $(FLAGS_DRIVER_$*)" >$@; fi
FORCE:
# Kept: made by a pattern rule, they would be intermediate files that make deletes at
# the end of each run, and every next run would rebuild every object.
.PRECIOUS: $(BUILD)/%.flags

$(BUILD)/run/host/test_kernels.o $(BUILD)/x86/host/test_kernels.o: OBJ_DEFS := $(DRIVER)

$(BUILD)/run/%.o: %.c $(BUILD)/run.flags
	@mkdir -p $(dir $@)
	$(Q)$(FLAGS_run) $(OBJ_DEFS) -MMD -MP -c $< -o $@

$(BUILD)/x86/%.o: %.c $(BUILD)/x86.flags
	@mkdir -p $(dir $@)
	$(Q)$(FLAGS_x86) $(OBJ_DEFS) -MMD -MP -c $< -o $@

$(BUILD)/dsp/%.o: %.c $(BUILD)/dsp.flags
	@mkdir -p $(dir $@)
	$(Q)$(FLAGS_dsp) -MMD -MP -c $< -o $@

# A dependency file (.d) may name a header that no longer exists: an update removed or
# renamed it. -MP gives each header of a new .d a rule of its own; this rule does the same
# for the .d files of an older build (one without -MP): a missing header is rebuilt by
# doing nothing, so the objects that named it are compiled again, and their new .d
# files no longer name it. A header still #included and missing fails in the compiler.
%.h: ;
-include $(HEX_OBJS:.o=.d) $(X86_OBJS:.o=.d) $(DSP_OBJS:.o=.d)
