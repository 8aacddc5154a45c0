// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP package's loops, free of the SDK: tensors arrive as htp_view (an element
// type, the quantization, the logical shape and a flat row-major buffer), made by
// include/htp_kernels.h from what the runtime hands an op. The math is the LPAI
// package's (one generated function per op, one user file per custom op): this file
// reads real values from the views and writes real values back, for the three element
// types an HTP graph gives a custom op:
//   HTP_F32   fp32 graphs, and fp16 graphs (ExecuTorch sends a custom op FLOAT_32)
//   HTP_U8    the a8w8 quantizer's activations: real = (code - offset) * scale
//   HTP_U16   the a16w8 quantizer's activations, the same with 16-bit codes
// A quantized result is rounded as on LPAI and in torch: value x (1 / scale), clamped
// to the code window, rounded half to even, then the zero point added
// (lpai_round_half_even, lpai_conventions.h; qnn-op-template/docs/spec.md "Rounding").
// Shapes: inputs broadcast like torch (lpai_shapes.h, shared with LPAI); each output
// must have its rule's shape, up to leading dims of 1 (HTP tensors are 4-D).
//
// Speed (qnn-op-template/docs/benchmark.md, "HTP"; qnn-op-template/bench/htp.py): an
// elementwise call of more than HTP_SMALL elements walks memory once, HTP_BLOCK
// elements at a time: each input dequantized into a float block, the op's math over the
// block, the block requantized, in loops of one element type and a constant trip count
// that the compiler vectorises. Inputs of the output's own shape are one dense run;
// broadcast inputs go through LPAI's walk (lpai_walk_plan: a broadcast dim steps 0,
// dims contiguous in every operand merged). A one-input 8-bit op from HTP_TABLE_MIN
// elements computes its 256 results once and looks every element up (vlut32 on HVX:
// lpai_hvx.h). Up to HTP_SMALL elements one element at a time; the reference loop
// (htp_elementwise_reference: each element at its coordinates through
// htp_load/htp_store) takes a small broadcast call and views of mixed element types.
// Every path writes the reference's bytes (the project's tests/test_htp_paths.py).
#ifndef HTP_ENGINE_H
#define HTP_ENGINE_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits> // std::conditional

#include "lpai_conventions.h" // lpai_round_half_even, LPAI_USER_MATH_MISSING, LPAI_MAX_*
#include "lpai_elementwise.h"  // the walk, the 8-bit table lookup (vlut32 on HVX): LPAI's loops, shared
#include "lpai_expr_math.h"   // the functions the expressions call
#include "lpai_shapes.h"      // the shape rules and lpai_custom_call, shared with LPAI

// One message per refusal on the host builds; the device has no stdio to speak to.
#if defined(HTP_STANDIN)
#define HTP_REPORT(...) std::fprintf(stderr, __VA_ARGS__)
#else
#define HTP_REPORT(...) ((void)sizeof(std::printf(__VA_ARGS__))) // not evaluated: uses the arguments
#endif

// The element types the package computes; include/htp_kernels.h maps the runtime's.
enum htp_elem : uint32_t {
    HTP_F32 = 0,
    HTP_U8 = 1,
    HTP_U16 = 2,
};

// Why the loops refused (0: they did not); include/htp_kernels.h maps each to the
// runtime's status.
enum htp_rc : uint32_t {
    HTP_OK = 0,
    HTP_BAD_DIMS,    // a shape that is not the op's rule's
    HTP_BAD_INPUT,   // a missing buffer, or the user math failed
    HTP_BAD_QUANT,   // an element type or a quantization the package does not take
    HTP_NO_SPACE,    // no memory for the custom op's float buffer
    HTP_UNSUPPORTED, // the user math is not written yet
};

// One tensor as the loops read or write it.
struct htp_view {
    htp_elem elem;
    float scale;
    float inv_scale; // 1 / scale, for writing: the reciprocal multiplies, as torch's quantize
    int32_t offset;  // zero point
    int32_t qmax;    // the largest code; 0 for HTP_F32
    lpai_shape shape;
    const void *in;
    void *out;
};

// The quantization of a quantized view, checked: a usable scale (lpai_scale_ok) and a
// zero point inside the code window; 1 / scale finite.
static inline htp_rc htp_view_quant(htp_view *v, float scale, int32_t offset)
{
    v->scale = scale;
    v->offset = offset;
    if (!lpai_scale_ok(v->scale) || v->offset < 0 || v->offset > v->qmax) {
        HTP_REPORT("htp: scale %g zero point %d: not a usable quantization\n", (double)v->scale, (int)v->offset);
        return HTP_BAD_QUANT;
    }
    v->inv_scale = 1.0f / v->scale;
    return lpai_ratio_ok(v->inv_scale) ? HTP_OK : HTP_BAD_QUANT;
}

