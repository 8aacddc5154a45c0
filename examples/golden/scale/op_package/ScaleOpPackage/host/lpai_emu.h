/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Host emulator of the LPAI kernel interface: the test-facing API.
 *
 * It plays the runtime for the package's library: it registers the package through
 * its interface provider (LPAI_PACKAGE_INTERFACE_PROVIDER, lpai_package.h), serves host buffers with chosen shapes, permuted layouts
 * and padded byte strides, per-tensor quantization in both scale forms (integer with
 * shift 37 included), and reports INT_8 for unsigned tensors as the device does.
 *
 * Values cross this API as torch codes: a torch uint8 tensor with (scale, zero_point
 * zp) is served with LPAI offset o = zp - 128 and stored byte (q - 128) mod 256, which
 * is exactly what the kernel's code = (stored - o) wrap gives back as q - zp.
 * Plain C types only, so ctypes (tests/op_package_host.py) mirrors it directly.
 */
#ifndef LPAI_EMU_H
#define LPAI_EMU_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#if defined(__GNUC__)
#define LPAI_EMU_API __attribute__((visibility("default")))
#else
#define LPAI_EMU_API
#endif

/* More than the LPAI maximum (5), so tests can offer a rank the kernels must refuse. */
#define LPAI_EMU_MAX_DIMS 8u

enum { LPAI_EMU_SCALE_FLOAT = 0, LPAI_EMU_SCALE_INT = 1, LPAI_EMU_SCALE_UNDEFINED = 2 };

/* Negative results are the emulator's own failures, never the kernel's. */
enum {
    LPAI_EMU_E_ARG = -1,       /* bad descriptor or call order */
    LPAI_EMU_E_NO_OP = -2,     /* op type not registered by the package */
    LPAI_EMU_E_PACKAGE = -3,   /* interface provider, init or getInfo failed */
    LPAI_EMU_E_SCALE_FORM = -4 /* scale has no exact (scale, shift) integer form */
};

/* AEE_EBADSTATE, what the device answers when a layout flag callback is missing. */
#define LPAI_EMU_AEE_EBADSTATE 0x8000040D

typedef struct {
    uint32_t rank;                     /* shape rank (may exceed 5 on purpose) */
    uint32_t dims[LPAI_EMU_MAX_DIMS];  /* logical sizes */
    uint32_t layout_rank;              /* reported layout rank; 0 means "= rank" */
    uint8_t order[LPAI_EMU_MAX_DIMS];  /* layoutOrder, slowest first */
    uint32_t stride[LPAI_EMU_MAX_DIMS];/* byte stride per layout position; all 0 = dense */
    uint32_t bits;                     /* element width in bits: 8 (16 to test refusal) */
    int32_t report_type;               /* -1: INT_<bits> like the device; else this LPAI type */
    int32_t layout_form;               /* 0: FLAT (served as the SDK's value, 1); else served as is */
    uint32_t scale_form;               /* LPAI_EMU_SCALE_* */
    float scale;                       /* the scale; the integer form is derived exactly */
    int32_t shift;                     /* integer form: the shift to use, e.g. 37 */
    int32_t zero_point;                /* torch zero point; offset served = zero_point - 128 */
} lpai_emu_desc;

LPAI_EMU_API void lpai_emu_reset(void);
/* Adds the next input; codes are torch codes in logical row-major order (8-bit). */
LPAI_EMU_API int32_t lpai_emu_add_input(const lpai_emu_desc *d, const uint8_t *codes);
/* Adds the next output (up to 4, in the op's order). */
LPAI_EMU_API int32_t lpai_emu_add_output(const lpai_emu_desc *d);
/* The longest parameter name the emulator stores (the spec's names are shorter). */
#define LPAI_EMU_NAME_MAX 64u
/* Adds a parameter under its name: getParamTensor looks it up by that name and gives
 * NULL for any other (the SDK's contract). */
