// The HTP kernels' benchmark driver (bench/htp.py builds one per rendered project).
//
// bench/htp.py writes, per elementwise op of the package, a unity file that #includes
// the op's source (op_package/htp/src/ops/<Op>.cpp) and defines, with the op's own
// generated math function, the per-element HTP-style baseline: for each element, every
// input read through the API's accessor t(b, h, w, d) (a virtual call that decodes the
// element), the math, and the result quantized and stored element by element (a
// division per element), as ExecuTorch's HTP example op and Qualcomm's examples are
// written. This file runs both on the same tensors:
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

const uint32_t kShapes[][4] = {{1, 1, 1, 64}, {1, 8, 8, 8}, {1, 32, 28, 28}};
const struct {
    const char *name;
    DType dtype;
    size_t bytes;
} kTypes[] = {{"uint8", DType::QUInt8, 1}, {"uint16", DType::QUInt16, 2}, {"float32", DType::Float32, 4}};

uint64_t g_state = 0x9E3779B97F4A7C15ull;
uint32_t next_random()
{
    g_state ^= g_state << 13;
    g_state ^= g_state >> 7;
    g_state ^= g_state << 17;
    return static_cast<uint32_t>(g_state >> 32);
}

// Deterministic inputs: codes over the whole range, or floats in [-2, 2).
void fill(BenchTensor &t, DType dtype)
{
    for (size_t i = 0; i < t.count_; ++i) {
        const uint32_t r = next_random();
        if (dtype == DType::QUInt8) {
            t.data_[i] = static_cast<unsigned char>(r);
        } else if (dtype == DType::QUInt16) {
            const uint16_t c = static_cast<uint16_t>(r);
            std::memcpy(t.data_ + 2 * i, &c, 2);
        } else {
            const float x = static_cast<float>(r % 4096u) / 1024.0f - 2.0f;
            std::memcpy(t.data_ + 4 * i, &x, 4);
        }
    }
}

void setup(BenchTensor &t, DType dtype, size_t bytes, const uint32_t *shape, float scale, int zp)
{
    t.intfc_ = {dtype, scale, zp};
    t.rank_ = 4;
    t.count_ = 1;
    for (int d = 0; d < 4; ++d) {
        t.dims_[d] = shape[d];
        t.count_ *= shape[d];
    }
    t.bytes_ = t.count_ * bytes;
    t.data_ = static_cast<unsigned char *>(std::calloc(t.bytes_, 1));
}

} // namespace

int main(int argc, char **argv)
{
    const bool count = argc > 1 && std::strcmp(argv[1], "count") == 0;
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
            for (const auto &shape : kShapes) {
                const bool q = type.dtype != DType::Float32;
                const float qmax = type.dtype == DType::QUInt8 ? 255.0f : 65535.0f;
                BenchTensor in[4], params[8], out_kernel, out_base;
                for (uint32_t k = 0; k < op.n_inputs; ++k) {
                    setup(in[k], type.dtype, type.bytes, shape, q ? 4.0f / qmax : 1.0f,
                          q ? (type.dtype == DType::QUInt8 ? 128 : 32768) : 0);
                    fill(in[k], type.dtype);
                }
                for (uint32_t p = 0; p < op.n_params; ++p) {
                    const uint32_t one[4] = {1, 1, 1, 1};
                    setup(params[p], DType::Float32, 4, one, 1.0f, 0);
                    std::memcpy(params[p].data_, &op.params[p], 4);
                }
                const float out_scale = q ? 8.0f / qmax : 1.0f;
                const int out_zp = q ? (type.dtype == DType::QUInt8 ? 128 : 32768) : 0;
                setup(out_kernel, type.dtype, type.bytes, shape, out_scale, out_zp);
                setup(out_base, type.dtype, type.bytes, shape, out_scale, out_zp);
                const Tensor *ins[12];
                for (uint32_t k = 0; k < op.n_inputs; ++k) {
                    ins[k] = &in[k];
                }
                for (uint32_t p = 0; p < op.n_params; ++p) {
                    ins[op.n_inputs + p] = &params[p];
                }
                float pv[8];
                std::memcpy(pv, op.params, sizeof pv);
                Tensor *outs[1] = {&out_kernel};
                char tag[200];
                std::snprintf(tag, sizeof tag, "op=%s inputs=%u dtype=%s shape=%ux%ux%ux%u elems=%zu", op.name,
                              op.n_inputs, type.name, shape[0], shape[1], shape[2], shape[3], out_kernel.count_);
                if (!count) {
                    const GraphStatus a = op.run(outs, ins);
                    const GraphStatus b = op.baseline(out_base, ins, op.n_inputs, pv);
                    size_t diff = 0;
                    for (size_t i = 0; i < out_kernel.bytes_; ++i) {
                        diff += out_kernel.data_[i] != out_base.data_[i];
                    }
                    std::printf("CHECK %s rc=%d,%d diff=%zu\n", tag, a.to_int(), b.to_int(), diff);
                    failed |= diff != 0 || a.to_int() != 0 || b.to_int() != 0;
                } else {
                    char label[260];
                    std::snprintf(label, sizeof label, "kernel %s", tag);
                    CALLGRIND_START_INSTRUMENTATION;
                    CALLGRIND_ZERO_STATS;
                    bench_count_on();
                    CALLGRIND_TOGGLE_COLLECT;
                    GraphStatus st = op.run(outs, ins);
                    CALLGRIND_TOGGLE_COLLECT;
                    bench_count_off();
                    std::printf("WINDOW kernel %s\n", tag);
                    CALLGRIND_DUMP_STATS_AT(label);
                    std::snprintf(label, sizeof label, "baseline %s", tag);
                    CALLGRIND_ZERO_STATS;
                    bench_count_on();
                    CALLGRIND_TOGGLE_COLLECT;
                    st = op.baseline(out_base, ins, op.n_inputs, pv);
                    CALLGRIND_TOGGLE_COLLECT;
                    bench_count_off();
                    std::printf("WINDOW baseline %s\n", tag);
                    CALLGRIND_DUMP_STATS_AT(label);
                    failed |= st.to_int() != 0;
                }
                for (auto *t : {&out_kernel, &out_base}) {
                    std::free(t->data_);
                }
                for (uint32_t k = 0; k < op.n_inputs; ++k) {
                    std::free(in[k].data_);
                }
                for (uint32_t p = 0; p < op.n_params; ++p) {
                    std::free(params[p].data_);
                }
            }
        }
    }
    return failed;
}
