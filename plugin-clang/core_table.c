/* core_table.c -- the one exported symbol of libmixprec-core.so: the table
 * of the core's entry points (mp-core-table.h).  Everything else in the
 * library is hidden and bound inside it (-fvisibility=hidden, -Bsymbolic),
 * so that neither the core nor ISL can be interposed by libLLVM's ISL.
 */
#include "mp-core-table.h"

static const mp_core_table mp_table = {
	MP_CORE_TABLE_VERSION,
	sizeof(mp_core_table),
	sizeof(mp_nest),
	sizeof(mp_plan),
	mp_nest_init,
	mp_nest_add_var,
	mp_nest_find_var,
	mp_nest_add_loop,
	mp_nest_add_array,
	mp_nest_add_access,
	mp_nest_add_expr,
	mp_nest_add_stmt,
	mp_aff_const,
	mp_aff_var,
	mp_aff_add,
	mp_aff_scale,
	mp_aff_mul,
	mp_aff_is_const,
	mp_aff_coef_of,
	mp_aff_uses_var,
	mp_aff_print,
	mp_nest_print,
	mp_nest_parse,
	mp_pragma_parse,
	mp_prec_name,
	mp_target_name,
	mp_analyze,
	mp_plan_remark,
	mp_scalar_name,
	mp_scalar_is_int,
	mp_scalar_bits,
	mp_plan_call_args,
	mp_pragma_scales,
	mp_analyze_all,
	mp_nest_add_cond,
	mp_plan_work,
	mp_aff_minmax,
	mp_nest_add_narrow,
	mp_aff_iters,
	mp_plan_live_loops,
	mp_nest_add_aff_expr,
};

__attribute__((visibility("default"))) const mp_core_table *mp_core_entry(void)
{
	return &mp_table;
}
