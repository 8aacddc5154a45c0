# This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
#
# The builds that need Qualcomm's SDK, and the check that it builds this package.
#   htp_x86       clang++ with libc++ (the SDK's x86 libraries are libc++ builds)
#   htp_v<NN>     hexagon-clang++ of the Hexagon SDK, each arch its own objects
#   htp_aarch64   the Android NDK's clang++, linked against libQnnHtp and libQnnHtpPrepare
#   sdk-check     the SDK's headers judge the package, one line per check (below)
# The ops are QHPI's (HTP/core/qhpi.h): QNN SDK 2.44 or later. -I$(QNN_INCLUDE)/HTP/core as
# well as -I$(QNN_INCLUDE): QAIRT 2.50 needs it. The SDK's headers come in with -isystem:
# their own warnings do not fail our -Werror.

Q := $(if $(filter 1,$(V)),,@)
include makefiles/package.mk

PYTHON      ?= python3
ZIG         ?= $(PYTHON) -m ziglang
QNN_INCLUDE  = $(QNN_SDK_ROOT)/include/QNN
SDK_INC      = -isystem $(QNN_INCLUDE) -isystem $(QNN_INCLUDE)/HTP/core
OUR_INC     := -Iinclude -I$(LPAI_DIR)/include
WARN        := -Wall -Wextra -Werror
# The package's name (include/htp_sdk.h): QHPI registers each op as "<package>::<Op>".
DEFS        := -DTHIS_PKG_NAME=$(PACKAGE_NAME)
SRCS        := $(wildcard src/*.cpp) $(wildcard src/ops/*.cpp)
USER_SRCS   := $(wildcard $(LPAI_DIR)/user/*.c)
OPS         := $(basename $(notdir $(wildcard src/ops/*.cpp)))

# ---- x86_64 ---------------------------------------------------------------------------
X86_CXX   ?= clang++
X86_CC    ?= clang
X86_DIR   ?= build/x86_64-linux-clang
X86_FLAGS  = -std=c++17 -stdlib=libc++ -fPIC -O2 -ffp-contract=off $(DEFS) $(SDK_INC) $(OUR_INC) $(WARN)
X86_OBJS   = $(patsubst %.cpp,$(X86_DIR)/obj/%.o,$(SRCS)) $(patsubst $(LPAI_DIR)/user/%.c,$(X86_DIR)/obj/user/%.o,$(USER_SRCS))

# ---- Hexagon (the Hexagon SDK's tools) -------------------------------------------------
HEX_TOOLS  = $(HEXAGON_SDK_ROOT)/tools/HEXAGON_Tools/$(HEXAGON_TOOLS_VERSION)/Tools/bin
HEX_FLAGS  = -std=c++17 -mhvx -mhvx-length=128B -DUSE_OS_QURT -DPREPARE_DISABLED -O2 -fPIC -G0 -ffp-contract=off \
             $(DEFS) $(SDK_INC) $(OUR_INC) -Wall -Wextra

# ---- aarch64 Android (the NDK) ---------------------------------------------------------
NDK_BIN    = $(ANDROID_NDK_ROOT)/toolchains/llvm/prebuilt/linux-x86_64/bin
ARM_FLAGS  = --target=aarch64-none-linux-android21 -std=c++17 -fPIC -O2 -ffp-contract=off -DPREPARE_DISABLED \
             $(DEFS) $(SDK_INC) $(OUR_INC) -Wall -Wextra

.PHONY: htp_x86 htp_aarch64 $(addprefix htp_,$(HTP_ARCHS)) sdk-check check-qnn-sdk check-hexagon-sdk check-ndk

check-qnn-sdk:
	@if [ -z "$(QNN_SDK_ROOT)" ]; then \
	  echo "error: QNN_SDK_ROOT is not set (Qualcomm AI Engine Direct SDK, run its bin/envsetup.sh)" >&2; exit 1; fi
	@if [ ! -f "$(QNN_INCLUDE)/HTP/core/qhpi.h" ]; then \
	  echo "error: QNN_SDK_ROOT=$(QNN_SDK_ROOT) has no include/QNN/HTP/core/qhpi.h: the package's ops are QHPI's, which QNN SDK 2.44 and later have" >&2; exit 1; fi

check-hexagon-sdk:
	@if [ -z "$(HEXAGON_SDK_ROOT)" ] || [ -z "$(HEXAGON_TOOLS_VERSION)" ]; then \
	  echo "error: HEXAGON_SDK_ROOT and HEXAGON_TOOLS_VERSION must be set (Hexagon SDK and a folder of its tools/HEXAGON_Tools)" >&2; exit 1; fi

check-ndk:
	@if [ -z "$(ANDROID_NDK_ROOT)" ]; then echo "error: ANDROID_NDK_ROOT is not set (Android NDK r25 or later)" >&2; exit 1; fi

htp_x86: check-qnn-sdk
	@$(MAKE) --no-print-directory -f makefiles/sdk.mk $(X86_DIR)/$(LIBRARY_NAME)
	@echo "built $(X86_DIR)/$(LIBRARY_NAME)"

$(X86_DIR)/$(LIBRARY_NAME): $(X86_OBJS)
	$(Q)$(X86_CXX) -stdlib=libc++ -shared -o $@ $^

$(X86_DIR)/obj/%.o: %.cpp
	@mkdir -p $(@D)
	$(Q)$(X86_CXX) $(X86_FLAGS) -c $< -o $@

$(X86_DIR)/obj/user/%.o: $(LPAI_DIR)/user/%.c
	@mkdir -p $(@D)
	$(Q)$(X86_CC) -std=c11 -fPIC -O2 -ffp-contract=off -I$(LPAI_DIR)/include $(WARN) -c $< -o $@

# Each arch from its own objects (ExecuTorch's example built v79 from the v75 ones).
# Not run by the template's tests: no Hexagon SDK there.
$(addprefix htp_,$(HTP_ARCHS)): htp_%: check-qnn-sdk check-hexagon-sdk
	@mkdir -p build/hexagon-$*/obj/user
	$(Q)set -e; objs=""; for f in $(SRCS); do o=build/hexagon-$*/obj/$$(basename $$f .cpp).o; \
	  $(HEX_TOOLS)/hexagon-clang++ -m$* $(HEX_FLAGS) -c $$f -o $$o; objs="$$objs $$o"; done; \
	for f in $(USER_SRCS); do o=build/hexagon-$*/obj/user/$$(basename $$f .c).o; \
	  $(HEX_TOOLS)/hexagon-clang -m$* -std=c11 -O2 -fPIC -G0 -ffp-contract=off -I$(LPAI_DIR)/include -c $$f -o $$o; \
	  objs="$$objs $$o"; done; \
	$(HEX_TOOLS)/hexagon-clang++ -m$* -shared -fPIC -G0 -o build/hexagon-$*/$(LIBRARY_NAME) $$objs
	@echo "built build/hexagon-$*/$(LIBRARY_NAME)"

htp_aarch64: check-qnn-sdk check-ndk
	@mkdir -p build/aarch64-android/obj/user
	$(Q)set -e; objs=""; for f in $(SRCS); do o=build/aarch64-android/obj/$$(basename $$f .cpp).o; \
	  $(NDK_BIN)/clang++ $(ARM_FLAGS) -c $$f -o $$o; objs="$$objs $$o"; done; \
	for f in $(USER_SRCS); do o=build/aarch64-android/obj/user/$$(basename $$f .c).o; \
	  $(NDK_BIN)/clang --target=aarch64-none-linux-android21 -std=c11 -O2 -fPIC -ffp-contract=off \
	    -I$(LPAI_DIR)/include -c $$f -o $$o; objs="$$objs $$o"; done; \
	$(NDK_BIN)/clang++ --target=aarch64-none-linux-android21 -shared -fPIC -o build/aarch64-android/$(LIBRARY_NAME) \
	  $$objs -L$(QNN_SDK_ROOT)/lib/aarch64-android -lQnnHtp -lQnnHtpPrepare
	@echo "built build/aarch64-android/$(LIBRARY_NAME)"

# The SDK's headers judge the package; everything is built afresh in build/sdk-check/.
#   1. x86_64: every source compiles (clang++, libc++, -Werror on our files) and links
#   2. x86_64: the library leaves undefined only what libQnnHtp.so and the C and C++
#      runtimes provide (makefiles/htp_undefined.txt, one pattern a line)
#   3. x86_64: the library exports what the runtime calls: the interface provider and
#      qhpi_init (which registers every op through qhpi_register_ops_v1)
#   4. Hexagon v73, v79 and v81 (zig's clang++, compile only): -Werror, and the objects'
#      undefined symbols pass the same list
#   5. the stand-in: host/htp_facts.cpp compiles against the stand-in and the SDK alike
SC := build/sdk-check
# The Hexagon versions sdk-check compiles for (zig; v81 is SM8850's HTP).
SDK_CHECK_ARCHS := 73 79 81
sdk-check: check-qnn-sdk
	@rm -rf $(SC); mkdir -p $(SC); fail=0; grep -v -e '^#' -e '^$$' makefiles/htp_undefined.txt > $(SC)/expected; \
	if $(MAKE) --no-print-directory -f makefiles/sdk.mk X86_DIR=$(SC)/x86 $(SC)/x86/$(LIBRARY_NAME) > $(SC)/x86.log 2>&1; then \
	  echo "sdk-check: ok    x86_64: $(LIBRARY_NAME) compiled (clang++, libc++, -Werror) and linked"; \
	else echo "sdk-check: FAIL  x86_64 build ($(SC)/x86.log)"; fail=1; fi; \
	if [ -f $(SC)/x86/$(LIBRARY_NAME) ]; then \
	  nm -D --undefined-only -C $(SC)/x86/$(LIBRARY_NAME) | sed -E 's/^ *[Uw] +//; s/@[A-Z_.0-9]+$$//' > $(SC)/x86.undefined; \
	  grep -v -E -f $(SC)/expected $(SC)/x86.undefined > $(SC)/x86.unexpected || true; \
	  if [ -s $(SC)/x86.unexpected ]; then \
	    echo "sdk-check: FAIL  x86_64: undefined symbols nothing provides: $$(head -5 $(SC)/x86.unexpected | tr '\n' ';')"; fail=1; \
	  else echo "sdk-check: ok    x86_64: $$(wc -l < $(SC)/x86.undefined) undefined symbols, each one libQnnHtp.so or the runtime provides"; fi; \
	  missing=""; for sym in $(INTERFACE_PROVIDER) qhpi_init; do \
	    nm -D --defined-only $(SC)/x86/$(LIBRARY_NAME) | grep -q " T $$sym$$" || missing="$$missing $$sym"; done; \
	  if [ -n "$$missing" ]; then echo "sdk-check: FAIL  the library does not export:$$missing"; fail=1; \
	  else echo "sdk-check: ok    the library exports $(INTERFACE_PROVIDER) and qhpi_init ($(words $(OPS)) ops)"; fi; \
	fi; \
	if $(ZIG) version > /dev/null 2>&1; then \
	  for arch in $(SDK_CHECK_ARCHS); do ok=1; d=$(SC)/hexagon-v$$arch; mkdir -p $$d; \
	    cpu="-target hexagon-linux-musl -mcpu=hexagonv$$arch+hvxv$$arch+hvx_length128b -DHEX_ARCH=$$arch"; \
	    for f in $(SRCS); do \
	      $(ZIG) c++ $$cpu -std=c++17 -fPIC -O2 -ffp-contract=off -DUSE_OS_QURT -DPREPARE_DISABLED $(DEFS) $(SDK_INC) \
	        $(OUR_INC) $(WARN) -c $$f -o $$d/$$(basename $$f .cpp).o >> $$d.log 2>&1 || ok=0; done; \
	    for f in $(USER_SRCS); do \
	      $(ZIG) cc $$cpu -std=c11 -fPIC -O2 -ffp-contract=off -I$(LPAI_DIR)/include $(WARN) \
	        -c $$f -o $$d/user_$$(basename $$f .c).o >> $$d.log 2>&1 || ok=0; done; \
	    nm --defined-only -C $$d/*.o 2>/dev/null | sed -E 's/^[0-9a-f]+ +[A-Za-z] +//' | sort -u > $$d.defined; \
	    nm --undefined-only -C $$d/*.o 2>/dev/null | sed -E 's/^ *[Uw] +//' | grep -v -e '^$$' -e ':$$' | sort -u \
	      | comm -23 - $$d.defined > $$d.undefined; \
	    grep -v -E -f $(SC)/expected $$d.undefined > $$d.unexpected || true; \
	    if [ $$ok = 1 ] && [ ! -s $$d.unexpected ]; then \
	      echo "sdk-check: ok    Hexagon v$$arch: every source compiles (zig's clang++, HVX, -Werror), undefined symbols as expected"; \
	    else echo "sdk-check: FAIL  Hexagon v$$arch ($$d.log; unexpected: $$(head -5 $$d.unexpected | tr '\n' ';'))"; fail=1; fi; \
	  done; \
	else echo "sdk-check: skip  Hexagon $(SDK_CHECK_ARCHS): $(ZIG) does not run (pip install ziglang)"; fi; \
	if $(X86_CXX) -std=c++17 -fsyntax-only -DHTP_STANDIN $(DEFS) -Iinclude host/htp_facts.cpp > $(SC)/facts-standin.log 2>&1 && \
	   $(X86_CXX) -std=c++17 -stdlib=libc++ -fsyntax-only $(DEFS) $(SDK_INC) -Iinclude \
	     host/htp_facts.cpp > $(SC)/facts-sdk.log 2>&1; then \
	  echo "sdk-check: ok    the stand-in (standin/htp_standin.h) has the SDK's names, types and values (host/htp_facts.cpp)"; \
	else echo "sdk-check: FAIL  stand-in and SDK disagree ($(SC)/facts-standin.log, $(SC)/facts-sdk.log)"; fail=1; fi; \
	if [ $$fail = 0 ]; then echo "sdk-check: this SDK ($(QNN_SDK_ROOT)) builds $(PACKAGE_NAME) for HTP"; \
	else echo "sdk-check: this SDK ($(QNN_SDK_ROOT)) does not build $(PACKAGE_NAME) for HTP: see the lines above"; exit 1; fi