// The logical shape of a view from its rank and dims (size_t, as the runtimes give them).
static inline htp_rc htp_view_shape(htp_view *v, size_t rank, const size_t *dims)
{
    if (rank > LPAI_MAX_RANK) {
        return HTP_BAD_DIMS;
    }
    v->shape.rank = static_cast<uint32_t>(rank);
    for (size_t d = 0; d < rank; ++d) {
        if (dims[d] > UINT32_MAX) {
            return HTP_BAD_DIMS;
        }
        v->shape.dims[d] = static_cast<uint32_t>(dims[d]);
    }
    return lpai_count_elements_checked(v->shape.dims, v->shape.rank, &v->shape.count) ? HTP_OK : HTP_BAD_DIMS;
}

static inline float htp_load(const htp_view &v, uint64_t i)
{
    if (v.elem == HTP_F32) {
        float x;
        std::memcpy(&x, static_cast<const unsigned char *>(v.in) + i * 4u, sizeof x);
        return x;
    }
    int32_t code;
    if (v.elem == HTP_U8) {
        code = static_cast<const uint8_t *>(v.in)[i];
    } else {
        uint16_t c16;
        std::memcpy(&c16, static_cast<const unsigned char *>(v.in) + i * 2u, sizeof c16);
        code = c16;
    }
    return static_cast<float>(code - v.offset) * v.scale;
}

static inline void htp_store(const htp_view &v, uint64_t i, float value)
{
    unsigned char *p = static_cast<unsigned char *>(v.out);
    if (v.elem == HTP_F32) {
        std::memcpy(p + i * 4u, &value, sizeof value);
        return;
    }
    // Clamped in float before the conversion (NaN, and out-of-range floats, would be
    // undefined behaviour as an int): `!(c > lo)` sends NaN to the lowest code.
    const float lo = static_cast<float>(-v.offset);
    const float hi = static_cast<float>(v.qmax - v.offset);
    float c = value * v.inv_scale;
    c = (c > lo) ? c : lo;
    c = (c < hi) ? c : hi;
    const int32_t code = static_cast<int32_t>(lpai_round_half_even(c)) + v.offset;
    if (v.elem == HTP_U8) {
        p[i] = static_cast<uint8_t>(code);
    } else {
        const uint16_t c16 = static_cast<uint16_t>(code);
        std::memcpy(p + i * 2u, &c16, sizeof c16);
    }
}

// 1 when `got` is `want` up to leading dims of 1 (an HTP tensor is 4-D whatever the
// rank torch gives it).
static inline int htp_same_shape(uint32_t want_rank, const uint32_t *want, const lpai_shape &got)
{
    uint32_t a = want_rank, b = got.rank;
    while (a > 0u && b > 0u) {
        if (want[--a] != got.dims[--b]) {
            return 0;
        }
    }
    while (a > 0u) {
        if (want[--a] != 1u) {
            return 0;
        }
    }
    while (b > 0u) {
        if (got.dims[--b] != 1u) {
            return 0;
        }
    }
    return 1;
}

// The inputs' ranks and dims in the form lpai_shapes.h's rules read them: gathered once
// per call (htp_inputs), read by every output's rule.
struct htp_shapes {
    uint32_t ranks[LPAI_MAX_INPUTS];
    uint32_t dims[LPAI_MAX_INPUTS][LPAI_MAX_RANK];
};

// The shape `rule` gives an output of these inputs (0: the inputs admit none).
static inline int htp_rule_shape(const lpai_shape_rule *rule, uint32_t nin, const htp_shapes &in, lpai_shape *out)
{
    std::memset(out, 0, sizeof *out);
    if (!lpai_rule_dims(rule, nin, in.ranks, in.dims, &out->rank, out->dims)) {
        return 0;
    }
    return lpai_count_elements_checked(out->dims, out->rank, &out->count);
}

// The math of an elementwise op: real inputs in, the real result out (in[] by input,
// params[] by param, each param as float).
typedef float (*htp_math_fn)(const float *in, const float *params);

// The inputs' ranks and dims, gathered once per call for the shape rules.
static inline void htp_gather_shapes(const htp_view *v, uint32_t nin, htp_shapes *shapes)
{
    for (uint32_t k = 0; k < nin; ++k) {
        shapes->ranks[k] = v[k].shape.rank;
        std::memcpy(shapes->dims[k], v[k].shape.dims, sizeof shapes->dims[k]);
    }
}

// The elementwise paths (the tests force each on the host: HTP_ENGINE_PATH).
enum htp_path : uint32_t {
    HTP_PATH_AUTO = 0,  // by the call's size and element types
    HTP_PATH_REFERENCE, // the per-element loop
    HTP_PATH_DIRECT,    // the blocked loop, no table
    HTP_PATH_TABLE,     // the table where the op has one (a one-input 8-bit op), else the blocked loop
};

