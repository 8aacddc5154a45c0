/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * MyNorm (torch op norm_ops::my_norm, kind: custom): what the kernel hands
 * to the math you write in user/MyNorm_math.c.
 *
 * The template does the LPAI part: it checks the node, dequantizes every input to
 * float in logical row-major order (whatever the layouts and strides), and
 * requantizes `out` into the output tensor after you return 0. You own the math only.
 * The output has the shape of the inputs.
 */
#ifndef MYNORM_USER_H
#define MYNORM_USER_H

#include <stdint.h>

#include "lpai_conventions.h"
#include "lpai_expr_math.h" /* lpai_expf, lpai_sigmoidf, ... for the user math */

/* An unwritten stub returns LPAI_USER_MATH_MISSING (lpai_conventions.h): the host
 * test then names the file to edit. */

typedef struct {
    const float *x;               /* input "x", dequantized, `count` values */
    float *out;                   /* write `count` values here (real values, not codes) */
    uint32_t rank;                /* number of dims */
    uint32_t dims[LPAI_MAX_RANK]; /* logical shape, dims[rank - 1] moves fastest */
    uint64_t count;               /* elements per tensor */
} MyNorm_args;

/* Compute args->out from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int MyNorm_compute(const MyNorm_args *args);

#endif
