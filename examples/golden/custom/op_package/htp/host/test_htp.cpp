// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP test driver: runs this package's op implementations (src/ops/*.cpp, built with
// the stand-in of standin/) on the cases of a file and writes what they produced. The
// cases and the expected values come from tests/test_htp_kernels.py (torch eager); the
// same driver runs on the host (make host-test, under ASan and UBSan) and as Hexagon
// code under qemu-hexagon (make hexagon-test), and the two must write the same bytes.
//
//   test_htp --list              each op: "op <Name> <outputs> <inputs and params>",
//                                each param order: "params <Name> <param> ..."
//   test_htp CASES RESULTS       run every case of CASES, write RESULTS
//
// CASES (little-endian): "HTPC", u32 cases; per case: u32 length + the op's name,
// u32 outputs, u32 inputs, u32 params; per output: u32 dtype, u32 rank, u32 dims[rank],
// f32 scale, i32 zero point; per input the same, then u64 bytes + the data; per param an
// f32. RESULTS: "HTPR", u32 cases; per case: i32 status, per output u64 bytes + the data.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "htp_host_tensor.h"

// Nothing here needs the C++ library at run time (the same objects link for Hexagon
// with zig's C linker, no libc++ built for it): no new, no exceptions, no std::string.
extern "C" void __cxa_pure_virtual()
{
    std::abort();
}

namespace
{

constexpr size_t kMaxTensors = 32;

size_t element_bytes(DType t)
{
    return t == DType::QUInt8 ? 1 : t == DType::QUInt16 ? 2 : 4;
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
bool read_tensor(Reader &r, HostTensor &t, bool with_data)
{
    t.intfc_.dtype = static_cast<DType>(r.u32());
    t.rank_ = r.u32();
    if (!r.ok || t.rank_ > kHostMaxRank) {
        return false;
    }
    t.count_ = 1;
    for (size_t d = 0; d < t.rank_; ++d) {
        t.dims_[d] = r.u32();
        t.count_ *= t.dims_[d];
    }
    t.intfc_.scale = r.f32();
    t.intfc_.offset = static_cast<int>(r.u32());
    t.bytes_ = t.count_ * element_bytes(t.intfc_.dtype);
    if (with_data && r.u64() != t.bytes_) {
        return false;
    }
    t.data_ = static_cast<unsigned char *>(std::malloc(t.bytes_ == 0 ? 1 : t.bytes_));
    if (t.data_ == nullptr) {
        return false;
    }
    std::memset(t.data_, 0xA5, t.bytes_);
    if (with_data) {
        r.bytes(t.data_, t.bytes_);
    }
    return r.ok;
}

const htp_standin::OpEntry *find_op(const char *name)
{
    size_t n = 0;
    const htp_standin::OpEntry *ops = htp_standin::ops_table(&n);
    for (size_t i = 0; i < n; ++i) {
        if (std::strcmp(name, ops[i].name) == 0) {
            return &ops[i];
        }
    }
    return nullptr;
}

int list()
{
    size_t n = 0;
    const htp_standin::OpEntry *ops = htp_standin::ops_table(&n);
    for (size_t i = 0; i < n; ++i) {
        std::printf("op %s %zu %zu\n", ops[i].name, ops[i].n_outputs, ops[i].n_inputs);
    }
    const htp_standin::ParamOrder *orders = htp_standin::param_orders(&n);
    for (size_t i = 0; i < n; ++i) {
        std::printf("params %s", orders[i].op);
        for (size_t k = 0; k < orders[i].n; ++k) {
            std::printf(" %s", orders[i].names[k]);
        }
        std::printf("\n");
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
    HostTensor tensors[kMaxTensors];
    Tensor *outs[kMaxTensors];
    const Tensor *ins[kMaxTensors];
    bool ok = true;
    for (uint32_t k = 0; k < n_out + n_in && ok; ++k) {
        ok = read_tensor(r, tensors[k], k >= n_out);
    }
    for (uint32_t k = 0; k < n_params && ok; ++k) {
        HostTensor &p = tensors[n_out + n_in + k];
        const float value = r.f32();
        p.intfc_ = {DType::Float32, 1.0f, 0};
        p.bytes_ = 4;
        p.data_ = static_cast<unsigned char *>(std::malloc(4));
        ok = r.ok && p.data_ != nullptr;
        if (ok) {
            std::memcpy(p.data_, &value, 4);
        }
    }
    for (uint32_t k = 0; k < n_out; ++k) {
        outs[k] = &tensors[k];
    }
    for (uint32_t k = 0; k < n_in + n_params; ++k) {
        ins[k] = &tensors[n_out + k];
    }
    const htp_standin::OpEntry *op = find_op(name);
    int rc = 0;
    if (!ok || op == nullptr || op->n_outputs != n_out || op->n_inputs != n_in + n_params) {
        std::fprintf(stderr, "test_htp: case %u (%s): %s\n", c, name,
                     !ok             ? "truncated"
                     : op == nullptr ? "no such op"
                                     : "wrong count of tensors");
        rc = 2;
    } else {
        const GraphStatus status = op->run(outs, ins);
        put_u32(out, static_cast<uint32_t>(status.to_int()));
        for (uint32_t k = 0; k < n_out; ++k) {
            put_u32(out, static_cast<uint32_t>(tensors[k].bytes_));
            put_u32(out, 0u);
            std::fwrite(tensors[k].data_, 1, tensors[k].bytes_, out);
        }
    }
    for (uint32_t k = 0; k < n_out + n_in + n_params; ++k) {
        std::free(tensors[k].data_);
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
    return rc;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
        return list();
    }
    if (argc == 3) {
        return run(argv[1], argv[2]);
    }
    std::fprintf(stderr, "usage: test_htp --list | test_htp CASES RESULTS\n");
    return 2;
}