// Host builds (HTP_STANDIN: the test drivers) read HTP_ENGINE_PATH=reference|direct|table
// once; the device build, and the benchmark (HTP_NO_PATH_ENV), always choose by size.
#if defined(HTP_STANDIN) && !defined(HTP_NO_PATH_ENV)
static inline htp_path htp_forced_path()
{
    static int forced = -1;
    if (forced < 0) {
        const char *e = std::getenv("HTP_ENGINE_PATH");
        forced = e == nullptr                       ? HTP_PATH_AUTO
                 : std::strcmp(e, "reference") == 0 ? HTP_PATH_REFERENCE
                 : std::strcmp(e, "direct") == 0    ? HTP_PATH_DIRECT
                 : std::strcmp(e, "table") == 0     ? HTP_PATH_TABLE
                                                    : HTP_PATH_AUTO;
    }
    return static_cast<htp_path>(forced);
}
#else
static inline htp_path htp_forced_path()
{
    return HTP_PATH_AUTO;
}
#endif

// x86: an op whose expression calls round, floor, ceil or trunc has a copy of the engine
// compiled for SSE4.1 (roundps; src/ops/<Op>.cpp, include/lpai_expr_math.h), run when the
// CPU has SSE4.1. The host test builds read HTP_ENGINE_ISA=sse2 once, which makes every op
// run its SSE2 form (tests/test_htp_paths.py compares the two), and count the calls that
// ran an SSE4.1 copy (htp_host_sse41_calls, standin/htp_standin.cpp).
#if defined(HTP_STANDIN)
extern uint64_t htp_host_sse41_calls;
#endif
#if LPAI_X86_DISPATCH
#if defined(HTP_STANDIN) && !defined(HTP_NO_PATH_ENV)
static inline int htp_x86_sse41_chosen()
{
    static int sse2 = -1;
    if (sse2 < 0) {
        const char *e = std::getenv("HTP_ENGINE_ISA");
        sse2 = e != nullptr && std::strcmp(e, "sse2") == 0;
    }
    const int chosen = !sse2 && lpai_x86_has_sse41();
    htp_host_sse41_calls += static_cast<uint64_t>(chosen);
    return chosen;
}
#else
static inline int htp_x86_sse41_chosen()
{
    return lpai_x86_has_sse41();
}
#endif
#endif

// Up to this many elements a call runs the reference loop: the blocked loop's set-up
// (the walk's plan, the blocks) costs more than it saves (LPAI_SMALL, the same bound).
#define HTP_SMALL 8u
// Elements of a block (LPAI's block: one HVX vector of bytes).
#define HTP_BLOCK LPAI_BLOCK
// From this many elements a one-input 8-bit op computes its 256 results once and looks
// every element up: twice the table's own evaluations (qnn-op-template/bench/htp.py,
// mul3 at 25,088 elements: 4.3 instructions per element on x86 with the table's build,
// 0.14 packets with vlut32, against 7.2 and 8.2 for 16-bit codes by the blocks).
#define HTP_TABLE_MIN 512u

// The reference loop: every output element from the inputs' elements at the same
// (broadcast) position, each read and written through htp_load/htp_store. The output's
// own dims lead: its coordinates walk the inputs with a stride of 0 along a broadcast
// dim. `want` is the broadcast shape, which holds as many elements as the output.
// Always inlined, as every loop here that calls `math`: the op's math is always inlined
// (src/ops/<Op>.cpp), and gcc -O1 refuses such a function behind a pointer it has not
// resolved in a function it did not inline.
static LPAI_ALWAYS_INLINE void htp_elementwise_reference(const htp_view &o, const htp_view *v, uint32_t nin,
                                                         const float *params, htp_math_fn math, const lpai_shape &want)
{
    const uint32_t rank = want.rank;
    uint64_t stride[LPAI_MAX_INPUTS][LPAI_MAX_RANK] = {};
    for (uint32_t k = 0; k < nin; ++k) {
        uint64_t s = 1u;
        const uint32_t lead = rank - v[k].shape.rank;
        for (uint32_t d = v[k].shape.rank; d-- > 0u;) {
            stride[k][lead + d] = v[k].shape.dims[d] == 1u ? 0u : s;
            s *= v[k].shape.dims[d];
        }
    }
    uint32_t idx[LPAI_MAX_RANK] = {};
    uint64_t at[LPAI_MAX_INPUTS] = {};
    float x[LPAI_MAX_INPUTS];
    for (uint64_t i = 0; i < want.count; ++i) {
        for (uint32_t k = 0; k < nin; ++k) {
            x[k] = htp_load(v[k], at[k]);
        }
        htp_store(o, i, math(x, params));
        for (uint32_t d = rank; d-- > 0u;) {
            for (uint32_t k = 0; k < nin; ++k) {
                at[k] += stride[k][d];
            }
            if (++idx[d] < want.dims[d]) {
                break;
            }
            for (uint32_t k = 0; k < nin; ++k) {
                at[k] -= stride[k][d] * want.dims[d];
            }
            idx[d] = 0u;
        }
    }
}

// ---- The blocked loops: one element type each, a block at a time --------------------
// Bytes per element of each type.
static inline uint32_t htp_elem_bytes(htp_elem e)
{
    return e == HTP_F32 ? 4u : e == HTP_U8 ? 1u : 2u;
}

