// The HTP kernels' benchmark driver (bench/htp.py builds one per rendered project).
//
// bench/htp.py writes, per elementwise op of the package, a unity file that #includes
// the op's source (op_package/htp/src/ops/<Op>.cpp) and defines, with the op's own
// generated math function (<Op>_math_v), the kernel (the package's engine,
// htp_elementwise_run, on views of the buffers) and the per-element HTP-style baseline:
// for each element, every input read through a per-element accessor (a virtual call
// that decodes the element, as the SDK's t(b, h, w, d)), the math, and the result
// quantized and stored element by element (a division per element), as ExecuTorch's
// HTP example op and Qualcomm's examples are written. This file runs both on the same
// tensors:
//
//   htp_bench check   one line per case: CHECK op=... dtype=... shape=... diff=<bytes that differ>
//   htp_bench count   each kernel and baseline call in a counted window: callgrind
//                     client requests on x86 (one dump per call, labelled), the
//                     bench_count_on/off windows of bench/qemu_count.c on Hexagon
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "htp_bench_ops.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAVE_CALLGRIND 1
#endif
#endif
#if !defined(BENCH_HAVE_CALLGRIND)
#define CALLGRIND_START_INSTRUMENTATION ((void)0)
#define CALLGRIND_ZERO_STATS ((void)0)
#define CALLGRIND_TOGGLE_COLLECT ((void)0)
#define CALLGRIND_DUMP_STATS_AT(label) ((void)(label))
#endif

extern "C" void __cxa_pure_virtual()
{
    std::abort();
}

extern "C" __attribute__((noinline)) void bench_count_on(void)
{
    __asm__ volatile("" ::: "memory");
}

extern "C" __attribute__((noinline)) void bench_count_off(void)
{
    __asm__ volatile("" ::: "memory");
}

namespace
{

// The shapes when the command line names none: 1 and 8 elements (a call is mostly its
// set-up), 64, 512 and a feature map of 25,088.
const uint32_t kShapes[][4] = {{1, 1, 1, 1}, {1, 1, 1, 8}, {1, 1, 1, 64}, {1, 8, 8, 8}, {1, 32, 28, 28}};
constexpr size_t kMaxShapes = 16;
const struct {
    const char *name;
    htp_elem elem;
    size_t bytes;
    int32_t qmax;
} kTypes[] = {{"uint8", HTP_U8, 1, 255}, {"uint16", HTP_U16, 2, 65535}, {"float32", HTP_F32, 4, 0}};

uint64_t g_state = 0x9E3779B97F4A7C15ull;
uint32_t next_random()
{
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return static_cast<uint32_t>(g_state >> 32);
}

// Deterministic inputs: codes over the whole range, or floats in [-2, 2).
void fill(BenchTensor &t)
{
    for (size_t i = 0; i < t.count_; ++i) {
        const uint32_t r = next_random();
        if (t.view_.elem == HTP_U8) {
            t.data_[i] = static_cast<unsigned char>(r);
        } else if (t.view_.elem == HTP_U16) {
            const uint16_t c = static_cast<uint16_t>(r);
            std::memcpy(t.data_ + 2 * i, &c, 2);
        } else {
            const float x = static_cast<float>(r % 4096u) / 1024.0f - 2.0f;
            std::memcpy(t.data_ + 4 * i, &x, 4);
        }
    }
}

// A tensor of `shape` and element type `type`, its view filled as the op's file fills
// one (htp_view_shape, htp_view_quant); scale 0: float32.
template <typename Type> bool setup(BenchTensor &t, const Type &type, const uint32_t *shape, float scale, int32_t zp)
{
    t.view_.elem = type.elem;
    t.view_.qmax = type.qmax;
    t.count_ = 1;
    size_t dims[4];
    for (int d = 0; d < 4; ++d) {
        t.dims_[d] = shape[d];
        dims[d] = shape[d];
        t.count_ *= shape[d];
    }
    t.bytes_ = t.count_ * type.bytes;
    t.data_ = static_cast<unsigned char *>(std::calloc(t.bytes_, 1));
    t.view_.in = t.data_;
    t.view_.out = t.data_;
    if (htp_view_shape(&t.view_, 4, dims) != HTP_OK) {
        return false;
    }
    return type.qmax == 0 || htp_view_quant(&t.view_, scale, zp) == HTP_OK;
}

} // namespace

