/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * ChannelMean (torch op shape_ops::channel_mean, kind: custom): what the kernel hands
 * to the math you write in user/ChannelMean_math.c.
 *
 * The template does the LPAI part: it checks the node (every output in the shape the
 * spec gives it), dequantizes every input to float in logical row-major order
 * (whatever the layouts and strides), and requantizes every output after you return
 * 0. You own the math only. Each input and output has its own shape
 * (args-><name>_shape: rank, dims, count); `out`, `rank`, `dims` and `count` describe
 * the first output.
 * Output mean: the shape of x reduced over dims [1], kept as 1.
 * Whole tensors: every input and output as float in the scratch of getTempBuffer,
 * (sum of all their element counts) x 4 bytes (docs/custom-ops.md, "Scratch").
 */
#ifndef CHANNELMEAN_USER_H
#define CHANNELMEAN_USER_H

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
    /* the shape of x reduced over dims [1], kept as 1 */
    lpai_shape mean_shape;
    /* the first output: write `count` real values (not codes) */
    float *out;
    /* rank of the first output */
    uint32_t rank;
    /* the first output's logical shape, dims[rank - 1] moves fastest */
    uint32_t dims[LPAI_MAX_RANK];
    /* elements of the first output */
    uint64_t count;
} ChannelMean_args;

/* Compute every output from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int ChannelMean_compute(const ChannelMean_args *args);

/* The arguments of ChannelMean_compute as the spec has them now: input x; output mean.
 * user/ChannelMean_math.c defines ChannelMean_MATH_WRITTEN_FOR to the arguments it was
 * written for, before it includes this header. When they are not these (an update
 * added, removed, renamed or retyped an input, an output or a param), it does not
 * compile until its math takes these and its line names them. (clang-format off: each
 * line whole, however long the names.) */
/* clang-format off */
#define ChannelMean_ARGS_IN_x_OUT_mean 1
#if defined(ChannelMean_MATH_WRITTEN_FOR) && !(ChannelMean_MATH_WRITTEN_FOR + 0)
#error "user/ChannelMean_math.c was written for other arguments of ChannelMean_compute: they are now input x; output mean. Change its math to match (include/ops/ChannelMean_user.h lists the members of args), then its line to: #define ChannelMean_MATH_WRITTEN_FOR ChannelMean_ARGS_IN_x_OUT_mean"
/* clang-format on */
#endif

#endif
