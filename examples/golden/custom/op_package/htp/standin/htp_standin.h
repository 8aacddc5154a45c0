// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The HTP op-package API this package's sources use, declared by the template for the
// builds without the QNN SDK (make host-test, make hexagon-test): a stand-in, not
// Qualcomm's headers. Every name, type, enum value and signature below that the
// generated code calls is the SDK's (QNN SDK 2.43, include/QNN/HTP/core/); `make
// sdk-check` compiles host/htp_facts.cpp against this file and against the SDK's own
// headers, and the static_asserts there hold in both, so the two cannot drift apart
// unnoticed. What a stand-in cannot show: registration in the real runtime (the
// macros here fill a table the test driver reads), the optimisation rules, HMX, the
// layouts other than flat, timing.
#ifndef HTP_STANDIN_H
#define HTP_STANDIN_H

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

// core/dtype_enum.h: the element types of a tensor, by value.
enum class DType : uint32_t {
    UNKNOWN = 0,
    QUInt8 = 1,
    QUInt16 = 2,
    QInt16 = 3,
    Float32 = 4,
    Int32 = 5,
    QInt32 = 6,
    QInt8 = 7,
    Float16 = 8,
    Int64 = 9,
    BFloat16 = 10,
};

// core/interface.h: a tensor's type and quantization. `offset` is the zero point:
// real = (code - offset) * scale (the opposite sign of QNN's Qnn_ScaleOffset_t).
struct DTypeScaleOff {
    DType dtype;
    float scale;
    int offset;
};

// core/graph_status.h: a struct around a plain enum; converted to bool it is true on
// an error (`if (status)` means failure).
struct GraphStatus {
    enum GraphErrorCode {
        Success = 0,
        ErrorDimensions = 2,
        ErrorPrecision = 3,
        ErrorNoSpace = 6,
        ErrorUnsupported = 7,
        ErrorBadInput = 10,
        ErrorFatal = -1,
    };
    GraphErrorCode code;
    GraphStatus(GraphErrorCode c) : code(c)
    {
    } // NOLINT(google-explicit-constructor): as the SDK's
    int to_int() const
    {
        return static_cast<int>(code);
    }
    explicit operator bool() const
    {
        return code != Success;
    }
};

// core/tens/tensor_base.h: the abstract tensor every op receives. Only the members the
// generated code calls are declared; the test driver (host/test_htp.cpp) derives its
// tensors from this class.
class Tensor
{
  public:
    // The value of one element through the tensor's interface, as the SDK's accessor
    // `t(b, h, w, d)` converts it to float (quantized values decoded).
    class AccessorRO
    {
      public:
        AccessorRO(const Tensor &t, size_t b, size_t h, size_t w, size_t d) : t_(t), i_{b, h, w, d}
        {
        }
        operator float() const
        {
            return t_.standin_read(i_);
        } // NOLINT(google-explicit-constructor)
        float as_float() const
        {
            return t_.standin_read(i_);
        }

      private:
        const Tensor &t_;
        size_t i_[4];
    };

    virtual size_t rank() const noexcept = 0;
    virtual size_t dim(size_t index) const noexcept = 0;
    virtual DTypeScaleOff get_dtype_intfc() const noexcept = 0;
    virtual void *raw_data() noexcept = 0;
    DType get_dtype() const
    {
        return get_dtype_intfc().dtype;
    }
    float interface_scale() const
    {
        return get_dtype_intfc().scale;
    }
    int32_t interface_offset() const
    {
        return get_dtype_intfc().offset;
    }
    void const *raw_data_const() const noexcept
    {
        return const_cast<Tensor *>(this)->raw_data();
    }
    AccessorRO operator()(size_t b, size_t h, size_t w, size_t d) const
    {
        return AccessorRO(*this, b, h, w, d);
    }

