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
 * rowwise: the function is called once per row (the last dimension): every tensor is
 * then one row of rank 1 (dims[0] = the row length, 1 for a reduced output), at most
 * LPAI_ROW_MAX elements, on a buffer of the kernel's stack (no getTempBuffer).
 */
#ifndef RMSNORM_USER_H
#define RMSNORM_USER_H

#include <stdint.h>

#include "lpai_conventions.h"
#include "lpai_expr_math.h" /* lpai_expf, lpai_sigmoidf, ... for the user math */
#include "lpai_shapes.h"

/* An unwritten stub returns LPAI_USER_MATH_MISSING (lpai_conventions.h): the host
 * test then names the file to edit. */

typedef struct {
    const float *x;               /* input "x", dequantized: x_shape.count values */
    lpai_shape x_shape;           /* rank, dims and count of "x" */
    float *y;                     /* output "y": write y_shape.count real values */
    lpai_shape y_shape;           /* the shape of x */
    float *out;                   /* the first output: write `count` real values (not codes) */
    uint32_t rank;                /* rank of the first output */
    uint32_t dims[LPAI_MAX_RANK]; /* the first output's logical shape, dims[rank - 1] moves fastest */
    uint64_t count;               /* elements of the first output */
    float eps;                    /* parameter "eps" (float), default 1e-06 */
} RmsNorm_args;

/* Compute every output from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int RmsNorm_compute(const RmsNorm_args *args);

#endif
