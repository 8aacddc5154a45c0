/* This file is yours: the template created it once and never touches it again. */
/*
 * The kernel math of shape_ops::rms_norm (examples/shapes.yaml), rowwise: each call
 * gets one row (the last dim) of x and of y, on the kernel's stack. Written over rows,
 * so it computes the same with rowwise: false (every row in one call).
 */
#include <math.h>

/* The arguments this math is written for (include/ops/RmsNorm_user.h checks them). */
#define RmsNorm_MATH_WRITTEN_FOR RmsNorm_ARGS_IN_x_OUT_y_FLOAT_eps
#include "ops/RmsNorm_user.h"

int RmsNorm_compute(const RmsNorm_args *args)
{
    const uint64_t n = args->x_shape.dims[args->x_shape.rank - 1];
    for (uint64_t r = 0; r < args->x_shape.count / n; ++r) {
        const float *x = args->x + r * n;
        float sq = 0.0f;
        for (uint64_t i = 0; i < n; ++i) {
            sq += x[i] * x[i];
        }
        const float inv = 1.0f / sqrtf(sq / (float)n + args->eps);
        for (uint64_t i = 0; i < n; ++i) {
            args->y[r * n + i] = x[i] * inv;
        }
    }
    return 0;
}
