# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The HTP test driver as Hexagon code, no SDK: zig's clang++ compiles every op, the
# stand-in and the driver for hexagon-linux-musl; zig's C linker links them (the driver
# and the kernels need nothing of the C++ library at run time, so no libc++ is built
# for Hexagon); tests/test_htp_kernels.py runs it under qemu-hexagon on the host
# driver's cases and requires the same bytes.
#   make -f makefiles/hexagon_test.mk driver    $(BUILD)/test_htp.hexagon
# Variables: PYTHON (with ziglang), ZIG, WERROR=0, BUILD=<dir>.

Q := $(if $(filter 1,$(V)),,@)
include makefiles/package.mk

PYTHON  ?= python3
ZIG     ?= $(PYTHON) -m ziglang
WERROR  ?= 1
BUILD   ?= build/hexagon-test
# v79 code with 128-byte HVX, its integer instructions up to v66 (what qemu-hexagon
# runs bit-exact; no QEMU runs HVX float, v68+): the device build is an HVX build, so
# this is its code but for HVX float. One build serves tests/test_htp_kernels.py's
# Hexagon test and tests/test_htp_paths.py's. Linked as the LPAI package's
# hexagon-test links, so zig's musl for it is built once for both.
HEX_CPU  := hexagonv79+hvxv66+hvx_length128b
HEX_LINK := -target hexagon-linux-musl -mcpu=hexagonv79 -O2
WARN     := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
COMMON   := -target hexagon-linux-musl -mcpu=$(HEX_CPU) -O2 -g0 $(WARN) -ffp-contract=off -I$(LPAI_DIR)/include
CXXFLAGS := $(COMMON) -std=c++17 -fno-exceptions -fno-rtti -DHTP_STANDIN -DTHIS_PKG_NAME=$(PACKAGE_NAME) -Iinclude
CFLAGS   := $(COMMON) -std=c11

CXX_SRCS := src/qhpi_init.cpp $(wildcard src/ops/*.cpp) standin/htp_standin.cpp host/test_htp.cpp
USER_SRCS := $(wildcard $(LPAI_DIR)/user/*.c)
OBJS := $(patsubst %.cpp,$(BUILD)/%.o,$(CXX_SRCS)) $(patsubst $(LPAI_DIR)/user/%.c,$(BUILD)/user/%.o,$(USER_SRCS))

.PHONY: driver
driver: $(BUILD)/test_htp.hexagon

$(BUILD)/test_htp.hexagon: $(OBJS)
	$(Q)$(ZIG) cc $(HEX_LINK) -o $@ $^ -lm

$(BUILD)/%.o: %.cpp
	@mkdir -p $(@D)
	$(Q)$(ZIG) c++ $(CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/user/%.o: $(LPAI_DIR)/user/%.c
	@mkdir -p $(@D)
	$(Q)$(ZIG) cc $(CFLAGS) -MMD -MP -c $< -o $@

%.h: ;
-include $(OBJS:.o=.d)