// ---- Blocks of HTP_BLOCK elements, every loop of constant trip count ---------------
// gcc -O2 vectorises a loop only when its trip count is a known multiple of the vector
// length (its "very cheap" cost model; LPAI's loops are written the same way): every
// loop over elements below runs exactly HTP_BLOCK times. A short block (a row's tail)
// and an operand that is not contiguous (a broadcast input steps 0 bytes) are gathered
// into a local block first, and a short result is scattered from one.

// HTP_BLOCK contiguous values of a view to floats: htp_load's arithmetic,
// (code - zero point) x scale.
template <htp_elem E>
static LPAI_ALWAYS_INLINE void htp_dequant_block(const unsigned char *p, const htp_view &v, float *x)
{
    if (E == HTP_F32) {
        std::memcpy(x, p, HTP_BLOCK * sizeof(float));
        return;
    }
    const float scale = v.scale;
    const int32_t offset = v.offset;
    if (E == HTP_U8) {
        for (uint32_t j = 0; j < HTP_BLOCK; ++j) {
            x[j] = static_cast<float>(static_cast<int32_t>(p[j]) - offset) * scale;
        }
    } else {
        uint16_t c[HTP_BLOCK]; // one copy (any alignment), then the loop
        std::memcpy(c, p, sizeof c);
        for (uint32_t j = 0; j < HTP_BLOCK; ++j) {
            x[j] = static_cast<float>(static_cast<int32_t>(c[j]) - offset) * scale;
        }
    }
}

// HTP_BLOCK results to contiguous values of a view: htp_store's arithmetic (clamped in
// float, rounded half to even, the zero point added). Adding 1.5 x 2^23 to the clamped
// code rounds it half to even, and the sum's low 16 bits are then the code modulo 2^16
// (|code| < 2^22): the stored code with the zero point added, with no float -> int
// conversion (lpai_requant_u8_store, the 8-bit form LPAI's loops use).
template <htp_elem E>
static LPAI_ALWAYS_INLINE void htp_quant_block(unsigned char *q, const htp_view &o, const float *y)
{
    if (E == HTP_F32) {
        std::memcpy(q, y, HTP_BLOCK * sizeof(float));
        return;
    }
    using code_t = typename std::conditional<E == HTP_U8, uint8_t, uint16_t>::type;
    const float inv = o.inv_scale;
    const float lo = static_cast<float>(-o.offset);
    const float hi = static_cast<float>(o.qmax - o.offset);
    const uint32_t zp = static_cast<uint32_t>(o.offset);
    code_t codes[HTP_BLOCK];
    for (uint32_t j = 0; j < HTP_BLOCK; ++j) {
        float c = y[j] * inv;
        c = (c > lo) ? c : lo; // NaN lands on the lowest code, as in htp_store
        c = (c < hi) ? c : hi;
        codes[j] = static_cast<code_t>(lpai_bits_from_f32(c + 12582912.0f) + zp);
    }
    std::memcpy(q, codes, sizeof codes);
}

// m (1 to HTP_BLOCK) elements `step` bytes apart (0: one element repeated) into a dense
// block, the rest zero; and back.
static LPAI_ALWAYS_INLINE void htp_gather(unsigned char *dst, const unsigned char *p, ptrdiff_t step, uint32_t m,
                                          uint32_t bytes)
{
    if (step == static_cast<ptrdiff_t>(bytes)) {
        std::memcpy(dst, p, static_cast<size_t>(m) * bytes);
    } else {
        for (uint32_t j = 0; j < m; ++j) {
            std::memcpy(dst + j * bytes, p + static_cast<ptrdiff_t>(j) * step, bytes);
        }
    }
    std::memset(dst + m * bytes, 0, static_cast<size_t>(HTP_BLOCK - m) * bytes);
}

static LPAI_ALWAYS_INLINE void htp_scatter(unsigned char *q, ptrdiff_t step, const unsigned char *src, uint32_t m,
                                           uint32_t bytes)
{
    if (step == static_cast<ptrdiff_t>(bytes)) {
        std::memcpy(q, src, static_cast<size_t>(m) * bytes);
        return;
    }
    for (uint32_t j = 0; j < m; ++j) {
        std::memcpy(q + static_cast<ptrdiff_t>(j) * step, src + j * bytes, bytes);
    }
}

// The op's math over a block: y[j] = math(x[0][j], ..., x[N - 1][j]). N and the math
// are constants here (htp_elementwise_run is inlined into the op's own file): the call
// is inlined and the loop vectorised, unless the math calls libm.
template <uint32_t N>
static LPAI_ALWAYS_INLINE void htp_math_block(const float (*x)[HTP_BLOCK], const float *params, htp_math_fn math,
                                              float *y)
{
    for (uint32_t j = 0; j < HTP_BLOCK; ++j) {
        float a[N];
        for (uint32_t k = 0; k < N; ++k) {
            a[k] = x[k][j];
        }
        y[j] = math(a, params);
    }
}

