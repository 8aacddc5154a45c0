/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * RmsNorm (torch op shape_ops::rms_norm, kind: custom): what the kernel hands
 * to the math you write in user/RmsNorm_math.c.
 *
 * The template does the LPAI part: it checks the node (every output in the shape the
 * spec gives it), dequantizes every input to float in logical row-major order
 * (whatever the layouts and strides), and requantizes every output after you return
 * 0. You own the math only. Each input and output has its own shape
 * (args-><name>_shape: rank, dims, count); `out`, `rank`, `dims` and `count` describe
 * the first output.
 * Output y: the shape of x.
 * rowwise: the function is called once per row (the last dimension of the first
 * input): every tensor is then its own row of rank 1 (dims[0] = the row length, 1 for
 * a reduced output), at most LPAI_ROW_MAX elements, on a buffer of the kernel's stack
 * (no getTempBuffer).
 */
#ifndef RMSNORM_USER_H
#define RMSNORM_USER_H

#include <stdbool.h> /* bool params */
#include <stdint.h>

#include "lpai_conventions.h"
#include "lpai_expr_math.h" /* lpai_expf, lpai_sigmoidf, ... for the user math */
#include "lpai_shapes.h"

/* An unwritten stub returns LPAI_USER_MATH_MISSING (lpai_conventions.h): the host
 * test then names the file to edit. */

typedef struct {
    /* input "x", dequantized: x_shape.count values */
    const float *x;
    /* rank, dims and count of "x" */
    lpai_shape x_shape;
    /* output "y": write y_shape.count real values */
    float *y;
    /* the shape of x */
    lpai_shape y_shape;
    /* the first output: write `count` real values (not codes) */
    float *out;
    /* rank of the first output */
    uint32_t rank;
    /* the first output's logical shape, dims[rank - 1] moves fastest */
    uint32_t dims[LPAI_MAX_RANK];
    /* elements of the first output */
    uint64_t count;
    /* parameter "eps" (float), default 1e-06 */
    float eps;
} RmsNorm_args;

/* Compute every output from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int RmsNorm_compute(const RmsNorm_args *args);

/* The arguments of RmsNorm_compute as the spec has them now: input x; output y; param float eps.
 * user/RmsNorm_math.c defines RmsNorm_MATH_WRITTEN_FOR to the arguments it was
 * written for, before it includes this header. When they are not these (an update
 * added, removed, renamed or retyped an input, an output or a param), it does not
 * compile until its math takes these and its line names them. (clang-format off: each
 * line whole, however long the names.) */
/* clang-format off */
#define RmsNorm_ARGS_IN_x_OUT_y_FLOAT_eps 1
#if defined(RmsNorm_MATH_WRITTEN_FOR) && !(RmsNorm_MATH_WRITTEN_FOR + 0)
#error "user/RmsNorm_math.c was written for other arguments of RmsNorm_compute: they are now input x; output y; param float eps. Change its math to match (include/ops/RmsNorm_user.h lists the members of args), then its line to: #define RmsNorm_MATH_WRITTEN_FOR RmsNorm_ARGS_IN_x_OUT_y_FLOAT_eps"
/* clang-format on */
#endif

#endif
