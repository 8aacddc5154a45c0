/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * MyNorm (torch op norm_ops::my_norm, kind: custom): what the kernel hands
 * to the math you write in user/MyNorm_math.c.
 *
 * The template does the LPAI part: it checks the node (every output in the shape the
 * spec gives it), dequantizes every input to float in logical row-major order
 * (whatever the layouts and strides), and requantizes every output after you return
 * 0. You own the math only. Each input and output has its own shape
 * (args-><name>_shape: rank, dims, count); `out`, `rank`, `dims` and `count` describe
 * the first output.
 * Output out: the shape of x.
 * Whole tensors: every input and output as float in the scratch of getTempBuffer,
 * (sum of all their element counts) x 4 bytes (docs/custom-ops.md, "Scratch").
 */
#ifndef MYNORM_USER_H
#define MYNORM_USER_H

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
    /* output "out": write out_shape.count real values */
    float *out;
    /* the shape of x */
    lpai_shape out_shape;
    /* rank of the first output */
    uint32_t rank;
    /* the first output's logical shape, dims[rank - 1] moves fastest */
    uint32_t dims[LPAI_MAX_RANK];
    /* elements of the first output */
    uint64_t count;
} MyNorm_args;

/* Compute every output from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int MyNorm_compute(const MyNorm_args *args);

/* The arguments of MyNorm_compute as the spec has them now: input x; output out.
 * user/MyNorm_math.c defines MyNorm_MATH_WRITTEN_FOR to the arguments it was
 * written for, before it includes this header. When they are not these (an update
 * added, removed, renamed or retyped an input, an output or a param), it does not
 * compile until its math takes these and its line names them. (clang-format off: each
 * line whole, however long the names.) */
/* clang-format off */
#define MyNorm_ARGS_IN_x_OUT_out 1
#if defined(MyNorm_MATH_WRITTEN_FOR) && !(MyNorm_MATH_WRITTEN_FOR + 0)
#error "user/MyNorm_math.c was written for other arguments of MyNorm_compute: they are now input x; output out. Change its math to match (include/ops/MyNorm_user.h lists the members of args), then its line to: #define MyNorm_MATH_WRITTEN_FOR MyNorm_ARGS_IN_x_OUT_out"
/* clang-format on */
#endif

#endif
