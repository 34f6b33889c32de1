/* mp_remark.c -- the text of the remark that reports a transformed nest,
 * shared by the GCC and clang plugins so that both say the same thing.
 */
#include <stdio.h>
#include "mp_nest.h"

/* Register tiles of the runtime's kernel families (runtime/gemm_*.c), per
 * architecture (MP_ARCH_*). */
static const char *const mp_kernel_families[] = {
	"kernels avx512vnni 8x32 (K groups of 4, vpdpbusd), avx2 6x16 (exact, vpmaddwd), "
	"scalar 4x8",
	"kernels i8mm 8x8 (K groups of 8, smmla/ummla/usmmla by operand types), dotprod 8x12 (K groups of 4, sdot), "
	"scalar 4x8",
};

/* A batch loop inside the rows (runtime/batched*.c). */
static const char *const mp_batched_kernel_families[] = {
	"kernels across the batch loop: avx512vnni 32 x 4 rows (int16 pairs, vpdpwssd), avx2 "
	"16 x 4 rows (vpmaddwd), when A and B are contiguous along it with one column; "
	"otherwise the loop as written",
	"kernels across the batch loop: neon 16 x 4 rows (int16, smlal) on the dotprod and i8mm "
	"families, when A and B are contiguous along it with one column; otherwise the loop "
	"as written",
};

/* mp_gemm_lp's implementations (runtime/lp*.c). */
static const char *const mp_lp_kernel_families[] = {
	"mp_gemm_lp kernels: bf16/fp8 on avx512bf16 (vdpbf16ps) or avx2+fma (the same "
	"bits), int8/uint8 on avx512vnni / avx2 / scalar int8 tiles, scalar reference",
	"mp_gemm_lp kernels: int8/uint8 on i8mm (usmmla) / scalar int8 tiles, bf16/fp8 on "
	"bfmlal (bfmlalt/bfmlalb) or neon (fmla; the same bits), scalar reference",
};

static const char *mode_text(const mp_plan *p)
{
	switch (p->mode) {
	case MP_OUT_DIRECT:
		return "accumulates into the output (no temporary)";
	case MP_OUT_FUSED:
		return "epilogue fused into the kernel (no temporary)";
	default:
		if (p->src_float)
			return p->src_type == MP_TY_F64 ?
			       "double temporary tile, the rest of the nest kept as written" :
			       "float temporary tile, the rest of the nest kept as written";
		return "int32 temporary tile, the rest of the nest kept as written";
	}
}

int mp_plan_remark(const mp_plan *p, const mp_pragma *pr, int arch, char *buf, size_t len)
{
	const char *target = pr ? mp_target_name(pr->target) : "auto";
	int a = arch == MP_ARCH_AARCH64;
	return snprintf(buf, len,
			"mixprec: %s; %s; %s; %s, chosen at run time for the running CPU "
			"(target=%s, MIXPREC_TARGET overrides); a call too small to pay for "
			"them runs the loop as written (decided per call from the extents: "
			"fallback reason 'small' in MIXPREC_STATS)%s%s%s%s",
			p->what, p->layout, mode_text(p),
			p->src_float ? mp_lp_kernel_families[a]
			: p->g_batch ? mp_batched_kernel_families[a] : mp_kernel_families[a], target,
			p->hint[0] ? "; " : "", p->hint, p->auto_note[0] ? "; " : "", p->auto_note);
}
