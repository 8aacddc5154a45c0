/* This file is owned by the qnn-op-template: do not edit; changes arrive with copier update. */
/*
 * HVX forms of the 8-bit loops, for Hexagon builds with 128-byte HVX vectors (the
 * compiler defines __HVX__ and __HVX_LENGTH__ 128: -mhvx -mhvx-length=128B, or zig's
 * -mcpu=hexagonv79+hvxv66+hvx_length128b). Integer instructions of HVX v60 only, which
 * every HVX DSP has and QEMU's qemu-hexagon runs bit-exact (`make hexagon-test`); the
 * float forms stay scalar. Define LPAI_NO_HVX to build the scalar loops alone (the
 * benchmark compares the two).
 *
 * The 256-entry table of an 8-bit unary op (lpai_map_table_u8), and the per-row tables
 * of an n-ary op with broadcast inputs (lpai_map_row_tables_u8), 128 elements per
 * step: vlut32 looks each byte of a vector up in 32 of the table's entries and leaves
 * the other lanes 0, so eight of them (the first plain, seven OR-accumulated) cover
 * 256 entries. What vlut32 reads, for index i and match value m = i >> 5 (the
 * instruction's Rt, 0..7) of a 128-byte table vector V (HVX manual, 128-byte mode):
 * the byte of halfword i mod 64 of V, its odd byte when bit 1 of m is set. So V holds
 * entries 64 k .. 64 k + 63 in its even bytes and the next 64 in its odd ones, and
 * vshuff (Vd.h[i] = {Vu.b[i], Vu.b[i + 64]}) turns 128 consecutive entries into that
 * layout. Measured under qemu-hexagon against the scalar lookup on every byte; held
 * by the C suite on every case of `make hexagon-test` (lpai_emu_last_hvx says the
 * vectors ran), and a lane off by one code fails it
 * (qnn-op-template/tests/test_hexagon.py).
 *
 * A run shorter than a vector (a padded row, a run's tail, a block copied by the
 * blocked loop) is read from the aligned vectors that hold it and written under a byte
 * mask (lpai_hvx_load_n, lpai_hvx_store_n): no byte outside it is written, which the
 * C suite checks on every padded layout (lpai_emu_padding_untouched).
 */
#ifndef LPAI_HVX_H
#define LPAI_HVX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__hexagon__) && defined(__HVX__) && defined(__HVX_LENGTH__) && !defined(LPAI_NO_HVX)
#if __HVX_LENGTH__ == 128
#define LPAI_HVX 1
#endif
#endif
#if !defined(LPAI_HVX)
#define LPAI_HVX 0
#endif

#if defined(LPAI_HOST_EMULATOR)
extern int lpai_host_last_hvx; /* set when a call ran an HVX loop, for the tests */
#define LPAI_HOST_HVX() (lpai_host_last_hvx = 1)
#else
#define LPAI_HOST_HVX() ((void)0)
#endif

#if LPAI_HVX
#include <hexagon_types.h>
#include <hvx_hexagon_protos.h>

#define LPAI_HVX_BYTES 128u

/* The table as vlut32 reads it: entries 0..127 and 128..255, each vector shuffled. */
typedef struct {
    HVX_Vector lo, hi;
} lpai_hvx_table;

static inline void lpai_hvx_table_from(lpai_hvx_table *t, const uint8_t *table)
{
    HVX_Vector a, b;
    memcpy(&a, table, sizeof a); /* unaligned loads: the table is a local array */
    memcpy(&b, table + LPAI_HVX_BYTES, sizeof b);
    t->lo = Q6_Vb_vshuff_Vb(a);
    t->hi = Q6_Vb_vshuff_Vb(b);
}

/* 128 lookups: lane i of the result is table[x.ub[i]]. */
static inline HVX_Vector lpai_hvx_lookup(HVX_Vector x, const lpai_hvx_table *t)
{
    HVX_Vector r = Q6_Vb_vlut32_VbVbR(x, t->lo, 0);
    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->lo, 1);
    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->lo, 2);
    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->lo, 3);
    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->hi, 4);
    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->hi, 5);
    r = Q6_Vb_vlut32or_VbVbVbR(r, x, t->hi, 6);
    return Q6_Vb_vlut32or_VbVbVbR(r, x, t->hi, 7);
}