// One block of m (1 to HTP_BLOCK) elements: input k at in[k], step[k] bytes apart, the
// output at q, ostep bytes apart.
template <htp_elem E, uint32_t N>
static LPAI_ALWAYS_INLINE void htp_block(const unsigned char *const *in, const ptrdiff_t *step, unsigned char *q,
                                         ptrdiff_t ostep, uint32_t m, const htp_view &o, const htp_view *v,
                                         const float *params, htp_math_fn math)
{
    const uint32_t bytes = htp_elem_bytes(E);
    float x[N][HTP_BLOCK];
    float y[HTP_BLOCK];
    unsigned char local[HTP_BLOCK * sizeof(float)];
    for (uint32_t k = 0; k < N; ++k) {
        if (m == HTP_BLOCK && step[k] == static_cast<ptrdiff_t>(bytes)) {
            htp_dequant_block<E>(in[k], v[k], x[k]);
        } else {
            htp_gather(local, in[k], step[k], m, bytes);
            htp_dequant_block<E>(local, v[k], x[k]);
        }
    }
    htp_math_block<N>(x, params, math, y);
    if (m == HTP_BLOCK && ostep == static_cast<ptrdiff_t>(bytes)) {
        htp_quant_block<E>(q, o, y);
    } else {
        htp_quant_block<E>(local, o, y);
        htp_scatter(q, ostep, local, m, bytes);
    }
}

// One element, for the calls of up to HTP_SMALL elements: the blocks' arithmetic.
template <htp_elem E> static LPAI_ALWAYS_INLINE float htp_load_one(const htp_view &v, const unsigned char *p)
{
    if (E == HTP_F32) {
        float x;
        std::memcpy(&x, p, sizeof x);
        return x;
    }
    int32_t code;
    if (E == HTP_U8) {
        code = p[0];
    } else {
        uint16_t c;
        std::memcpy(&c, p, sizeof c);
        code = c;
    }
    return static_cast<float>(code - v.offset) * v.scale;
}

template <htp_elem E> static LPAI_ALWAYS_INLINE void htp_store_one(const htp_view &o, unsigned char *q, float y)
{
    if (E == HTP_F32) {
        std::memcpy(q, &y, sizeof y);
        return;
    }
    float c = y * o.inv_scale;
    const float lo = static_cast<float>(-o.offset);
    const float hi = static_cast<float>(o.qmax - o.offset);
    c = (c > lo) ? c : lo;
    c = (c < hi) ? c : hi;
    const uint32_t code = lpai_bits_from_f32(c + 12582912.0f) + static_cast<uint32_t>(o.offset);
    if (E == HTP_U8) {
        q[0] = static_cast<uint8_t>(code);
    } else {
        const uint16_t c16 = static_cast<uint16_t>(code);
        std::memcpy(q, &c16, sizeof c16);
    }
}

// A row-major lpai_view of a tensor of `shape` at `data` (LPAI's views carry byte strides).
static inline void htp_lpai_view(const lpai_shape &shape, uint32_t bytes, const void *data, lpai_view *lv)
{
    std::memset(lv, 0, sizeof *lv);
    lv->rank = shape.rank;
    lv->data = static_cast<uint8_t *>(const_cast<void *>(data));
    uint64_t s = bytes;
    for (uint32_t d = shape.rank; d-- > 0u;) {
        lv->dims[d] = shape.dims[d];
        lv->order[d] = static_cast<uint8_t>(d);
        lv->stride[d] = s;
        s *= shape.dims[d];
    }
}

// The blocked loop of N inputs of element type E: one walk over the broadcast shape.
template <htp_elem E, uint32_t N>
static LPAI_ALWAYS_INLINE void htp_map_blocked(const lpai_walk &w, uint8_t **ptr, const htp_view &o, const htp_view *v,
                                               const float *params, htp_math_fn math)
{
    const uint32_t last = w.ndim - 1u;
    const uint64_t n = w.n[last];
    ptrdiff_t step[N];
    for (uint32_t k = 0; k < N; ++k) {
        step[k] = w.s[k][last];
    }
    const ptrdiff_t ostep = w.s[N][last];
    uint64_t idx[LPAI_MAX_RANK] = {};
    do {
        for (uint64_t j = 0; j < n; j += HTP_BLOCK) {
            const uint32_t m = n - j < HTP_BLOCK ? static_cast<uint32_t>(n - j) : HTP_BLOCK;
            const unsigned char *in[N];
            for (uint32_t k = 0; k < N; ++k) {
                in[k] = ptr[k] + static_cast<ptrdiff_t>(j) * step[k];
            }
            htp_block<E, N>(in, step, ptr[N] + static_cast<ptrdiff_t>(j) * ostep, ostep, m, o, v, params, math);
        }
    } while (lpai_walk_next_row(&w, idx, ptr));
}

