/* This file is yours: the template created it once and never touches it again. */
/*
 * The kernel math of shape_ops::channel_mean (examples/shapes.yaml): the mean over
 * dim 1. The input is (outer, C, inner) in row-major order, the output (outer, 1, inner).
 */
/* The arguments this math is written for (include/ops/ChannelMean_user.h checks them). */
#define ChannelMean_MATH_WRITTEN_FOR ChannelMean_ARGS_IN_x_OUT_mean
#include "ops/ChannelMean_user.h"

int ChannelMean_compute(const ChannelMean_args *args)
{
    const lpai_shape *s = &args->x_shape;
    if (s->rank < 2u) {
        return 1; /* the spec's reduce over dim 1 needs two dims; the kernel refuses such a node first */
    }
    const uint64_t channels = s->dims[1];
    const uint64_t outer = s->dims[0];
    const uint64_t inner = s->count / (outer * channels);
    for (uint64_t o = 0; o < outer; ++o) {
        for (uint64_t i = 0; i < inner; ++i) {
            float sum = 0.0f;
            for (uint64_t c = 0; c < channels; ++c) {
                sum += args->x[(o * channels + c) * inner + i];
            }
            args->mean[o * inner + i] = sum / (float)channels;
        }
    }
    return 0;
}
