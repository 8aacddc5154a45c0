# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# DSP library and island library for hexagon-$(DSP_ARCH): inference side only
# (LPAI_INFERENCE_ONLY), the same kernel sources as the host library.

# The package names (the Makefile passes them too; read here so this file runs alone).
include makefiles/package.mk

# V=1 shows the full compiler command lines.
Q := $(if $(filter 1,$(V)),,@)

TOOLS_DIR := $(HEXAGON_SDK_ROOT)/tools/HEXAGON_Tools/$(HEXAGON_TOOLS_VERSION)/Tools
CC        := $(TOOLS_DIR)/bin/hexagon-clang

TARGET  := hexagon-$(DSP_ARCH)
LIB_DIR := libs/$(TARGET)
OBJ_DIR := obj/$(TARGET)
LIBRARY := $(LIB_DIR)/$(LIBRARY_NAME)

# Fixed by the LPAI runtime; see `make help` about deploying two packages.
ISLAND_LIBRARY := $(LIB_DIR)/$(ISLAND_LIBRARY_NAME)
# Linker script and version note ship with the QNN SDK (>= 2.48) and stay there.
ISLAND_ASSETS  := $(QNN_SDK_ROOT)/share/QNN/OpPackageGenerator/makefiles/LPAI/island
ISLAND_LCS     := $(ISLAND_ASSETS)/uimage_v2.lcs
ISLAND_NOTE    := $(ISLAND_ASSETS)/uimg_dl_v2.c

INCLUDES := -I$(QNN_SDK_ROOT)/include/QNN -I$(QNN_SDK_ROOT)/include/QNN/LPAI -Iinclude \
            -I$(HEXAGON_SDK_ROOT)/rtos/qurt/compute$(DSP_ARCH)/include/qurt \
            -I$(HEXAGON_SDK_ROOT)/rtos/qurt/compute$(DSP_ARCH)/include/posix \
            -I$(HEXAGON_SDK_ROOT)/incs -I$(HEXAGON_SDK_ROOT)/incs/stddef
CFLAGS := -std=c11 -fPIC -O2 -fvisibility=hidden -ffp-contract=off \
          -m$(DSP_ARCH) -mhvx -mhvx-length=128B -DUSE_OS_QURT -DLPAI_INFERENCE_ONLY $(INCLUDES)

# The compiler side (*_compiler.cpp) never goes to the DSP.
SRCS        := $(wildcard src/*.c) $(wildcard src/ops/*_inference.c) $(wildcard user/*.c)
OBJS        := $(patsubst %.c,$(OBJ_DIR)/main/%.o,$(SRCS))
ISLAND_OBJS := $(patsubst %.c,$(OBJ_DIR)/island/%.o,$(SRCS)) $(OBJ_DIR)/island/uimg_dl_v2.o

.PHONY: all library island
all: library island
library: $(LIBRARY)
island: $(ISLAND_LIBRARY)

$(TOOLS_DIR)/bin/hexagon-clang:
	@echo "error: no hexagon-clang under $(TOOLS_DIR): check HEXAGON_SDK_ROOT and HEXAGON_TOOLS_VERSION" >&2; exit 1

$(LIBRARY): $(OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(CC) -shared -fPIC -o $@ $^
	@echo "built $@ (sign it before deploying)"

$(ISLAND_LIBRARY): $(ISLAND_OBJS)
	@if [ ! -f "$(ISLAND_LCS)" ]; then echo "error: $(ISLAND_LCS) missing: QNN SDK >= 2.48 needed" >&2; exit 1; fi
	@mkdir -p $(dir $@)
	$(Q)$(CC) -shared -fPIC -T$(ISLAND_LCS) -o $@ $^
	@echo "built $@ (sign it before deploying, together with $(LIBRARY_NAME))"

$(OBJ_DIR)/main/%.o $(OBJ_DIR)/island/%.o: %.c | $(CC)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OBJ_DIR)/island/uimg_dl_v2.o: $(ISLAND_NOTE) | $(CC)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

# A dependency file (.d) may name a header that no longer exists: an update removed or
# renamed it. -MP gives each header of a new .d a rule of its own; this rule does the same
# for the .d files of an older build (one without -MP): a missing header is rebuilt by
# doing nothing, so the objects that named it are compiled again, and their new .d
# files no longer name it. A header still #included and missing fails in the compiler.
%.h: ;
-include $(OBJS:.o=.d) $(ISLAND_OBJS:.o=.d)
