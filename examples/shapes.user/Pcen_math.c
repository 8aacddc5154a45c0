/* This file is yours: the template created it once and never touches it again. */
/*
 * The kernel math of shape_ops::pcen (examples/shapes.yaml), rowwise: each call gets one
 * row (the last dim) of x and y, and the state's own row at the same coordinates: one
 * value for a (N, C, 1) state, the row length for a state shaped like x. Written over
 * rows, so it computes the same with rowwise: false when state has x's rows.
 */
#include <math.h>

/* The arguments this math is written for (include/ops/Pcen_user.h checks them). */
#define Pcen_MATH_WRITTEN_FOR Pcen_ARGS_IN_x_IN_state_OUT_y_OUT_new_state_FLOAT_smooth_FLOAT_eps
#include "ops/Pcen_user.h"

int Pcen_compute(const Pcen_args *args)
{
    const uint64_t n = args->x_shape.dims[args->x_shape.rank - 1];
    const uint64_t sn = args->state_shape.dims[args->state_shape.rank - 1];
    if (n == 0u || sn == 0u) {
        return 0;
    }
    const uint64_t rows = args->x_shape.count / n;
    if (args->state_shape.count != rows * sn) {
        return 1; /* a state broadcast over rows: this math wants one state row per row */
    }
    for (uint64_t r = 0; r < rows; ++r) {
        const float *x = args->x + r * n;
        float m = args->state[r * sn + sn - 1u];
        for (uint64_t i = 0; i < n; ++i) {
            m = m + args->smooth * (x[i] - m);
            args->y[r * n + i] = x[i] / sqrtf(fabsf(m) + args->eps);
        }
        for (uint64_t i = 0; i < sn; ++i) {
            args->new_state[r * sn + i] = m;
        }
    }
    return 0;
}