LPAI_EMU_API int32_t lpai_emu_add_param_f32(const char *name, float value);
LPAI_EMU_API int32_t lpai_emu_add_param_u32(const char *name, uint32_t value); /* int and bool params */
/* Withholds getParamTensor (NULL for every name) and getTempBuffer (it fails), to see
 * a kernel refuse cleanly. */
LPAI_EMU_API void lpai_emu_drop_params(int32_t drop);
/* The scratch getTempBuffer serves on the next execute, with its size in
 * QnnLpaiCustomOp_BufferInfo_t: LPAI_EMU_TEMP_ASKED (the default, exactly the bytes the
 * op's getTempBufferSize asks for, so ASan sees any overrun), LPAI_EMU_TEMP_NULL
 * (getTempBuffer fails with LPAI_CUSTOM_OP_MEMORY), LPAI_EMU_TEMP_NO_CALL (the
 * infrastructure has no getTempBuffer), or a byte count >= 0 to serve exactly that
 * many bytes (fewer than asked: the kernel must refuse). Reset by lpai_emu_reset. */
#define LPAI_EMU_TEMP_ASKED (-1)
#define LPAI_EMU_TEMP_NULL (-2)
#define LPAI_EMU_TEMP_NO_CALL (-3)
LPAI_EMU_API void lpai_emu_temp(int64_t bytes);
/* Bytes of the temp buffer the last execute was given (0 for none), and the bytes of
 * scratch the kernel used (temp buffer or, rowwise, its stack buffer). */
LPAI_EMU_API uint64_t lpai_emu_temp_served(void);
LPAI_EMU_API uint64_t lpai_emu_last_scratch(void);
/* 1 when the kernel called getTempBuffer during the last execute. */
LPAI_EMU_API int32_t lpai_emu_temp_called(void);
/* 1 when the last execute handed the kernel dense copies of tensors the test laid out
 * permuted or padded: what the backend does (transpose / repack ops) for an op whose
 * getLayoutSupportFlag is QNN_LPAI_OP_LAYOUT_DEFAULT. Under SHAPE_NE_LAYOUT the kernel
 * gets every layout as given. Descriptors no backend would produce (overlapping,
 * not a permutation, not FLAT, ...) are handed as given either way: they test the
 * kernel's own checks. */
LPAI_EMU_API int32_t lpai_emu_last_repacked(void);
/* The layout support flag the op reports (0xFFFFFFFF when it has none). */
LPAI_EMU_API uint32_t lpai_emu_layout_flag(const char *op_type);
/* LPAI_ROW_MAX as built: the longest row a rowwise custom op accepts. */
LPAI_EMU_API uint32_t lpai_emu_row_max(void);

/* Runs executeOp of op_type on the current node. `reference` picks the path:
 * LPAI_EMU_PATH_AUTO (0, the kernel chooses), LPAI_EMU_PATH_REFERENCE (1, any other
 * value too), LPAI_EMU_PATH_DIRECT (2) or LPAI_EMU_PATH_TABLE (3, unary ops; binary
 * ops have the direct path only and run it). Returns the kernel's result (0 =
 * success) or LPAI_EMU_E_*. */
#define LPAI_EMU_PATH_AUTO 0
#define LPAI_EMU_PATH_REFERENCE 1
#define LPAI_EMU_PATH_DIRECT 2
#define LPAI_EMU_PATH_TABLE 3
LPAI_EMU_API int32_t lpai_emu_execute(const char *op_type, int32_t reference);

/* Reads output 0 (lpai_emu_read_output_k: output k) back as torch codes in logical
 * row-major order. */
