// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP test driver: registers this package's ops as the HTP runtime does (qhpi_init,
// src/qhpi_init.cpp, with the stand-in of standin/), runs on the cases of a file the
// kernel whose signatures match the case's tensors (as the runtime picks one), and writes
// what it produced. The
// cases and the expected values come from tests/test_htp_kernels.py (torch eager); the
// same driver runs on the host (make host-test, under ASan and UBSan) and as Hexagon
// code under qemu-hexagon (make hexagon-test), and the two must write the same bytes.
//
//   test_htp --list              the package's name ("package <Name>"), each op:
//                                "op <Name> <outputs> <inputs and params> <kernels>",
//                                each kernel: "kernel <Name> <in> ... -> <out> ...", a
//                                tensor as <element type>/<layout>/<storage>/<placement>
//   test_htp CASES RESULTS       run every case of CASES, write RESULTS; print
//                                "x86 sse4.1 <1 if this CPU has it and the build can use
//                                it, else 0> copies <calls that ran an op's SSE4.1 copy>"
//
// CASES (little-endian): "HTPC", u32 cases; per case: u32 length + the op's name,
// u32 outputs, u32 inputs, u32 params; per output: u32 dtype, u32 rank, u32 dims[rank],
// f32 scale, i32 zero point; per input the same, then u64 bytes + the data; per param a
// u32 element type (Float32 or Int32, as the runtime sends it) and its 4 bytes. RESULTS:
// "HTPR", u32 cases; per case: i32 status (the kernel's, or kNoKernel when no kernel's
// signatures match), per output u64 bytes + the data.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "htp_engine.h" // htp_host_sse41_calls, lpai_x86_has_sse41
#include "htp_host_tensor.h"

// Nothing here needs the C++ library at run time (the same objects link for Hexagon
// with zig's C linker, no libc++ built for it): no new, no exceptions, no std::string.

extern "C" const char *qhpi_init();

