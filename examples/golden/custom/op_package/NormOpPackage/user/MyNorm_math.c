/* This file is yours: the template created it once and never touches it again. */
/*
 * The kernel math of norm_ops::my_norm (MyNorm): Normalizes the input to zero mean and unit variance.
 *
 * Inputs arrive as float arrays in logical row-major order, each with its shape in
 * args-><name>_shape (rank, dims, count); write every output as real values; the
 * quantization, layouts and every LPAI convention are handled by the template around
 * this function (include/ops/MyNorm_user.h lists the members of args).
 * Match the eager math in norm_ops/user/my_norm.py: the host test
 * tests/test_op_package_kernels.py compares the two on every input code, at the
 * param defaults and at random values inside each param's declared range (a param
 * without `range: [low, high]` in the spec stays at its default: only the default is
 * known to work; tests/user/test_my_kernel.py shows how to test it yourself).
 *
 * How the common forms look (names from a spec; yours are in the header):
 *
 *   a reduction, mean over the last dim (outputs: [{name: mean, shape: {reduce: x,
 *   dims: [-1], keepdim: true}}]): rows of n = dims[rank - 1] values
 *
 *     const uint64_t n = args->x_shape.rank ? args->x_shape.dims[args->x_shape.rank - 1] : 1;
 *     for (uint64_t r = 0; r < args->mean_shape.count; ++r) {
 *         float s = 0.0f;
 *         for (uint64_t i = 0; i < n; ++i) s += args->x[r * n + i];
 *         args->mean[r] = s / (float)n;
 *     }
 *
 *   a row-wise op, softmax over the last dim (written over rows, so it works with
 *   rowwise: true, one row per call, and without it, every row in one call):
 *
 *     const uint64_t n = args->x_shape.dims[args->x_shape.rank - 1];
 *     for (uint64_t r = 0; r < args->x_shape.count / n; ++r) {
 *         const float *x = args->x + r * n;
 *         float *y = args->out + r * n, m = x[0], s = 0.0f;
 *         for (uint64_t i = 1; i < n; ++i) m = x[i] > m ? x[i] : m;
 *         for (uint64_t i = 0; i < n; ++i) s += (y[i] = expf(x[i] - m));
 *         for (uint64_t i = 0; i < n; ++i) y[i] /= s;
 *     }
 *
 *   two outputs (outputs: [{name: lo, shape: {like: x}}, {name: hi, shape: {like: x}}]):
 *
 *     for (uint64_t i = 0; i < args->x_shape.count; ++i) {
 *         args->lo[i] = fminf(args->x[i], 0.0f);
 *         args->hi[i] = fmaxf(args->x[i], 0.0f);
 *     }
 */
/* The arguments this math is written for: include/ops/MyNorm_user.h stops the
 * build here when an update of the spec changes them (an input, an output or a param
 * added, removed, renamed or retyped); then change the math, and this line as the
 * error says. Keep it one line (copier update reads it): clang-format would split a
 * long one. */
/* clang-format off */
#define MyNorm_MATH_WRITTEN_FOR MyNorm_ARGS_IN_x_OUT_out
/* clang-format on */
#include "ops/MyNorm_user.h"

int MyNorm_compute(const MyNorm_args *args)
{
    /* Not written yet: the kernel rejects every node, so the host kernel test of
     * my_norm fails until this returns real results. Replace the two lines below. */
    (void)args;
    return LPAI_USER_MATH_MISSING;
}
