# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# Host library: compiler side + kernels, x86_64, against the QNN SDK headers. Called
# by the Makefile after its environment checks. OBJ_DIR= and LIB_DIR= on the command
# line move its output (make sdk-check builds a fresh copy in build/sdk-check/).
#
# gcc/g++ rather than clang, as the pull request does: the LPAI headers include
# <cstdint>, which the SDK's clang setup did not find.

# The package names (the Makefile passes them too; read here so this file runs alone).
include makefiles/package.mk

# V=1 shows the full compiler command lines.
Q := $(if $(filter 1,$(V)),,@)

CC  := gcc
CXX := g++

TARGET  := x86_64-linux-clang
LIB_DIR := libs/$(TARGET)
OBJ_DIR := obj/$(TARGET)
LIBRARY := $(LIB_DIR)/$(LIBRARY_NAME)

INCLUDES := -I$(QNN_SDK_ROOT)/include/QNN -I$(QNN_SDK_ROOT)/include/QNN/LPAI -Iinclude
# -ffp-contract=off: the table and reference paths must round alike (see lpai_conventions.h).
# -fvisibility=hidden: only the interface provider is exported.
# -Wall -Wextra: against the SDK's headers the package builds without a warning
# (`make sdk-check` fails on any).
COMMON   := -fPIC -O2 -fvisibility=hidden -ffp-contract=off -march=x86-64 -Wall -Wextra $(INCLUDES)
CFLAGS   := -std=c11 $(COMMON)
CXXFLAGS := -std=c++11 $(COMMON)

C_SRCS   := $(wildcard src/*.c) $(wildcard src/ops/*_inference.c) $(wildcard user/*.c)
CXX_SRCS := $(wildcard src/ops/*_compiler.cpp)
OBJS     := $(patsubst %.c,$(OBJ_DIR)/%.o,$(C_SRCS)) $(patsubst %.cpp,$(OBJ_DIR)/%.o,$(CXX_SRCS))

$(LIBRARY): $(OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) -shared -fPIC -o $@ $^ -lm
	@echo "built $@"

$(OBJ_DIR)/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OBJ_DIR)/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(CXXFLAGS) -MMD -MP -c $< -o $@

# A dependency file (.d) may name a header that no longer exists: an update removed or
# renamed it. -MP gives each header of a new .d a rule of its own; this rule does the same
# for the .d files of an older build (one without -MP): a missing header is rebuilt by
# doing nothing, so the objects that named it are compiled again, and their new .d
# files no longer name it. A header still #included and missing fails in the compiler.
%.h: ;
-include $(OBJS:.o=.d)
