# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The kernels against the host emulator (host/), with the system compiler, no SDK.
#
#   make -f makefiles/host_emulator.mk lib    build/host/<variant>/libemu.so (ctypes)
#   make -f makefiles/host_emulator.mk test   SDK ABI check, then the C suite: full build
#                                            and inference-only build
#
# Variables: CC / CXX (default cc / c++), SAN=1 (-fsanitize=address,undefined),
# WERROR=0 (drop -Werror), BUILD=<dir>. With QNN_SDK_ROOT set the SDK's headers
# replace the template's stand-in (sdk_standin/; LPAI_EMU_DECLS=own keeps it), and the
# objects go to their own folder (...-sdk).

# V=1 shows the full compiler command lines.
Q := $(if $(filter 1,$(V)),,@)

CC     ?= cc
CXX    ?= c++
SAN    ?= 0
WERROR ?= 1

ifeq ($(origin CXX),default)
  ifneq ($(findstring clang,$(notdir $(CC))),)
    CXX := $(subst clang,clang++,$(CC))
  endif
endif

# (The SDK wins when QNN_SDK_ROOT is set, unless LPAI_EMU_DECLS=own.)
ifneq ($(and $(QNN_SDK_ROOT),$(if $(filter own,$(LPAI_EMU_DECLS)),,sdk)),)
  DECLS := -I$(QNN_SDK_ROOT)/include/QNN -I$(QNN_SDK_ROOT)/include/QNN/LPAI
  DECLS_NAME := the SDK's headers ($(QNN_SDK_ROOT)/include/QNN)
  SDK_SUFFIX := -sdk
else
  DECLS := -DLPAI_EMU_OWN_DECLS
  DECLS_NAME := the template's stand-in (sdk_standin/)
  SDK_SUFFIX :=
endif
BUILD  ?= build/host/$(notdir $(CC))$(if $(filter 1,$(SAN)),-san)$(SDK_SUFFIX)
include makefiles/no_spaces.mk

WARN := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
SANITIZERS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# LPAI_NO_FORCED_INLINE (include/lpai_conventions.h): the same code, with inlining left
# to the compiler, for the sanitized builds (which find the same faults in it; their
# compile for a fourteen-op package went from about 100 s to 30 s, measured) and below
# for the test driver.
NO_FORCED_INLINE := -DLPAI_NO_FORCED_INLINE
SANF := $(if $(filter 1,$(SAN)),$(SANITIZERS))
SAN_DEFS := $(if $(filter 1,$(SAN)),$(NO_FORCED_INLINE))
# Sanitized builds use -O0: they exist to find UB and bad accesses, which they find
# unoptimised too, and they compile in half the time of -O1 (22 s against 42 s for the
# inference build of a nine-op package, measured; the suite then runs 4.4 s instead of
# 1.4); -g1 keeps their reports' line numbers. The plain build is -O2, which gcc's
# flow-based warnings need, without -g: it compiles a fifth faster (measured), and
# every test run builds it. To debug: make host-test OPT="-O0 -g".
OPT ?= $(if $(filter 1,$(SAN)),-O0 -g1,-O2)
COMMON := -fPIC $(OPT) -fvisibility=hidden -ffp-contract=off -DLPAI_HOST_EMULATOR $(DECLS) \
          -Iinclude -Ihost $(WARN) $(SANF) $(SAN_DEFS)
CFLAGS_ALL   := -std=c11 $(COMMON)
CXXFLAGS_ALL := -std=c++11 $(COMMON)

# The ops' kernels (src/ops/*_inference.c) are compiled once, as the DSP build compiles
# them (-DLPAI_INFERENCE_ONLY), and linked into both builds: on the host
# (-DLPAI_HOST_EMULATOR) that define changes nothing in them, which
# tests/test_op_package_build.py checks on their preprocessed text. They are most of
# the compile time (two to four seconds each at -O2): one compile instead of two. The
# rest (the package interface, the emulator, your user/ math) is built per build.
OP_SRCS     := $(wildcard src/ops/*_inference.c)
OWN_SRCS    := $(wildcard src/*.c) $(wildcard user/*.c) host/lpai_emu.c
CXX_SRCS    := $(wildcard src/ops/*_compiler.cpp)

OP_OBJS   := $(patsubst %.c,$(BUILD)/kernels/%.o,$(OP_SRCS))
FULL_OBJS := $(OP_OBJS) $(patsubst %.c,$(BUILD)/full/%.o,$(OWN_SRCS)) $(patsubst %.cpp,$(BUILD)/full/%.o,$(CXX_SRCS))
INF_OBJS  := $(OP_OBJS) $(patsubst %.c,$(BUILD)/inference/%.o,$(OWN_SRCS))

.PHONY: lib test abi
lib: $(BUILD)/libemu.so
# The SDK's ABI (sizes, offsets, values, function types), against the declarations in use.
abi: $(BUILD)/sdk_abi_check
	@echo "== SDK ABI against $(DECLS_NAME), $(CC)"
	$(BUILD)/sdk_abi_check
test: abi $(BUILD)/test_kernels $(BUILD)/test_kernels_inference
	@echo "== host C suite (host library: compiler side + kernels), $(CC)$(if $(filter 1,$(SAN)), with ASan/UBSan)"
	$(BUILD)/test_kernels
	@echo "== host C suite (inference-only build, as on the DSP), $(CC)$(if $(filter 1,$(SAN)), with ASan/UBSan)"
	$(BUILD)/test_kernels_inference

# The test driver instantiates the drivers with math of its own (the ties, custom and
# walk tests): forced inlining would make it a kernel's build, not the test of one
# (17 s -> 5 s at -O2, measured). The kernels under test keep theirs.
$(BUILD)/full/host/test_kernels.o $(BUILD)/inference/host/test_kernels.o: CFLAGS_ALL += $(NO_FORCED_INLINE)

$(BUILD)/libemu.so: $(FULL_OBJS)
	$(Q)$(CXX) -shared $(SANF) -o $@ $^ -lm -ldl

$(BUILD)/test_kernels: $(FULL_OBJS) $(BUILD)/full/host/test_kernels.o
	$(Q)$(CXX) $(SANF) -o $@ $^ -lm -ldl

$(BUILD)/test_kernels_inference: $(INF_OBJS) $(BUILD)/inference/host/test_kernels.o
	$(Q)$(CC) $(SANF) -o $@ $^ -lm -ldl

$(BUILD)/sdk_abi_check: $(BUILD)/full/host/sdk_abi_check.o
	$(Q)$(CC) $(SANF) -o $@ $^

$(BUILD)/full/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/full/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(CXXFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/inference/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS_ALL) -DLPAI_INFERENCE_ONLY -MMD -MP -c $< -o $@

$(BUILD)/kernels/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS_ALL) -DLPAI_INFERENCE_ONLY -MMD -MP -c $< -o $@

# A dependency file (.d) may name a header that no longer exists: an update removed or
# renamed it. -MP gives each header of a new .d a rule of its own; this rule does the same
# for the .d files of an older build (one without -MP): a missing header is rebuilt by
# doing nothing, so the objects that named it are compiled again, and their new .d
# files no longer name it. A header still #included and missing fails in the compiler.
%.h: ;
-include $(sort $(FULL_OBJS:.o=.d) $(INF_OBJS:.o=.d))
