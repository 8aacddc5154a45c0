/* This file is yours: the template created it once and never touches it again. */
/*
 * The kernel math of shape_ops::center (examples/shapes.yaml): two outputs, the mean of
 * each row (last dim) and the row minus its mean (`subtract`, a C bool), times `scale`.
 */
/* The arguments this math is written for (include/ops/Center_user.h checks them). */
#define Center_MATH_WRITTEN_FOR Center_ARGS_IN_x_OUT_mean_OUT_centered_FLOAT_scale_BOOL_subtract
#include "ops/Center_user.h"

int Center_compute(const Center_args *args)
{
    const uint64_t n = args->x_shape.dims[args->x_shape.rank - 1];
    for (uint64_t r = 0; r < args->mean_shape.count; ++r) {
        const float *x = args->x + r * n;
        float sum = 0.0f;
        for (uint64_t i = 0; i < n; ++i) {
            sum += x[i];
        }
        const float mean = sum / (float)n;
        args->mean[r] = mean;
        const float shift = args->subtract ? mean : 0.0f;
        for (uint64_t i = 0; i < n; ++i) {
            args->centered[r * n + i] = (x[i] - shift) * args->scale;
        }
    }
    return 0;
}
