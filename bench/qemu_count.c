/*
 * A QEMU TCG plugin that counts the Hexagon packets and instructions executed in
 * windows of a program's run: from each execution of the entry of one function (`on`)
 * to the next execution of the entry of another (`off`), everything in between, the
 * callees included (the window is dynamic, as callgrind's collection toggles are).
 * The two addresses come from the program's symbol table (bench/run.py reads them
 * with llvm-nm). Optionally only packets whose address is in [lo, hi) are counted:
 * the code of one function.
 *
 *   gcc -shared -fPIC -O2 -o libcount.so bench/qemu_count.c
 *   qemu-hexagon -cpu v67 -plugin ./libcount.so,on=0x...,off=0x...[,lo=0x...,hi=0x...] prog
 *
 * It prints one line per window at exit, in order, on stderr (qemu_plugin_outs):
 *   qemu_count window=<i> packets=<p> insns=<n>
 *
 * QEMU's hexagon front end translates one packet per guest "instruction" of the plugin
 * API, so an instruction of the API is a packet; its instructions are counted from its
 * 32-bit words: a duplex word (parse bits 00) holds two, a constant extender (class 0,
 * parse bits not 00) none, any other word one.
 *
 * No qemu-plugin.h is installed here (Debian ships none), so the few declarations of
 * the plugin API (version 1, QEMU 7.2) are written below from its public documentation.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t; /* not read */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
                                           void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t id, void *userdata),
                                    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
                                                uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
                                            void (*cb)(unsigned int vcpu_index, void *userdata),
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_WINDOWS 100000

static uint64_t g_on, g_off, g_lo, g_hi = UINT64_MAX;
static uint64_t g_packets, g_insns;   /* running totals, added inline by the translated code */
static uint64_t g_start_p, g_start_i; /* at the last `on` */
static int g_open;
static size_t g_n;
static uint64_t (*g_win)[2];

/* Instructions in one packet of `size` bytes: see the header comment. */
static uint64_t packet_insns(const uint8_t *p, size_t size)
{
    uint64_t n = 0;
    for (size_t i = 0; i + 4 <= size; i += 4) {
        const uint32_t w =
            (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
        const uint32_t parse = (w >> 14) & 3u;
        n += parse == 0u ? 2u : ((w >> 28) == 0u ? 0u : 1u);
    }
    return n;
}

static void on_marker(unsigned int vcpu, void *udata)
{
    (void)vcpu;
    if (udata == (void *)&g_on) {
        g_start_p = g_packets;
        g_start_i = g_insns;
        g_open = 1;
    } else if (g_open && g_n < MAX_WINDOWS) {
        g_win[g_n][0] = g_packets - g_start_p;
        g_win[g_n][1] = g_insns - g_start_i;
        g_n++;
        g_open = 0;
    }
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    const size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; ++i) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        const uint64_t pc = qemu_plugin_insn_vaddr(insn);
        if (pc == g_on || pc == g_off) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
                                                   pc == g_on ? (void *)&g_on : (void *)&g_off);
        }
        if (pc >= g_lo && pc < g_hi) {
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &g_packets, 1);
            qemu_plugin_register_vcpu_insn_exec_inline(
                insn, QEMU_PLUGIN_INLINE_ADD_U64, &g_insns,
                packet_insns((const uint8_t *)qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn)));
        }
    }
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
    (void)id;
    (void)udata;
    char line[128];
    for (size_t i = 0; i < g_n; ++i) {
        snprintf(line, sizeof line, "qemu_count window=%zu packets=%" PRIu64 " insns=%" PRIu64 "\n", i, g_win[i][0],
                 g_win[i][1]);
        qemu_plugin_outs(line);
    }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info;
    for (int i = 0; i < argc; ++i) {
        const char *eq = strchr(argv[i], '=');
        const uint64_t v = eq ? strtoull(eq + 1, NULL, 0) : 0u;
        if (!eq) {
            fprintf(stderr, "qemu_count: argument %s is not name=value\n", argv[i]);
            return -1;
        } else if (!strncmp(argv[i], "on=", 3)) {
            g_on = v;
        } else if (!strncmp(argv[i], "off=", 4)) {
            g_off = v;
        } else if (!strncmp(argv[i], "lo=", 3)) {
            g_lo = v;
        } else if (!strncmp(argv[i], "hi=", 3)) {
            g_hi = v;
        } else {
            fprintf(stderr, "qemu_count: unknown argument %s (on=, off=, lo=, hi=)\n", argv[i]);
            return -1;
        }
    }
    if (!g_on || !g_off || g_on == g_off) {
        fprintf(stderr, "qemu_count: on=ADDR and off=ADDR (two different function entries) are required\n");
        return -1;
    }
    g_win = calloc(MAX_WINDOWS, sizeof *g_win);
    if (!g_win) {
        return -1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
