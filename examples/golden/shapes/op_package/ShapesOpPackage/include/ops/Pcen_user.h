/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * Pcen (torch op shape_ops::pcen, kind: custom): what the kernel hands
 * to the math you write in user/Pcen_math.c.
 *
 * The template does the LPAI part: it checks the node (every output in the shape the
 * spec gives it), dequantizes every input to float in logical row-major order
 * (whatever the layouts and strides), and requantizes every output after you return
 * 0. You own the math only. Each input and output has its own shape
 * (args-><name>_shape: rank, dims, count); `out`, `rank`, `dims` and `count` describe
 * the first output.
 * The later inputs broadcast to the first (torch's rules, the first input's shape the
 * result; any other shape is refused): each arrives in its own shape, e.g. a (N, C, 1)
 * state or per-channel value next to a (N, C, T) first input; broadcast it yourself.
 * Output y: the shape of x.
 * Output new_state: the shape of state.
 * rowwise: the function is called once per row (the last dimension of the first
 * input): every tensor is then its own row of rank 1 (dims[0] = the row length, 1 for
 * a reduced output), at most LPAI_ROW_MAX elements, on a buffer of the kernel's stack
 * (no getTempBuffer). A later input's row is its own last dimension at the row's
 * coordinates: the row length, or 1 for an input whose last dimension is 1 (a state, a
 * per-channel value: its one value for this row); an output like an input has that
 * input's row length.
 */
#ifndef PCEN_USER_H
#define PCEN_USER_H

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
    /* input "state", dequantized: state_shape.count values */
    const float *state;
    /* rank, dims and count of "state" */
    lpai_shape state_shape;
    /* output "y": write y_shape.count real values */
    float *y;
    /* the shape of x */
    lpai_shape y_shape;
    /* output "new_state": write new_state_shape.count real values */
    float *new_state;
    /* the shape of state */
    lpai_shape new_state_shape;
    /* the first output: write `count` real values (not codes) */
    float *out;
    /* rank of the first output */
    uint32_t rank;
    /* the first output's logical shape, dims[rank - 1] moves fastest */
    uint32_t dims[LPAI_MAX_RANK];
    /* elements of the first output */
    uint64_t count;
    /* parameter "smooth" (float), default 0.25 */
    float smooth;
    /* parameter "eps" (float), default 1e-06 */
    float eps;
} Pcen_args;

/* Compute every output from the inputs. Return 0 on success; anything else rejects the
 * node and leaves the output tensor untouched. Runs on the DSP: no malloc, no stdio. */
int Pcen_compute(const Pcen_args *args);

/* The arguments of Pcen_compute as the spec has them now: inputs x, state; outputs y, new_state; params float smooth, float eps.
 * user/Pcen_math.c defines Pcen_MATH_WRITTEN_FOR to the arguments it was
 * written for, before it includes this header. When they are not these (an update
 * added, removed, renamed or retyped an input, an output or a param), it does not
 * compile until its math takes these and its line names them. (clang-format off: each
 * line whole, however long the names.) */
/* clang-format off */
#define Pcen_ARGS_IN_x_IN_state_OUT_y_OUT_new_state_FLOAT_smooth_FLOAT_eps 1
#if defined(Pcen_MATH_WRITTEN_FOR) && !(Pcen_MATH_WRITTEN_FOR + 0)
#error "user/Pcen_math.c was written for other arguments of Pcen_compute: they are now inputs x, state; outputs y, new_state; params float smooth, float eps. Change its math to match (include/ops/Pcen_user.h lists the members of args), then its line to: #define Pcen_MATH_WRITTEN_FOR Pcen_ARGS_IN_x_IN_state_OUT_y_OUT_new_state_FLOAT_smooth_FLOAT_eps"
/* clang-format on */
#endif

#endif
