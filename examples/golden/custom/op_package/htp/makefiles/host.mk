# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The HTP test driver on the host, against the stand-in (standin/), no SDK:
#   make -f makefiles/host.mk driver    $(BUILD)/test_htp (tests/test_htp_kernels.py runs it)
# Variables: CXX / CC (default c++ / cc), SAN=1 (-fsanitize=address,undefined),
# WERROR=0 (drop -Werror), BUILD=<dir>.

Q := $(if $(filter 1,$(V)),,@)
include makefiles/package.mk

CXX    ?= c++
CC     ?= cc
SAN    ?= 0
WERROR ?= 1
BUILD  ?= build/host/$(notdir $(CXX))$(if $(filter 1,$(SAN)),-san)

comma    := ,
SANFLAGS := $(if $(filter 1,$(SAN)),-fsanitize=address$(comma)undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
WARN     := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
# -ffp-contract=off: the same roundings as the Hexagon build, whose bytes must match.
# No exceptions, no RTTI: the package needs nothing of the C++ library at run time.
CXXFLAGS := -std=c++17 -O1 -g $(WARN) -ffp-contract=off -fno-exceptions -fno-rtti -DHTP_STANDIN -DTHIS_PKG_NAME=$(PACKAGE_NAME) \
            -Iinclude -I$(LPAI_DIR)/include $(SANFLAGS)
CFLAGS   := -std=c11 -O1 -g $(WARN) -ffp-contract=off -I$(LPAI_DIR)/include $(SANFLAGS)

CXX_SRCS := src/qhpi_init.cpp $(wildcard src/ops/*.cpp) standin/htp_standin.cpp host/test_htp.cpp
USER_SRCS := $(wildcard $(LPAI_DIR)/user/*.c)
OBJS := $(patsubst %.cpp,$(BUILD)/%.o,$(CXX_SRCS)) $(patsubst $(LPAI_DIR)/user/%.c,$(BUILD)/user/%.o,$(USER_SRCS))

.PHONY: driver
driver: $(BUILD)/test_htp

$(BUILD)/test_htp: $(OBJS)
	$(Q)$(CXX) $(SANFLAGS) -o $@ $^ -lm

$(BUILD)/%.o: %.cpp
	@mkdir -p $(@D)
	$(Q)$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/user/%.o: $(LPAI_DIR)/user/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

%.h: ;
-include $(OBJS:.o=.d)
