/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Compile-time (host) validation shared by the ops' *_compiler.cpp files. Every
 * refusal says on stderr which check failed: otherwise the user only sees the
 * partitioner fall back to the CPU with a generic "not supported".
 */
#ifndef LPAI_VALIDATE_H
#define LPAI_VALIDATE_H

#include <stdio.h>
#include <string.h>

#include "lpai_sdk.h"
#include "lpai_shapes.h"

/* C7: the op is validated twice, before and after the quantize/dequantize nodes are
 * folded, so one tensor shows up once as QNN_DATATYPE_UINT_8 and once as
 * QNN_DATATYPE_UFIXED_POINT_8. Only the width is compared; the low byte of
 * Qnn_DataType_t holds it in BCD (0x08 -> 8, 0x16 -> 16, 0x32 -> 32). */
static inline uint32_t lpai_qnn_width_bits(Qnn_DataType_t type)
{
    const uint32_t low = (uint32_t)type & 0xFFu;
    return (low >> 4) * 10u + (low & 0xFu);
}

/* The shape rule of an output, in words, for the diagnostics. */
static inline void lpai_rule_text(const lpai_shape_rule *rule, char *buf, size_t size)
{
    switch (rule->kind) {
    case LPAI_SHAPE_BROADCAST:
        snprintf(buf, size, "the broadcast of the inputs");
        break;
    case LPAI_SHAPE_LIKE:
        snprintf(buf, size, "the shape of input %u", (unsigned)rule->source);
        break;
    default:
        snprintf(buf, size, "input %u reduced over %u dimension(s)%s", (unsigned)rule->source, (unsigned)rule->ndims,
                 rule->keepdim ? ", keepdim" : "");
        break;
    }
}

/* Elementwise and custom ops alike: 8-bit activations, rank <= max, and every output
 * in the shape its rule gives from the inputs (lpai_shapes.h, the kernel's own check). */