// The 256 results of a one-input 8-bit op, by the blocked loop's own arithmetic.
static LPAI_ALWAYS_INLINE void htp_table_u8(const htp_view &o, const htp_view &in, const float *params,
                                            htp_math_fn math, uint8_t *table)
{
    const ptrdiff_t one = 1;
    for (uint32_t b = 0; b < 256u; b += HTP_BLOCK) {
        const unsigned char *codes = lpai_all_bytes + b;
        htp_block<HTP_U8, 1u>(&codes, &one, table + b, 1, HTP_BLOCK, o, &in, params, math);
    }
}

// Every input of the output's own shape (no broadcast): the tensors are one dense run.
// Up to HTP_SMALL elements one element at a time (a call is then mostly its set-up);
// a one-input 8-bit op from HTP_TABLE_MIN by its table; else the blocked loop.
template <htp_elem E, uint32_t N>
static LPAI_ALWAYS_INLINE void htp_map_dense(const htp_view &o, const htp_view *v, const float *params,
                                             htp_math_fn math, uint64_t count, htp_path forced)
{
    const uint32_t bytes = htp_elem_bytes(E);
    unsigned char *q = static_cast<unsigned char *>(o.out);
    if (count <= HTP_SMALL && forced == HTP_PATH_AUTO) {
        for (uint64_t i = 0; i < count; ++i) {
            float a[N];
            for (uint32_t k = 0; k < N; ++k) {
                a[k] = htp_load_one<E>(v[k], static_cast<const unsigned char *>(v[k].in) + i * bytes);
            }
            htp_store_one<E>(o, q + i * bytes, math(a, params));
        }
        return;
    }
    if (E == HTP_U8 && N == 1u && (forced == HTP_PATH_TABLE || (forced == HTP_PATH_AUTO && count >= HTP_TABLE_MIN))) {
        uint8_t table[256];
        htp_table_u8(o, v[0], params, math, table);
        const uint8_t *p = static_cast<const uint8_t *>(v[0].in);
#if LPAI_HVX
        lpai_hvx_table vt;
        lpai_hvx_table_from(&vt, table);
        lpai_hvx_lookup_row(q, p, count, &vt);
#else
#pragma GCC unroll 4
        for (uint64_t j = 0; j < count; ++j) {
            q[j] = table[p[j]];
        }
#endif
        return;
    }
    ptrdiff_t step[N];
    for (uint32_t k = 0; k < N; ++k) {
        step[k] = bytes;
    }
    for (uint64_t j = 0; j < count; j += HTP_BLOCK) {
        const uint32_t m = count - j < HTP_BLOCK ? static_cast<uint32_t>(count - j) : HTP_BLOCK;
        const unsigned char *in[N];
        for (uint32_t k = 0; k < N; ++k) {
            in[k] = static_cast<const unsigned char *>(v[k].in) + j * bytes;
        }
        htp_block<E, N>(in, step, q + j * bytes, bytes, m, o, v, params, math);
    }
}

// The fast paths of N inputs of one element type E, some broadcast.
template <htp_elem E, uint32_t N>
static LPAI_ALWAYS_INLINE void htp_map(const htp_view &o, const htp_view *v, const float *params, htp_math_fn math,
                                       const lpai_shape &want, htp_path forced)
{
    const uint32_t bytes = htp_elem_bytes(E);
    lpai_view out, in[N], bv[N];
    const lpai_view *views[N + 1u];
    uint8_t *ptr[N + 1u];
    htp_lpai_view(want, bytes, o.out, &out);
    for (uint32_t k = 0; k < N; ++k) {
        htp_lpai_view(v[k].shape, bytes, v[k].in, &in[k]);
        lpai_view_broadcast(&in[k], &out, &bv[k]);
        views[k] = &bv[k];
        ptr[k] = bv[k].data;
    }
    views[N] = &out;
    ptr[N] = out.data;
    lpai_walk w;
    lpai_walk_plan(&w, views, N + 1u);
    if (E == HTP_U8 && N == 1u &&
        (forced == HTP_PATH_TABLE || (forced == HTP_PATH_AUTO && want.count >= HTP_TABLE_MIN))) {
        uint8_t table[256];
        htp_table_u8(o, v[0], params, math, table);
        lpai_map_table_u8(&w, ptr[0], ptr[1], table);
        return;
    }
    htp_map_blocked<E, N>(w, ptr, o, v, params, math);
}

// By input count (a constant in the op's file: one case is compiled). want == nullptr:
// dense (every input of the output's shape).
template <htp_elem E, uint32_t N>
static LPAI_ALWAYS_INLINE void htp_map_any(const htp_view &o, const htp_view *v, const float *params, htp_math_fn math,
                                           const lpai_shape *want, htp_path forced)
{
    if (want == nullptr) {
        htp_map_dense<E, N>(o, v, params, math, o.shape.count, forced);
    } else {
        htp_map<E, N>(o, v, params, math, *want, forced);
    }
}