  protected:
    // Not virtual, unlike the SDK's: a virtual destructor would tie the package's tests
    // to the C++ library's operator delete, and nothing here deletes a Tensor.
    ~Tensor() = default;
    // The stand-in's own: how the driver's tensors answer an accessor.
    virtual float standin_read(const size_t *index) const = 0;
};

// ---- Registration (core/op_register_ext.h, simple_reg.h, op_package_feature_support.h)
// The SDK's macros fill tables that libQnnHtp reads; these fill one the test driver
// reads: each op's implementation by name, called with its outputs first, then its
// inputs and params, as the SDK calls it (core/template_help.h: a non-const reference is
// an output, a const one an input), and each op's param order.
namespace htp_standin
{

using Runner = GraphStatus (*)(Tensor *const *outs, const Tensor *const *ins);

struct OpEntry {
    const char *name;
    Runner run;
    size_t n_outputs;
    size_t n_inputs; // tensors and params
};

struct ParamOrder {
    const char *op;
    const char *names[16];
    size_t n;
};

OpEntry *ops_table(size_t *count);
ParamOrder *param_orders(size_t *count);
bool add_op(const OpEntry &entry);
bool add_param_order(const ParamOrder &order);

template <typename T> constexpr bool is_output()
{
    return !std::is_const<typename std::remove_reference<T>::type>::value;
}

template <typename Sig> struct Call;

template <typename... A> struct Call<GraphStatus (*)(A...)> {
    static constexpr size_t n_outputs = (0 + ... + (is_output<A>() ? 1 : 0));
    static constexpr size_t n_args = sizeof...(A);

    template <typename T, size_t I> static T &arg(Tensor *const *outs, const Tensor *const *ins)
    {
        if constexpr (I < n_outputs) {
            return static_cast<T &>(*outs[I]);
        } else {
            return static_cast<T &>(*ins[I - n_outputs]);
        }
    }

    template <GraphStatus (*F)(A...), size_t... I>
    static GraphStatus call(Tensor *const *outs, const Tensor *const *ins, std::index_sequence<I...>)
    {
        return F(arg<typename std::remove_reference<A>::type, I>(outs, ins)...);
    }

    template <GraphStatus (*F)(A...)> static GraphStatus run(Tensor *const *outs, const Tensor *const *ins)
    {
        return call<F>(outs, ins, std::index_sequence_for<A...>{});
    }
};

template <auto F> OpEntry entry(const char *name)
{
    using C = Call<decltype(F)>;
    return OpEntry{name, &C::template run<F>, C::n_outputs, C::n_args - C::n_outputs};
}

// DEF_PACKAGE_PARAM_ORDER(op, name, mandatory, default, ...): every third argument a name.
inline void collect(ParamOrder &)
{
}
template <typename D, typename... Rest> void collect(ParamOrder &order, const char *name, bool, D, Rest... rest)
{
    if (order.n < 16) {
        order.names[order.n++] = name;
    }
    collect(order, rest...);
}
template <typename... Args> bool param_order(const char *op, Args... args)
{
    ParamOrder order{op, {}, 0};
    collect(order, args...);
    return add_param_order(order);
}

} // namespace htp_standin

#define HTP_STANDIN_CAT2(a, b) a##b
#define HTP_STANDIN_CAT(a, b) HTP_STANDIN_CAT2(a, b)
#define BEGIN_PKG_OP_DEFINITION(NAME) static_assert(true, "")
#define END_PKG_OP_DEFINITION(NAME) static_assert(true, "")
#define DEF_PACKAGE_OP(F, OP) \
    static const bool HTP_STANDIN_CAT(htp_standin_op_, __LINE__) = htp_standin::add_op(htp_standin::entry<&F>(OP));
#define DEF_PACKAGE_PARAM_ORDER(OP, ...) \
    static const bool HTP_STANDIN_CAT(htp_standin_params_, __LINE__) = htp_standin::param_order(OP, __VA_ARGS__);

#endif // HTP_STANDIN_H
