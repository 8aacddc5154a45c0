/* This file is yours: the template created it once and never touches it again. */
/* The kernel math of agc_ops::agc (tests/specs/inner_loop/agc.yaml), as agc.py. */
#include <math.h>

#define Agc_MATH_WRITTEN_FOR Agc_ARGS_IN_x_OUT_out_FLOAT_alpha_FLOAT_eps_INT_order
#include "ops/Agc_user.h"

int Agc_compute(const Agc_args *args)
{
    for (uint64_t i = 0; i < args->count; ++i) {
        const float x = args->x[i];
        const float g = (1.0f - args->alpha) + args->alpha * x * x;
        args->out[i] = x / sqrtf(g + args->eps) * (float)args->order;
    }
    return 0;
}