template <htp_elem E>
static LPAI_ALWAYS_INLINE void htp_map_type(const htp_view &o, const htp_view *v, uint32_t nin, const float *params,
                                            htp_math_fn math, const lpai_shape *want, htp_path forced)
{
    switch (nin) {
    case 1u:
        htp_map_any<E, 1u>(o, v, params, math, want, forced);
        break;
    case 2u:
        htp_map_any<E, 2u>(o, v, params, math, want, forced);
        break;
    case 3u:
        htp_map_any<E, 3u>(o, v, params, math, want, forced);
        break;
    default:
        htp_map_any<E, 4u>(o, v, params, math, want, forced);
        break;
    }
}

// 1 when a and b have the same rank and dims.
static LPAI_ALWAYS_INLINE int htp_same_dims(const lpai_shape &a, const lpai_shape &b)
{
    int same = a.rank == b.rank;
    for (uint32_t d = 0; same && d < a.rank; ++d) {
        same = a.dims[d] == b.dims[d];
    }
    return same;
}

// An elementwise op: every output element from the inputs' elements at the same
// (broadcast) position. Always inlined: in the op's own file `math` is a constant, and
// the blocked loops inline it.
static LPAI_ALWAYS_INLINE htp_rc htp_elementwise_run(const htp_view &o, const htp_view *v, uint32_t nin,
                                                     const float *params, htp_math_fn math)
{
    const htp_path forced = htp_forced_path();
    // The common case first, cheaply: every input of the output's element type and own
    // shape (then the shapes agree without the broadcast rule).
    int one_type = nin >= 1u && nin <= LPAI_MAX_INPUTS;
    int dense = one_type;
    for (uint32_t k = 0; k < nin && one_type; ++k) {
        one_type &= v[k].elem == o.elem;
        dense &= one_type && htp_same_dims(v[k].shape, o.shape);
    }
    const lpai_shape *pwant = nullptr;
    lpai_shape want;
    if (!dense || forced == HTP_PATH_REFERENCE) {
        htp_shapes shapes;
        htp_gather_shapes(v, nin, &shapes);
        const lpai_shape_rule broadcast = {LPAI_SHAPE_BROADCAST, 0u, 0u, 0u, {0, 0, 0, 0, 0}};
        if (!htp_rule_shape(&broadcast, nin, shapes, &want) || !htp_same_shape(want.rank, want.dims, o.shape)) {
            HTP_REPORT("htp: the output's shape is not the broadcast of the inputs'\n");
            return HTP_BAD_DIMS;
        }
        if (forced == HTP_PATH_REFERENCE || (forced == HTP_PATH_AUTO && want.count <= HTP_SMALL) || !one_type) {
            htp_elementwise_reference(o, v, nin, params, math, want);
            return HTP_OK;
        }
        pwant = &want;
    }
    if (o.elem == HTP_U8) {
        htp_map_type<HTP_U8>(o, v, nin, params, math, pwant, forced);
    } else if (o.elem == HTP_U16) {
        htp_map_type<HTP_U16>(o, v, nin, params, math, pwant, forced);
    } else {
        htp_map_type<HTP_F32>(o, v, nin, params, math, pwant, forced);
    }
    return HTP_OK;
}

// A whole dense tensor to floats and back (a custom op's buffers), by the blocks:
// step(src, dst) turns HTP_BLOCK values of src_bytes each into HTP_BLOCK values of
// dst_bytes each (htp_dequant_block, htp_quant_block). The last count % HTP_BLOCK
// values are gathered into a local block (the rest zero: a step never reads an unset
// value) and their results scattered from one. The local blocks are floats, the widest
// element; a step reads and writes them through its own type.
template <typename Step>
static LPAI_ALWAYS_INLINE void htp_all_blocks(uint64_t count, const unsigned char *src, uint32_t src_bytes,
                                              unsigned char *dst, uint32_t dst_bytes, Step step)
{
    const unsigned char *const end = src + (count - count % HTP_BLOCK) * src_bytes;
    for (; src != end; src += HTP_BLOCK * src_bytes, dst += HTP_BLOCK * dst_bytes) {
        step(src, dst);
    }
    const uint32_t m = static_cast<uint32_t>(count % HTP_BLOCK);
    if (m != 0u) {
        float in[HTP_BLOCK];
        float out[HTP_BLOCK];
        htp_gather(reinterpret_cast<unsigned char *>(in), src, src_bytes, m, src_bytes);
        step(reinterpret_cast<const unsigned char *>(in), reinterpret_cast<unsigned char *>(out));
        htp_scatter(dst, dst_bytes, reinterpret_cast<const unsigned char *>(out), m, dst_bytes);
    }
}

template <htp_elem E> static inline void htp_dequant_all_t(const htp_view &v, float *x)
{
    htp_all_blocks(v.shape.count, static_cast<const unsigned char *>(v.in), htp_elem_bytes(E),
                   reinterpret_cast<unsigned char *>(x), sizeof(float), [&v](const unsigned char *p, unsigned char *d) {
                       htp_dequant_block<E>(p, v, reinterpret_cast<float *>(d));
                   });
}