namespace
{

constexpr size_t kMaxTensors = 32;
// The status of a case no kernel takes: the runtime would not have picked any.
constexpr uint32_t kNoKernel = 255;
const char *g_package = nullptr;

size_t element_bytes(QHPI_Element_Type t)
{
    return t == QHPI_QUInt8 ? 1 : t == QHPI_QUInt16 ? 2 : 4;
}

struct Reader {
    FILE *f;
    bool ok;
    uint32_t u32()
    {
        unsigned char b[4] = {0, 0, 0, 0};
        ok = ok && std::fread(b, 1, 4, f) == 4;
        return static_cast<uint32_t>(b[0] | b[1] << 8 | b[2] << 16) | static_cast<uint32_t>(b[3]) << 24;
    }
    uint64_t u64()
    {
        const uint64_t lo = u32();
        return lo | static_cast<uint64_t>(u32()) << 32;
    }
    float f32()
    {
        const uint32_t u = u32();
        float x;
        std::memcpy(&x, &u, 4);
        return x;
    }
    void bytes(void *p, size_t n)
    {
        ok = ok && (n == 0 || std::fread(p, 1, n, f) == n);
    }
};

void put_u32(FILE *f, uint32_t v)
{
    const unsigned char b[4] = {static_cast<unsigned char>(v), static_cast<unsigned char>(v >> 8),
                                static_cast<unsigned char>(v >> 16), static_cast<unsigned char>(v >> 24)};
    std::fwrite(b, 1, 4, f);
}

// Reads a tensor's header (and, for an input, its data) into t; an output is filled with
// a canary byte, so an element the op did not write shows.
bool read_tensor(Reader &r, QHPI_Tensor &t, bool with_data)
{
    t.type = r.u32();
    t.shape.rank = r.u32();
    if (!r.ok || t.shape.rank > QHPI_MAX_RANK) {
        return false;
    }
    t.count = 1;
    for (uint32_t d = 0; d < t.shape.rank; ++d) {
        t.shape.dims[d] = r.u32();
        t.count *= t.shape.dims[d];
    }
    t.quant.stepsize = r.f32();
    t.quant.zero_offset = static_cast<int32_t>(r.u32());
    t.bytes = t.count * element_bytes(t.type);
    if (with_data && r.u64() != t.bytes) {
        return false;
    }
    t.data = static_cast<unsigned char *>(std::malloc(t.bytes == 0 ? 1 : t.bytes));
    if (t.data == nullptr) {
        return false;
    }
    std::memset(t.data, 0xA5, t.bytes);
    if (with_data) {
        r.bytes(t.data, t.bytes);
    }
    return r.ok;
}

// The op registered as "<package>::<name>", or null.
const QHPI_OpInfo_v1 *find_op(const char *name)
{
    size_t n = 0;
    const htp_standin::Registered *ops = htp_standin::registered(&n);
    const size_t plen = std::strlen(g_package);
    for (size_t i = 0; i < n; ++i) {
        const char *full = ops[i].op->name;
        if (std::strcmp(ops[i].package, g_package) == 0 && std::strncmp(full, g_package, plen) == 0 &&
            std::strncmp(full + plen, "::", 2) == 0 && std::strcmp(full + plen + 2, name) == 0) {
            return ops[i].op;
        }
    }
    return nullptr;
}

// Whether a tensor is what a signature asks: its element type, and (the only tensors the
// driver makes) flat and direct.
bool matches(const QHPI_Tensor_Signature_v1 &s, const QHPI_Tensor &t)
{
    return s.element_type == t.type && s.layout == QHPI_Layout_Flat4 && s.storage == QHPI_Storage_Direct;
}

// The kernel of `op` whose signatures the case's tensors match, or null.
const QHPI_Kernel_v1 *pick_kernel(const QHPI_OpInfo_v1 *op, const QHPI_Tensor *tensors, uint32_t n_out, uint32_t n_in)
{
    for (uint32_t k = 0; k < op->num_kernels; ++k) {
        const QHPI_Kernel_v1 &kernel = op->kernels[k];
        bool ok = kernel.min_outputs == n_out && kernel.min_inputs == n_in && kernel.function != nullptr;
        for (uint32_t i = 0; ok && i < n_out; ++i) {
            ok = matches(kernel.output_signature[i], tensors[i]);
        }
        for (uint32_t i = 0; ok && i < n_in; ++i) {
            ok = matches(kernel.input_signature[i], tensors[n_out + i]);
        }
        if (ok) {
            return &kernel;
        }
    }
    return nullptr;
}

void print_signature(const QHPI_Tensor_Signature_v1 &s)
{
    std::printf(" %u/%u/%u/%u", static_cast<unsigned>(s.element_type), static_cast<unsigned>(s.layout),
                static_cast<unsigned>(s.storage), static_cast<unsigned>(s.mem_placement));
}

int list()
{
    std::printf("package %s\n", g_package);
    size_t n = 0;
    const htp_standin::Registered *ops = htp_standin::registered(&n);
    for (size_t i = 0; i < n; ++i) {
        const QHPI_OpInfo_v1 &op = *ops[i].op;
        const QHPI_Kernel_v1 *k0 = op.num_kernels ? &op.kernels[0] : nullptr;
        std::printf("op %s %u %u %u\n", op.name, k0 ? static_cast<unsigned>(k0->min_outputs) : 0u,
                    k0 ? static_cast<unsigned>(k0->min_inputs) : 0u, static_cast<unsigned>(op.num_kernels));
        for (uint32_t k = 0; k < op.num_kernels; ++k) {
            const QHPI_Kernel_v1 &kernel = op.kernels[k];
            std::printf("kernel %s", op.name);
            for (uint32_t j = 0; j < kernel.min_inputs; ++j) {
                print_signature(kernel.input_signature[j]);
            }
            std::printf(" ->");
            for (uint32_t j = 0; j < kernel.min_outputs; ++j) {
                print_signature(kernel.output_signature[j]);
            }
            std::printf(" cost=%s multithreaded=%u\n", kernel.cost_function != nullptr ? "yes" : "no",
                        static_cast<unsigned>(kernel.multithreaded));
        }
    }
    return 0;
}

// One case: read, run, write. 0, or 2 when the file is broken.
int run_case(Reader &r, FILE *out, uint32_t c)
{
    char name[256] = {0};
    const uint32_t len = r.u32();
    if (len >= sizeof name) {
        return 2;
    }
    r.bytes(name, len);
    const uint32_t n_out = r.u32(), n_in = r.u32(), n_params = r.u32();
    if (!r.ok || n_out + n_in + n_params > kMaxTensors) {
        std::fprintf(stderr, "test_htp: case %u: truncated or too many tensors\n", c);
        return 2;
    }
    QHPI_Tensor tensors[kMaxTensors];
    std::memset(tensors, 0, sizeof tensors);
    QHPI_Tensor *outs[kMaxTensors];
    const QHPI_Tensor *ins[kMaxTensors];
    bool ok = true;
    for (uint32_t k = 0; k < n_out + n_in && ok; ++k) {
        ok = read_tensor(r, tensors[k], k >= n_out);
    }
    // A param: a one-element tensor of rank 0 in the type the runtime sends it.
    for (uint32_t k = 0; k < n_params && ok; ++k) {
        QHPI_Tensor &p = tensors[n_out + n_in + k];
        p.type = r.u32();
        p.count = 1;
        p.bytes = 4;
        p.data = static_cast<unsigned char *>(std::malloc(4));
        ok = r.ok && p.data != nullptr;
        if (ok) {
            r.bytes(p.data, 4);
            ok = r.ok;
        }
    }
    for (uint32_t k = 0; k < n_out; ++k) {
        outs[k] = &tensors[k];
    }
    for (uint32_t k = 0; k < n_in + n_params; ++k) {
        ins[k] = &tensors[n_out + k];
    }
    const QHPI_OpInfo_v1 *op = ok ? find_op(name) : nullptr;
    int rc = 0;
    if (!ok || op == nullptr) {
        std::fprintf(stderr, "test_htp: case %u (%s): %s\n", c, name, !ok ? "truncated" : "no such op");
        rc = 2;
    } else {
        const QHPI_Kernel_v1 *kernel = pick_kernel(op, tensors, n_out, n_in + n_params);
        uint32_t status = kNoKernel;
        if (kernel != nullptr) {
            status = kernel->function(nullptr, n_out, outs, n_in + n_params, ins);
        } else {
            std::fprintf(stderr, "test_htp: case %u (%s): no kernel takes these tensors\n", c, name);
        }
        put_u32(out, status);
        for (uint32_t k = 0; k < n_out; ++k) {
            put_u32(out, static_cast<uint32_t>(tensors[k].bytes));
            put_u32(out, 0u);
            std::fwrite(tensors[k].data, 1, tensors[k].bytes, out);
        }
    }
    for (uint32_t k = 0; k < n_out + n_in + n_params; ++k) {
        std::free(tensors[k].data);
    }
    return rc;
}

int run(const char *cases_path, const char *results_path)
{
    FILE *in = std::fopen(cases_path, "rb");
    if (in == nullptr) {
        std::fprintf(stderr, "test_htp: cannot read %s\n", cases_path);
        return 2;
    }
    Reader r{in, true};
    const uint32_t magic = r.u32();
    const uint32_t n_cases = r.u32();
    if (!r.ok || magic != 0x43505448u) {
        std::fprintf(stderr, "test_htp: %s is not a cases file\n", cases_path);
        std::fclose(in);
        return 2;
    }
    FILE *out = std::fopen(results_path, "wb");
    if (out == nullptr) {
        std::fprintf(stderr, "test_htp: cannot write %s\n", results_path);
        std::fclose(in);
        return 2;
    }
    put_u32(out, 0x52505448u);
    put_u32(out, n_cases);
    int rc = 0;
    for (uint32_t c = 0; c < n_cases && rc == 0; ++c) {
        rc = run_case(r, out, c);
    }
    std::fclose(in);
    if (std::fclose(out) != 0) {
        rc = 2;
    }
#if LPAI_X86_DISPATCH
    const int sse41 = lpai_x86_has_sse41();
#else
    const int sse41 = 0;
#endif
    std::printf("x86 sse4.1 %d copies %llu\n", sse41, static_cast<unsigned long long>(htp_host_sse41_calls));
    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    g_package = qhpi_init();
    if (g_package == nullptr) {
        std::fprintf(stderr, "test_htp: qhpi_init returned no package name\n");
        return 2;
    }
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        return list();
    }
    if (argc == 3) {
        return run(argv[1], argv[2]);
    }
    std::fprintf(stderr, "usage: test_htp --list | test_htp CASES RESULTS\n");
    return 2;
}