static inline Qnn_ErrorHandle_t lpai_validate_activations(const char *op, const Qnn_OpConfig_t *cfg,
                                                          const lpai_shape_rule *rules, uint32_t nout)
{
    const uint32_t nin = cfg->v1.numOfInputs;
    if (nin == 0u || nin > LPAI_MAX_INPUTS || cfg->v1.numOfOutputs != nout || nout > LPAI_MAX_OUTPUTS) {
        LPAI_DIAG("%s: %u inputs and %u outputs; the op has 1 to %u inputs and %u outputs\n", op, nin,
                  cfg->v1.numOfOutputs, (unsigned)LPAI_MAX_INPUTS, nout);
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    uint32_t ranks[LPAI_MAX_INPUTS];
    uint32_t dims[LPAI_MAX_INPUTS][LPAI_MAX_RANK];
    for (uint32_t k = 0; k < nin + nout; ++k) {
        const int is_out = (k >= nin);
        const uint32_t idx = is_out ? k - nin : k;
        const Qnn_Tensor_t *t = is_out ? &cfg->v1.outputTensors[idx] : &cfg->v1.inputTensors[k];
        const char *role = is_out ? "output" : "input";
        const uint32_t bits = lpai_qnn_width_bits(t->v1.dataType);
        /* C8: a 16-bit activation arrives as INT_32 and only half of its output
         * comes back correct on the device: refuse it here, where the user sees why. */
        if (bits != LPAI_SUPPORTED_BITS) {
            LPAI_DIAG("%s: %s %u has a %u-bit data type (0x%x); LPAI custom ops support 8-bit "
                      "activations only (16-bit returns half a tensor on the backend)\n",
                      op, role, idx, bits, (unsigned)t->v1.dataType);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
        if (t->v1.rank > LPAI_MAX_RANK) {
            LPAI_DIAG("%s: %s %u has rank %u, the maximum is %u\n", op, role, idx, t->v1.rank, (unsigned)LPAI_MAX_RANK);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
        if (!is_out) {
            ranks[k] = t->v1.rank;
            memset(dims[k], 0, sizeof dims[k]);
            for (uint32_t d = 0; d < t->v1.rank; ++d) {
                dims[k][d] = t->v1.dimensions[d];
            }
        }
    }
    for (uint32_t j = 0; j < nout; ++j) {
        const Qnn_Tensor_t *t = &cfg->v1.outputTensors[j];
        uint32_t want_rank = 0u;
        uint32_t want[LPAI_MAX_RANK] = {0u};
        char rule[96];
        lpai_rule_text(&rules[j], rule, sizeof rule);
        if (!lpai_rule_dims(&rules[j], nin, ranks, (const uint32_t (*)[LPAI_MAX_RANK])dims, &want_rank, want)) {
            LPAI_DIAG("%s: the input shapes admit no output %u (%s): they do not broadcast (a custom op's "
                      "later inputs to the first), or a reduced dimension is outside the input's rank\n",
                      op, j, rule);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
        int same = want_rank == t->v1.rank;
        for (uint32_t d = 0; same && d < want_rank; ++d) {
            same = want[d] == t->v1.dimensions[d];
        }
        if (!same) {
            LPAI_DIAG("%s: output %u has rank %u and differs from %s (rank %u) in its dimensions; "
                      "input and output shapes differ from the op's shape rule\n",
                      op, j, t->v1.rank, rule, want_rank);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
    }
    return QNN_SUCCESS;
}

/* The kernel asks for each parameter by its OpDef name (getParamTensor(node, name)),
 * so the node has to carry every name, here checked in the OpDef order ExecuTorch
 * sends, each as the scalar type ExecuTorch sends: FLOAT_32 for a float, UINT_32 for
 * an int and for a bool (lpai_glue.h). A mismatch here is a node the kernel would
 * misread or refuse. */
static inline Qnn_ErrorHandle_t lpai_validate_params(const char *op, const Qnn_OpConfig_t *cfg,
                                                     const char *const *names, const Qnn_DataType_t *types, uint32_t n)
{
    if (cfg->v1.numOfParams != n) {
        LPAI_DIAG("%s: expected %u parameters, got %u\n", op, n, cfg->v1.numOfParams);
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    for (uint32_t i = 0; i < n; ++i) {
        const char *got = cfg->v1.params[i].name;
        if (!got || strcmp(got, names[i]) != 0) {
            LPAI_DIAG("%s: parameter %u is \"%s\", expected \"%s\" (OpDef order)\n", op, i, got ? got : "(null)",
                      names[i]);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
        const Qnn_Param_t *p = &cfg->v1.params[i];
        if (p->paramType != QNN_PARAMTYPE_SCALAR || p->scalarParam.dataType != types[i]) {
            LPAI_DIAG("%s: parameter \"%s\" is not a scalar of type 0x%x\n", op, names[i], (unsigned)types[i]);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
    }
    return QNN_SUCCESS;
}

/* Element count of the output as size_t, 0 if it does not fit. */
static inline size_t lpai_qnn_count(const Qnn_Tensor_t *t)
{
    size_t n = 1u;
    for (uint32_t d = 0; d < t->v1.rank; ++d) {
        const size_t dim = t->v1.dimensions[d];
        if (dim != 0u && n > (size_t)-1 / dim) {
            return 0u;
        }
        n *= dim;
    }
    return n;
}

/* ---- The compiler side of one op ---------------------------------------------------
 * The per-op files (src/ops/<Op>_compiler.cpp) wrap these in callbacks of the
 * signatures the runtime calls. */

/* validateOp. The package's validateOpConfig has checked the counts and the type lists. */
static inline Qnn_ErrorHandle_t lpai_validate_op(const char *op, const Qnn_OpConfig_t *cfg,
                                                 const lpai_shape_rule *rules, uint32_t nout,
                                                 const char *const *param_names, const Qnn_DataType_t *param_types,
                                                 uint32_t nparams)
{
    Qnn_ErrorHandle_t err = lpai_validate_activations(op, cfg, rules, nout);
    if (err != QNN_SUCCESS) {
        return err;
    }
    return lpai_validate_params(op, cfg, param_names, param_types, nparams);
}

/* getTempBufferSize of an elementwise op. The kernel keeps its tables on the stack and
 * never asks for the temp buffer. The size stays that of the input, as in the pull
 * request's example, because that is the value verified on device; whether 0 is
 * accepted is not public. */
static inline Qnn_ErrorHandle_t lpai_temp_bytes_elementwise(const Qnn_OpConfig_t *cfg, size_t *bytes)
{
    if (!bytes) {
        return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    *bytes = lpai_qnn_count(&cfg->v1.outputTensors[0]);
    return QNN_SUCCESS;
}

/* getTempBufferSize of a custom op on whole tensors: every input and every output as
 * float, the kernel's dequantized copies (lpai_execute_custom, lpai_drivers.h, uses the
 * same sum). A `rowwise: true` op asks for the elementwise size instead: its kernel
 * works from a buffer on its own stack and never calls getTempBuffer. */
static inline Qnn_ErrorHandle_t lpai_temp_bytes_custom(const char *op, const Qnn_OpConfig_t *cfg, size_t *bytes)
{
    if (!bytes) {
        return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    size_t floats = 0u;
    for (uint32_t k = 0; k < cfg->v1.numOfInputs + cfg->v1.numOfOutputs; ++k) {
        const Qnn_Tensor_t *t =
            k < cfg->v1.numOfInputs ? &cfg->v1.inputTensors[k] : &cfg->v1.outputTensors[k - cfg->v1.numOfInputs];
        const size_t n = lpai_qnn_count(t);
        int empty = 0;
        for (uint32_t d = 0; d < t->v1.rank; ++d) {
            empty = empty || t->v1.dimensions[d] == 0u;
        }
        if ((n == 0u && !empty) || n > (size_t)-1 / sizeof(float) - floats) {
            LPAI_DIAG("%s: temp buffer size overflows\n", op);
            return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
        }
        floats += n;
    }
    /* The runtime reports the buffer's size in 32 bits (QnnLpaiCustomOp_BufferInfo_t). */
    if (floats > (size_t)UINT32_MAX / sizeof(float)) {
        LPAI_DIAG("%s: temp buffer of %llu floats exceeds the runtime's 32-bit buffer size\n", op,
                  (unsigned long long)floats);
        return QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE;
    }
    *bytes = floats * sizeof(float);
    return QNN_SUCCESS;
}

/* Completes the registration record of the inference side (lpai_op_info_init) with
 * the compiler's callbacks and the accepted data types. */
static inline QnnOpPackage_OperationInfo_t lpai_compiler_info(QnnOpPackage_OperationInfo_t info,
                                                              Qnn_ErrorHandle_t (*validate)(Qnn_OpConfig_t),
                                                              Qnn_ErrorHandle_t (*temp_bytes)(Qnn_OpConfig_t, size_t *))
{
    /* C7: both spellings of an 8-bit activation, for each input and the output.
     * Statics of a static inline function: one set per op's file. */
    static Qnn_DataType_t types[] = {QNN_DATATYPE_UFIXED_POINT_8, QNN_DATATYPE_UINT_8};
    static QnnLpaiOpPackage_DataTypeInfo_t inputs[LPAI_MAX_INPUTS] = {
        {2u, types}, {2u, types}, {2u, types}, {2u, types}};
    static QnnLpaiOpPackage_DataTypeInfo_t outputs[LPAI_MAX_OUTPUTS] = {
        {2u, types}, {2u, types}, {2u, types}, {2u, types}};
    /* Both arrays are initialised entry by entry: a new limit needs new entries. */
    static_assert(LPAI_MAX_INPUTS == 4u && LPAI_MAX_OUTPUTS == 4u, "one entry per input and output");
    info->validateOp = validate;
    info->getTempBufferSize = temp_bytes;
    info->inputDatatypes = inputs;
    info->outputDatatypes = outputs;
    return info;
}

#endif /* LPAI_VALIDATE_H */