template <htp_elem E> static inline void htp_quant_all_t(const htp_view &o, const float *y)
{
    htp_all_blocks(o.shape.count, reinterpret_cast<const unsigned char *>(y), sizeof(float),
                   static_cast<unsigned char *>(o.out), htp_elem_bytes(E),
                   [&o](const unsigned char *p, unsigned char *q) {
                       htp_quant_block<E>(q, o, reinterpret_cast<const float *>(p));
                   });
}

// A float32 tensor both ways: its floats, copied (a block at a time, as the walk above,
// and the rest at once: a copy needs no local block).
static inline void htp_copy_f32(float *dst, const float *src, uint64_t count)
{
    const uint64_t whole = count - count % HTP_BLOCK;
    for (uint64_t j = 0; j < whole; j += HTP_BLOCK) {
        std::memcpy(dst + j, src + j, HTP_BLOCK * sizeof(float));
    }
    if (whole != count) {
        std::memcpy(dst + whole, src + whole, static_cast<size_t>(count - whole) * sizeof(float));
    }
}

static inline void htp_dequant_all(const htp_view &v, float *x)
{
    if (v.elem == HTP_U8) {
        htp_dequant_all_t<HTP_U8>(v, x);
    } else if (v.elem == HTP_U16) {
        htp_dequant_all_t<HTP_U16>(v, x);
    } else {
        htp_copy_f32(x, static_cast<const float *>(v.in), v.shape.count);
    }
}

static inline void htp_quant_all(const htp_view &o, const float *y)
{
    if (o.elem == HTP_U8) {
        htp_quant_all_t<HTP_U8>(o, y);
    } else if (o.elem == HTP_U16) {
        htp_quant_all_t<HTP_U16>(o, y);
    } else {
        htp_copy_f32(static_cast<float *>(o.out), y, o.shape.count);
    }
}

// A custom op: every input dequantized into one float buffer (each in its own shape,
// logical row-major), the user's math called through the generated <Op>_call (the same
// adapter the LPAI kernel calls), every output requantized. The buffer is the sum of
// all element counts x 4 bytes, from the heap: HTP gives an op package no scratch of
// its own to ask for. malloc, not std::vector: the package needs nothing of the C++
// library at run time (no exceptions, no libc++ to load beside it).
static inline htp_rc htp_custom_run(const htp_view *o, uint32_t nout, const htp_view *v, uint32_t nin,
                                    const lpai_shape_rule *rules, const float *params, const uint32_t *params_u32,
                                    lpai_custom_fn call_math, const char *op_type, const char *missing)
{
    lpai_shape want[LPAI_MAX_OUTPUTS];
    htp_shapes shapes;
    htp_gather_shapes(v, nin, &shapes);
    if (!lpai_broadcasts_to_first(nin, shapes.ranks, shapes.dims)) {
        HTP_REPORT("htp: %s: a later input does not broadcast to the first\n", op_type);
        return HTP_BAD_DIMS;
    }
    uint64_t floats = 0u;
    for (uint32_t k = 0; k < nin; ++k) {
        floats += v[k].shape.count;
    }
    for (uint32_t k = 0; k < nout; ++k) {
        if (!htp_rule_shape(&rules[k], nin, shapes, &want[k]) ||
            !htp_same_shape(want[k].rank, want[k].dims, o[k].shape)) {
            HTP_REPORT("htp: %s: output %u does not have its rule's shape\n", op_type, (unsigned)k);
            return HTP_BAD_DIMS;
        }
        floats += want[k].count;
    }
    if (floats > SIZE_MAX / sizeof(float)) {
        return HTP_NO_SPACE;
    }
    float *buffer = static_cast<float *>(std::malloc(floats == 0u ? 1u : static_cast<size_t>(floats) * sizeof(float)));
    if (buffer == nullptr) {
        return HTP_NO_SPACE;
    }
    htp_rc st = HTP_OK;
    lpai_custom_call call;
    std::memset(&call, 0, sizeof call);
    float *at = buffer;
    for (uint32_t k = 0; k < nin; ++k) {
        htp_dequant_all(v[k], at);
        call.in[k] = at;
        call.in_shape[k] = v[k].shape;
        at += v[k].shape.count;
    }
    for (uint32_t k = 0; k < nout; ++k) {
        call.out[k] = at;
        call.out_shape[k] = want[k];
        at += want[k].count;
    }
    call.params = params;
    call.params_u32 = params_u32;
    const int rc = call_math(&call);
    if (rc == LPAI_USER_MATH_MISSING) {
        HTP_REPORT("%s\n", missing);
        st = HTP_UNSUPPORTED;
    } else if (rc != 0) {
        HTP_REPORT("htp: %s: the user math returned %d\n", op_type, rc);
        st = HTP_BAD_INPUT;
    } else {
        for (uint32_t k = 0; k < nout; ++k) {
            htp_quant_all(o[k], call.out[k]);
        }
    }
    std::free(buffer);
    return st;
}

#endif // HTP_ENGINE_H
