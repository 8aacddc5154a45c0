/* This file is yours: the template created it once and never touches it again. */
/*
 * The kernel math of norm_ops::my_norm (examples/custom.yaml): the whole tensor to zero
 * mean and unit variance, as my_norm.py does in eager mode. The sums run in double so
 * that the result stays within one quantization step of torch's.
 */
#include <math.h>

/* The arguments this math is written for (include/ops/MyNorm_user.h checks them). */
#define MyNorm_MATH_WRITTEN_FOR MyNorm_ARGS_IN_x_OUT_out
#include "ops/MyNorm_user.h"

int MyNorm_compute(const MyNorm_args *args)
{
    double sum = 0.0;
    double sq = 0.0;
    for (uint64_t i = 0; i < args->count; ++i) {
        sum += args->x[i];
    }
    const double mean = sum / (double)args->count;
    for (uint64_t i = 0; i < args->count; ++i) {
        sq += (args->x[i] - mean) * (args->x[i] - mean);
    }
    const float inv = (float)(1.0 / sqrt(sq / (double)args->count + 1e-5));
    for (uint64_t i = 0; i < args->count; ++i) {
        args->out[i] = (float)(args->x[i] - mean) * inv;
    }
    return 0;
}
