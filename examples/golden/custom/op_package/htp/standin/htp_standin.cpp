// This file is owned by the qnn-op-template: do not edit; changes arrive with copier update.
//
// The table the stand-in's registration macros fill (standin/htp_standin.h): what
// libQnnHtp keeps for the SDK's macros, here for the test driver to read.
#include "htp_standin.h"

namespace htp_standin
{

namespace
{
OpEntry g_ops[64];
size_t g_n_ops = 0;
ParamOrder g_orders[64];
size_t g_n_orders = 0;
} // namespace

OpEntry *ops_table(size_t *count)
{
    *count = g_n_ops;
    return g_ops;
}

ParamOrder *param_orders(size_t *count)
{
    *count = g_n_orders;
    return g_orders;
}

bool add_op(const OpEntry &entry)
{
    if (g_n_ops == sizeof g_ops / sizeof g_ops[0]) {
        return false;
    }
    g_ops[g_n_ops++] = entry;
    return true;
}

bool add_param_order(const ParamOrder &order)
{
    if (g_n_orders == sizeof g_orders / sizeof g_orders[0]) {
        return false;
    }
    g_orders[g_n_orders++] = order;
    return true;
}

} // namespace htp_standin