/* out[j] = table[in[j]] for the whole vectors of a unit-step run of n bytes; returns
 * how many bytes it did (n rounded down to 128), the caller does the rest. Any
 * alignment: memcpy of a vector compiles to vmemu. out == in is fine (each vector is
 * read before it is written); other overlaps are not (nor are they for the scalar
 * loop: the kernels' outputs never overlap their inputs but in place). */
static inline uint64_t lpai_hvx_lookup_run(uint8_t *out, const uint8_t *in, uint64_t n, const lpai_hvx_table *t)
{
    const uint64_t whole = n & ~(uint64_t)(LPAI_HVX_BYTES - 1u);
    for (uint64_t j = 0; j < whole; j += LPAI_HVX_BYTES) {
        HVX_Vector x;
        memcpy(&x, in + j, sizeof x);
        const HVX_Vector r = lpai_hvx_lookup(x, t);
        memcpy(out + j, &r, sizeof r);
    }
    if (whole) {
        LPAI_HOST_HVX();
    }
    return whole;
}

/* The n bytes at p (1 <= n <= 128) in lanes 0..n-1, from the aligned vectors that
 * hold them: an aligned load never crosses its 128-byte block, so it reads no page
 * the run does not touch (an unaligned vector load of 128 bytes could, at a tensor's
 * end). Lanes n..127 hold whatever those blocks hold: the caller stores n lanes. */
static inline HVX_Vector lpai_hvx_load_n(const uint8_t *p, uint32_t n)
{
    const uint32_t a = (uint32_t)((uintptr_t)p & (LPAI_HVX_BYTES - 1u));
    const HVX_Vector *b = (const HVX_Vector *)(const void *)(p - a);
    const HVX_Vector lo = b[0];
    const HVX_Vector hi = a + n > LPAI_HVX_BYTES ? b[1] : lo;
    return Q6_V_valign_VVR(hi, lo, a); /* lane i = byte a + i of lo:hi */
}

/* Lanes 0..n-1 of v to q .. q + n - 1 (1 <= n <= 128), no other byte written (the
 * padding between rows is not the kernel's): v rotated to q's place in its aligned
 * block, then one or two stores under a byte mask (vsetq: lanes below its operand). */
static inline void lpai_hvx_store_n(uint8_t *q, HVX_Vector v, uint32_t n)
{
    const uint32_t a = (uint32_t)((uintptr_t)q & (LPAI_HVX_BYTES - 1u));
    const uint32_t end = a + n; /* 1 .. 255 */
    HVX_Vector *b = (HVX_Vector *)(void *)(q - a);
    const HVX_Vector r = Q6_V_vlalign_VVR(v, v, a); /* lane a + i = lane i of v */
    const HVX_VectorPred from = Q6_Q_not_Q(Q6_Q_vsetq_R(a));
    if (end < LPAI_HVX_BYTES) {
        Q6_vmem_QRIV(Q6_Q_and_QQ(from, Q6_Q_vsetq_R(end)), b, r);
        return;
    }
    Q6_vmem_QRIV(from, b, r);
    if (end > LPAI_HVX_BYTES) {
        Q6_vmem_QRIV(Q6_Q_vsetq_R(end - LPAI_HVX_BYTES), b + 1, r);
    }
}

/* out[j] = table[in[j]] for a unit-step run of 1 <= n <= 128 bytes: one masked vector. */
static inline void lpai_hvx_lookup_short(uint8_t *out, const uint8_t *in, uint32_t n, const lpai_hvx_table *t)
{
    lpai_hvx_store_n(out, lpai_hvx_lookup(lpai_hvx_load_n(in, n), t), n);
    LPAI_HOST_HVX();
}

/* The same for any n >= 1: whole vectors, then the last n % 128 bytes as one more
 * masked vector. */
static inline void lpai_hvx_lookup_row(uint8_t *out, const uint8_t *in, uint64_t n, const lpai_hvx_table *t)
{
    const uint64_t whole = lpai_hvx_lookup_run(out, in, n, t);
    if (whole < n) {
        lpai_hvx_lookup_short(out + whole, in + whole, (uint32_t)(n - whole), t);
    }
}
#endif /* LPAI_HVX */

#endif /* LPAI_HVX_H */
