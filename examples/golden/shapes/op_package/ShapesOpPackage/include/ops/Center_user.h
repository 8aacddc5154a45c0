/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Center (torch op shape_ops::center, kind: custom): what the kernel hands
 * to the math you write in user/Center_math.c.
 *
 * The template does the LPAI part: it checks the node (every output in the shape the
 * spec gives it), dequantizes every input to float in logical row-major order
 * (whatever the layouts and strides), and requantizes every output after you return
 * 0. You own the math only. Each input and output has its own shape
 * (args-><name>_shape: rank, dims, count); `out`, `rank`, `dims` and `count` describe
 * the first output.
 * Output mean: the shape of x reduced over dims [-1], kept as 1.
 * Output centered: the shape of x.
 * Whole tensors: every input and output as float in the scratch of getTempBuffer,
 * (sum of all their element counts) x 4 bytes (docs/custom-ops.md, "Scratch").
 */
#ifndef CENTER_USER_H
#define CENTER_USER_H

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
    /* output "mean": write mean_shape.count real values */
    float *mean;
    /* the shape of x reduced over dims [-1], kept as 1 */
    lpai_shape mean_shape;
    /* output "centered": write centered_shape.count real values */
    float *centered;
    /* the shape of x */
    lpai_shape centered_shape;
    /* the first output: write `count` real values (not codes) */
    float *out;
    /* rank of the first output */
    uint32_t rank;
    /* the first output's logical shape, dims[rank - 1] moves fastest */
    uint32_t dims[LPAI_MAX_RANK];
    /* elements of the first output */
    uint64_t count;
    /* parameter "scale" (float), default 1.0 */
    float scale;
    /* parameter "subtract" (bool), default 1 */
    bool subtract;
} Center_args;

/* Compute every output from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int Center_compute(const Center_args *args);

/* The arguments of Center_compute as the spec has them now: input x; outputs mean, centered; params float scale, bool subtract.
 * user/Center_math.c defines Center_MATH_WRITTEN_FOR to the arguments it was
 * written for, before it includes this header. When they are not these (an update
 * added, removed, renamed or retyped an input, an output or a param), it does not
 * compile until its math takes these and its line names them. (clang-format off: each
 * line whole, however long the names.) */
/* clang-format off */
#define Center_ARGS_IN_x_OUT_mean_OUT_centered_FLOAT_scale_BOOL_subtract 1
#if defined(Center_MATH_WRITTEN_FOR) && !(Center_MATH_WRITTEN_FOR + 0)
#error "user/Center_math.c was written for other arguments of Center_compute: they are now input x; outputs mean, centered; params float scale, bool subtract. Change its math to match (include/ops/Center_user.h lists the members of args), then its line to: #define Center_MATH_WRITTEN_FOR Center_ARGS_IN_x_OUT_mean_OUT_centered_FLOAT_scale_BOOL_subtract"
/* clang-format on */
#endif

#endif