int main(int argc, char **argv)
{
    const bool count = argc > 1 && std::strcmp(argv[1], "count") == 0;
    // Shapes: B,H,W,D arguments after the mode, else kShapes.
    uint32_t shapes[kMaxShapes][4];
    size_t nshapes = 0;
    for (int a = 2; a < argc && nshapes < kMaxShapes; ++a) {
        unsigned d[4];
        if (std::sscanf(argv[a], "%u,%u,%u,%u", &d[0], &d[1], &d[2], &d[3]) != 4) {
            std::fprintf(stderr, "htp_bench: shape '%s': want B,H,W,D\n", argv[a]);
            return 2;
        }
        for (int k = 0; k < 4; ++k) {
            shapes[nshapes][k] = d[k];
        }
        ++nshapes;
    }
    if (nshapes == 0) {
        for (const auto &shape : kShapes) {
            std::memcpy(shapes[nshapes++], shape, sizeof shape);
        }
    }
    int failed = 0;
    if (count) {
        // The empty window first: the cost of the two marker calls (subtracted).
        bench_count_on();
        bench_count_off();
        std::printf("WINDOW calib\n");
    }
    for (size_t o = 0; o < kBenchOpCount; ++o) {
        const BenchOp &op = *kBenchOps[o];
        for (const auto &type : kTypes) {
            for (size_t si = 0; si < nshapes; ++si) {
                const uint32_t *shape = shapes[si];
                const bool q = type.qmax != 0;
                const float qmax = static_cast<float>(type.qmax);
                const int32_t zp = type.elem == HTP_U8 ? 128 : type.elem == HTP_U16 ? 32768 : 0;
                BenchTensor in[4], out_kernel, out_base;
                bool ok = true;
                for (uint32_t k = 0; k < op.n_inputs; ++k) {
                    ok &= setup(in[k], type, shape, q ? 4.0f / qmax : 0.0f, zp);
                    fill(in[k]);
                }
                ok &= setup(out_kernel, type, shape, q ? 8.0f / qmax : 0.0f, zp);
                ok &= setup(out_base, type, shape, q ? 8.0f / qmax : 0.0f, zp);
                htp_view views[4];
                const BenchReader *readers[4];
                for (uint32_t k = 0; k < op.n_inputs; ++k) {
                    views[k] = in[k].view_;
                    readers[k] = &in[k];
                }
                float pv[8];
                std::memcpy(pv, op.params, sizeof pv);
                char tag[200];
                std::snprintf(tag, sizeof tag, "op=%s inputs=%u dtype=%s shape=%ux%ux%ux%u elems=%zu", op.name,
                              op.n_inputs, type.name, shape[0], shape[1], shape[2], shape[3], out_kernel.count_);
                if (!ok) {
                    std::printf("CHECK %s setup failed\n", tag);
                    failed = 1;
                } else if (!count) {
                    const htp_rc a = op.kernel(out_kernel.view_, views, op.n_inputs, pv);
                    const htp_rc b = op.baseline(out_base, readers, op.n_inputs, pv);
                    size_t diff = 0;
                    for (size_t i = 0; i < out_kernel.bytes_; ++i) {
                        diff += out_kernel.data_[i] != out_base.data_[i];
                    }
                    std::printf("CHECK %s rc=%d,%d diff=%zu\n", tag, static_cast<int>(a), static_cast<int>(b), diff);
                    failed |= diff != 0 || a != HTP_OK || b != HTP_OK;
                } else {
                    char label[260];
                    std::snprintf(label, sizeof label, "kernel %s", tag);
                    CALLGRIND_START_INSTRUMENTATION;
                    CALLGRIND_ZERO_STATS;
                    bench_count_on();
                    CALLGRIND_TOGGLE_COLLECT;
                    htp_rc st = op.kernel(out_kernel.view_, views, op.n_inputs, pv);
                    CALLGRIND_TOGGLE_COLLECT;
                    bench_count_off();
                    std::printf("WINDOW kernel %s\n", tag);
                    CALLGRIND_DUMP_STATS_AT(label);
                    failed |= st != HTP_OK;
                    std::snprintf(label, sizeof label, "baseline %s", tag);
                    CALLGRIND_ZERO_STATS;
                    bench_count_on();
                    CALLGRIND_TOGGLE_COLLECT;
                    st = op.baseline(out_base, readers, op.n_inputs, pv);
                    CALLGRIND_TOGGLE_COLLECT;
                    bench_count_off();
                    std::printf("WINDOW baseline %s\n", tag);
                    CALLGRIND_DUMP_STATS_AT(label);
                    failed |= st != HTP_OK;
                }
                std::free(out_kernel.data_);
                std::free(out_base.data_);
                for (uint32_t k = 0; k < op.n_inputs; ++k) {
                    std::free(in[k].data_);
                }
            }
        }
    }
    return failed;
}