LPAI_EMU_API int32_t lpai_emu_read_output(uint8_t *codes);
LPAI_EMU_API int32_t lpai_emu_read_output_k(uint32_t k, uint8_t *codes);
/* 1 when no byte of any output's buffer changed (padding included). */
LPAI_EMU_API int32_t lpai_emu_output_untouched(void);
/* 1 when the bytes between every output's elements (padding) are unchanged. */
LPAI_EMU_API int32_t lpai_emu_padding_untouched(void);
LPAI_EMU_API const char *lpai_emu_last_reject(void);
/* Silences the package's stderr diagnostics (the reasons stay readable above). */
LPAI_EMU_API void lpai_emu_quiet(int32_t quiet);
LPAI_EMU_API const char *lpai_emu_last_path(void);
/* 1 when the last call read an input by tiles of rows (lpai_gather_tile, lpai_elementwise.h). */
LPAI_EMU_API int lpai_emu_last_tiled(void);
/* 1 when the last call ran an HVX loop (lpai_hvx.h; Hexagon builds with HVX only). */
LPAI_EMU_API int lpai_emu_last_hvx(void);
/* x86: an op whose expression calls round, floor, ceil or trunc has an SSE4.1 copy of its
 * kernel, which runs when the CPU has SSE4.1 (include/lpai_expr_math.h).
 * lpai_emu_x86_force_sse2(1) makes every later call run the SSE2 form instead (until
 * lpai_emu_x86_force_sse2(0)); lpai_emu_x86_sse41 is 1 when this CPU has SSE4.1 and the
 * build can use it (0 on Hexagon); lpai_emu_last_sse41 is 1 when the last call ran an
 * SSE4.1 copy. */
LPAI_EMU_API void lpai_emu_x86_force_sse2(int32_t force);
LPAI_EMU_API int lpai_emu_x86_sse41(void);
LPAI_EMU_API int lpai_emu_last_sse41(void);
/* A digest (FNV-1a 64) of every call's status and output bytes since the last take,
 * and how many calls (lpai_emu_execute, lpai_emu_direct_end) it covers; the tests add
 * what they compute outside the emulator with lpai_emu_digest_bytes. `make
 * hexagon-test` compares the digests of the x86 and the Hexagon builds. */
LPAI_EMU_API void lpai_emu_digest_bytes(const void *data, size_t n);
LPAI_EMU_API uint64_t lpai_emu_digest_take(uint32_t *calls);

/* For the C suite's tests of the drivers themselves (lpai_drivers.h) on a node of no op
 * of the package: opens the package (its init stores the infrastructure the drivers
 * read), serves the temp buffer as lpai_emu_temp says (the asked size is the
 * documented formula: 4 bytes per element of every input and output) and returns
 * the node. lpai_emu_direct_end closes the package. */
LPAI_EMU_API void *lpai_emu_direct_begin(void);
LPAI_EMU_API void lpai_emu_direct_end(void);

/* The integer form the emulator serves for `scale` at `shift` (exact or error). */
LPAI_EMU_API int32_t lpai_emu_int_scale(float scale, int32_t shift, int32_t *iscale);

/* Registers the package as the device would and checks what the device checks:
 * every op has a layout support callback that answers. Returns 0 or
 * LPAI_EMU_AEE_EBADSTATE (with the op named on stderr). */
LPAI_EMU_API int64_t lpai_emu_register(void);

/* Registers the package of the library at `path` (its interface provider, looked up
 * by name) instead of the one linked in: every call above and below then goes to that
 * library, e.g. the host library `make lpai_x86` built against the SDK. 0 or
 * LPAI_EMU_E_PACKAGE (the reason on stderr). */
LPAI_EMU_API int32_t lpai_emu_load_library(const char *path);

/* Host validateOpConfig on a synthetic node. types/ranks/dims: inputs, then the
 * outputs; dims is (n_inputs + n_outputs) rows of LPAI_EMU_MAX_DIMS; param_types: the
 * Qnn_DataType_t of each scalar parameter. Returns the
 * Qnn_ErrorHandle_t (0 = accepted); the reason is on stderr. Host library only. */
LPAI_EMU_API int64_t lpai_emu_validate(const char *package, const char *op_type, uint32_t n_inputs, uint32_t n_outputs,
                                       const uint32_t *types, const uint32_t *ranks, const uint32_t *dims,
                                       uint32_t n_params, const char *const *param_names, const uint32_t *param_types);

#if defined(__cplusplus)
}
#endif

#endif /* LPAI_EMU_H */
