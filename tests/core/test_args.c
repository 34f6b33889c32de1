/* test_args.c -- mp_plan_call_args: the run-time call's argument recipes
 * follow the layout runtime/nest.c reads (positions, count, nargs). */
#include "mp_nest.h"
#include "core_test.h"

static int analyse(const char *text, mp_nest *n, mp_plan *p)
{
	mp_pragma pr = { .prec = MP_PREC_INT8 };
	if (mp_nest_parse(n, text) != 0) {
		printf("parse error: %s\n", n->error);
		return 0;
	}
	return mp_analyze(n, &pr, p);
}

int main(void)
{
	mp_nest *n = calloc(1, sizeof *n);
	mp_plan *p = calloc(1, sizeof *p);
	static mp_arg a[MP_MAX_CALL_ARGS];
	mp_pragma pr = { .prec = MP_PREC_INT8, .target = MP_TARGET_AVX2 };

	/* fused fp32 epilogue, bias[j], zero point on x */
	const char *fused = DECLS "var s local s32\nvar b param ptr\nvar sc param f32\n"
		"var zy param s32\nvar zx param s32\narray b base=b\n"
		"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = b[4*j]:s32\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s (* (- (cast:s32 x[i*K+k]:u8) zx) (cast:s32 w[j*K+k]:s8)))\n"
		"stmt j : y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_requant_fp32\" s sc zy -128 127))\n";
	CHECK(analyse(fused, n, p), "%s", p->reason);
	CHECK(p->mode == MP_OUT_FUSED, "mode %d", p->mode);
	int na = mp_plan_call_args(n, p, &pr, a, MP_MAX_CALL_ARGS);
	int ncheck = p->ncheck;
	CHECK(na == 2 + 46 + 2 * ncheck - 2 + 2, "na %d ncheck %d", na, ncheck);
	CHECK(a[0].kind == MP_ARG_CONST && a[0].cst == MP_NEST_ABI_VERSION, "abi");
	CHECK(a[1].kind == MP_ARG_CONST && a[1].cst == na - 2, "nargs %lld", (long long)a[1].cst);
	CHECK(a[2].cst == 2, "mode FUSED = 2, got %lld", (long long)a[2].cst);
	CHECK(a[3].cst == 2, "target avx2 = 2, got %lld", (long long)a[3].cst);
	CHECK(a[4].kind == MP_ARG_EXTENT && a[6].kind == MP_ARG_EXTENT, "extents");
	CHECK(a[7].kind == MP_ARG_ADDR && a[7].access == p->acc_a, "A address");
	CHECK(a[10].cst == 1, "A is u8");
	CHECK(a[11].kind == MP_ARG_EXPR && a[11].cst == 1, "za = +zx");
	CHECK(a[12].kind == MP_ARG_ADDR && a[12].access == p->acc_b, "B address");
	CHECK(a[15].cst == 0, "B is s8");
	CHECK(a[17].kind == MP_ARG_ADDR && a[17].access == p->epi_out, "out address");
	CHECK(a[20].cst == MP_FUSE_FP32 && a[21].cst == 0, "epi kind, s8 out");
	CHECK(a[23].kind == MP_ARG_ADDR && a[23].access == p->epi_bias, "bias");
	CHECK(a[26].kind == MP_ARG_EXPR_F32, "scale as float bits");
	CHECK(a[27].kind == MP_ARG_CONST && a[28].kind == MP_ARG_CONST, "no qm/shift");
	CHECK(a[29].kind == MP_ARG_EXPR_I32 && a[31].kind == MP_ARG_EXPR_I32, "zp..qmax");
	CHECK(a[32].kind == MP_ARG_LOC, "location string (per-nest statistics)");
	CHECK(a[33].kind == MP_ARG_CONST && a[33].cst == 1, "alpha 1 (no factor)");
	CHECK(a[34].kind == MP_ARG_CONST && a[34].cst == 0, "no constant= operand");
	CHECK(a[35].kind == MP_ARG_CONST && a[35].cst == 1 && a[36].cst == 0 && a[37].cst == 0,
	      "no groups: G 1, strides 0");
	{	/* constant=w (B, 2), constant=(x, w) (3); the layout is the same */
		mp_pragma cpr = pr;
		cpr.nconstant = 1;
		strcpy(cpr.constant[0], "w");
		CHECK(mp_analyze(n, &cpr, p) && p->const_b && !p->const_a, "constant=w: %s",
		      p->reason);
		CHECK(mp_plan_call_args(n, p, &cpr, a, MP_MAX_CALL_ARGS) == na &&
		      a[34].kind == MP_ARG_CONST && a[34].cst == 2, "cflags B: %lld",
		      (long long)a[34].cst);
		CHECK(strstr(p->what, "w constant across calls (packed once"), "remark: %s",
		      p->what);
		cpr.nconstant = 2;
		strcpy(cpr.constant[1], "x");
		CHECK(mp_analyze(n, &cpr, p) && p->const_b && p->const_a, "constant=(w, x): %s",
		      p->reason);
		mp_plan_call_args(n, p, &cpr, a, MP_MAX_CALL_ARGS);
		CHECK(a[34].cst == 3, "cflags A and B: %lld", (long long)a[34].cst);
		CHECK(mp_analyze(n, &pr, p), "%s", p->reason);
		mp_plan_call_args(n, p, &pr, a, MP_MAX_CALL_ARGS);
	}
	CHECK(a[38].kind == MP_ARG_CONST && a[38].cst == 0, "no summed reduction loops: L 0");
	CHECK(a[39].cst == -1 && a[40].cst == 0 && a[41].cst == 0 && a[42].cst == 0,
	      "no second row loop: -1, 0, 0, 0");
	CHECK(a[43].kind == MP_ARG_CONST && a[43].cst == 0, "no padding: P 0");
	CHECK(a[44].cst == 0 && a[45].cst == 0, "padded element: zero point");
	CHECK(a[46].kind == MP_ARG_CONST && a[46].cst == ncheck, "ncheck");
	CHECK(a[47 + 2 * ncheck].kind == MP_ARG_CONST && a[47 + 2 * ncheck].cst == 0, "nprot 0");

	/* C += A*B through the scalar, as darknet's gemm_nt writes it (`sum =
	   0; ...; C[i,j] += sum`) or with the sum starting from C[i,j]:
	   direct mode, the output itself the accumulator (an int32 sum in
	   any order, wrapping, is the same).  Near misses keep the tile:
	   another element of C, a non-zero start. */
	static const struct { const char *init, *store; mp_out_mode mode; } acc_forms[] = {
		{ "stmt j : s = 0\n", "stmt j : C[i*N+j]:s32 = (+ C[i*N+j]:s32 s)\n", MP_OUT_DIRECT },
		{ "stmt j : s = C[i*N+j]:s32\n", "stmt j : C[i*N+j]:s32 = s\n", MP_OUT_DIRECT },
		{ "stmt j : s = C[i*N+j+1]:s32\n", "stmt j : C[i*N+j]:s32 = s\n", MP_OUT_TILE },
		{ "stmt j : s = 5\n", "stmt j : C[i*N+j]:s32 = (+ C[i*N+j]:s32 s)\n", MP_OUT_TILE },
	};
	for (size_t f = 0; f < sizeof acc_forms / sizeof acc_forms[0]; f++) {
		char text[2048];
		snprintf(text, sizeof text, DECLS "var s local s32\nvar C param ptr\narray C base=C\n"
			 "loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n%s"
			 "loop k parent=j lo=0 hi=K-1\n"
			 "stmt k : s = (+ s (* (cast:s32 x[i*K+k]:s8) (cast:s32 w[k*N+j]:s8)))\n%s",
			 acc_forms[f].init, acc_forms[f].store);
		CHECK(analyse(text, n, p), "form %zu: %s", f, p->reason);
		CHECK(p->mode == acc_forms[f].mode, "form %zu: mode %d", f, p->mode);
		CHECK(p->mode != MP_OUT_DIRECT || (p->acc_c >= 0 && n->access[p->acc_c].is_write),
		      "form %zu: C is the output", f);
	}

	/* a row pointer copied into a local, dead after the nest (the accesses
	   already through x): bookkeeping, the nest is still fused; read
	   after the nest, it keeps the loops (tile) */
	for (int f = 0; f < 2; f++) {
		char text[2048];
		snprintf(text, sizeof text, DECLS "var s local s32\nvar xi local ptr%s\n"
			 "loop i lo=0 hi=M-1\nstmt i : xi = &x[i*K]\n"
			 "loop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
			 "loop k parent=j lo=0 hi=K-1\n"
			 "stmt k : s = (+ s (* (cast:s32 x[i*K+k]:s8) (cast:s32 w[k*N+j]:s8)))\n"
			 "stmt j : y[i*N+j]:s32 = s\n", f ? " used_after" : "");
		CHECK(analyse(text, n, p), "row pointer %d: %s", f, p->reason);
		CHECK(p->mode == (f ? MP_OUT_TILE : MP_OUT_FUSED), "row pointer %d: mode %d", f,
		      p->mode);
	}

	/* `C[i] -= -(a*b)` kept as a subtraction of a negation (GCC, with a
	   VLA's row size in the subscripts): the contraction C += a*b */
	{
		const char *negf = DECLS "var C param ptr\narray C base=C\n"
			"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
			"stmt k : C[4*i]:s32 = (- C[4*i]:s32 (neg (* (cast:s32 x[i*K+k]:s8) "
			"(cast:s32 w[k]:s8))))\n";
		CHECK(analyse(negf, n, p), "x - (-a*b): %s", p->reason);
		CHECK(p->mode == MP_OUT_DIRECT, "x - (-a*b): mode %d", p->mode);
	}

	/* tile mode, an in-memory zero point protected at run time */
	const char *tile = DECLS "var s local s32 used_after\nvar g param s32\n"
		"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s (* (- (cast:s32 x[i*K+k]:s8) g) (cast:s32 w[j*K+k]:s8)))\n"
		"stmt j : y[4*i*N+4*j]:s32 = s\n";
	CHECK(analyse(tile, n, p), "%s", p->reason);
	n->var[mp_nest_find_var(n, "g")].in_memory = 1;
	n->var[mp_nest_find_var(n, "g")].mem_size = 4;
	na = mp_plan_call_args(n, p, NULL, a, MP_MAX_CALL_ARGS);
	ncheck = p->ncheck;
	CHECK(p->mode == MP_OUT_TILE, "mode %d", p->mode);
	CHECK(a[2].cst == 0 && a[3].cst == 0, "tile mode, auto target");
	CHECK(a[17].kind == MP_ARG_NULL, "no output pointer in tile mode");
	CHECK(a[32].kind == MP_ARG_LOC, "location string");
	CHECK(a[47 + 2 * ncheck].cst == 1, "one protected variable");
	CHECK(a[48 + 2 * ncheck].kind == MP_ARG_VAR_LO && a[49 + 2 * ncheck].kind == MP_ARG_VAR_HI,
	      "protected range");
	CHECK(na == 50 + 2 * ncheck, "na %d", na);
	CHECK(mp_plan_call_args(n, p, NULL, a, 10) == -1, "too small a buffer is refused");

	/* an integer factor alpha*a*b: tile mode, alpha passed after the
	   location for the runtime to scale the tile */
	const char *alpha = DECLS "var s local s32\nvar al param s32\n"
		"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s (* (* al (cast:s32 x[i*K+k]:s8)) (cast:s32 w[j*K+k]:s8)))\n"
		"stmt j : y[4*i*N+4*j]:s32 = s\n";
	CHECK(analyse(alpha, n, p), "%s", p->reason);
	na = mp_plan_call_args(n, p, NULL, a, MP_MAX_CALL_ARGS);
	CHECK(p->mode == MP_OUT_TILE && p->alpha_expr >= 0, "alpha: tile mode %d", p->mode);
	CHECK(a[32].kind == MP_ARG_LOC && a[33].kind == MP_ARG_EXPR && a[33].expr == p->alpha_expr,
	      "alpha after the location");

	/* groups (block-quantized sums): G and the strides per group after
	   alpha; the tile holds one sum per (row, group) */
	const char *groups = DECLS "var s local s32\nvar acc local f32\nvar g iter s32\n"
		"var sc param ptr\narray sc base=sc\n"
		"loop i lo=0 hi=M-1\nstmt i : acc = 0.0:f32\nloop g parent=i lo=0 hi=N-32 step=32\n"
		"stmt g : s = 0\nloop k parent=g lo=0 hi=31\n"
		"stmt k : s = (+ s (* (cast:s32 x[g+k]:s8) (cast:s32 w[i*K+g+k]:s8)))\n"
		"stmt g : acc = (+ acc (* (cast:f32 s) sc[?]:f32))\n"
		"stmt i : y[4*i]:f32 = acc\n";
	CHECK(analyse(groups, n, p), "%s", p->reason);
	na = mp_plan_call_args(n, p, NULL, a, MP_MAX_CALL_ARGS);
	CHECK(p->mode == MP_OUT_TILE && p->loop_g == 1 && p->loop_k == 2, "groups: mode %d g %d",
	      p->mode, p->loop_g);
	CHECK(a[35].kind == MP_ARG_EXTENT && a[35].loop == p->loop_g, "G: the group loop's extent");
	CHECK(a[36].kind == MP_ARG_COEF && a[36].access == p->acc_a &&
	      a[36].var == n->loop[p->loop_g].iter, "A's stride per group");
	CHECK(a[37].kind == MP_ARG_COEF && a[37].access == p->acc_b &&
	      a[37].var == n->loop[p->loop_g].iter, "B's stride per group");

	/* a convolution: the reduction over kh, kw, ic (kh and kw summed
	   around k = ic): L = 2, then each one's extent and A's and B's
	   strides, outermost first; fused store */
	const char *conv = DECLS "var s local s32\nvar C param s32\nvar W param s32\n"
		"var kh iter s32\nvar kw iter s32\n"
		"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
		"loop kh parent=j lo=0 hi=2\nloop kw parent=kh lo=0 hi=2\n"
		"loop k parent=kw lo=0 hi=C-1\n"
		"stmt k : s = (+ s (* (cast:s32 x[kh*W+kw*C+i*C+k]:s8) "
		"(cast:s32 w[j*K+kh*C+kw*C+k]:s8)))\n"
		"stmt j : y[4*i*N+4*j]:s32 = s\n";
	CHECK(analyse(conv, n, p), "%s", p->reason);
	na = mp_plan_call_args(n, p, NULL, a, MP_MAX_CALL_ARGS);
	CHECK(p->nsum == 2 && p->loop_k == 4 && p->loop_sum[0] == 2 && p->loop_sum[1] == 3,
	      "summed loops kh, kw around k: nsum %d", p->nsum);
	CHECK(p->mode == MP_OUT_FUSED, "conv: fused store, mode %d", p->mode);
	CHECK(a[35].kind == MP_ARG_CONST && a[35].cst == 1, "no groups");
	CHECK(a[38].kind == MP_ARG_CONST && a[38].cst == 2, "L 2");
	for (int l = 0; l < 2; l++) {
		int v = n->loop[p->loop_sum[l]].iter;
		CHECK(a[39 + 3 * l].kind == MP_ARG_EXTENT && a[39 + 3 * l].loop == p->loop_sum[l],
		      "summed loop %d: extent", l);
		CHECK(a[40 + 3 * l].kind == MP_ARG_COEF && a[40 + 3 * l].access == p->acc_a &&
		      a[40 + 3 * l].var == v, "summed loop %d: A's stride", l);
		CHECK(a[41 + 3 * l].kind == MP_ARG_COEF && a[41 + 3 * l].access == p->acc_b &&
		      a[41 + 3 * l].var == v, "summed loop %d: B's stride", l);
	}
	CHECK(a[49].kind == MP_ARG_CONST && a[49].cst == 0, "no padding");
	CHECK(a[52].kind == MP_ARG_CONST && a[52].cst == p->ncheck, "ncheck after the levels");
	CHECK(na == 2 + 52 + 2 * p->ncheck, "conv na %d", na);
	CHECK(a[1].cst == na - 2, "conv nargs");

	/* a second row loop (a convolution's image rows oh around ow): its
	   extent, then A's, the output's and the bias's strides after the
	   summed loops; fused store with a bias */
	const char *rows2 = DECLS "var s local s32\nvar C param s32\nvar W param s32\n"
		"var oh iter s32\nvar kh iter s32\nvar bi param ptr\narray bi base=bi\n"
		"loop oh lo=0 hi=M-1\nloop i parent=oh lo=0 hi=7\n"
		"loop j parent=i lo=0 hi=15\nstmt j : s = bi[4*j]:s32\n"
		"loop kh parent=j lo=0 hi=2\nloop k parent=kh lo=0 hi=C-1\n"
		"stmt k : s = (+ s (* (cast:s32 x[oh*W+kh*W+i*C+k]:s8) "
		"(cast:s32 w[j*K+kh*C+k]:s8)))\n"
		"stmt j : y[512*oh+64*i+4*j]:s32 = s\n";
	CHECK(analyse(rows2, n, p), "%s", p->reason);
	na = mp_plan_call_args(n, p, NULL, a, MP_MAX_CALL_ARGS);
	CHECK(p->loop_i2 == 0 && p->loop_i == 1 && p->nsum == 1 && p->mode == MP_OUT_FUSED,
	      "rows (oh, i): i2 %d i %d nsum %d mode %d", p->loop_i2, p->loop_i, p->nsum,
	      p->mode);
	CHECK(a[38].cst == 1 && a[39].kind == MP_ARG_EXTENT, "L 1");
	CHECK(a[42].kind == MP_ARG_EXTENT && a[42].loop == p->loop_i2, "M2: the row loop's extent");
	CHECK(a[43].kind == MP_ARG_COEF && a[43].access == p->acc_a, "A's stride per block");
	CHECK(a[44].kind == MP_ARG_COEF && a[44].access == p->epi_out, "out's stride per block");
	CHECK(a[45].kind == MP_ARG_COEF && a[45].access == p->epi_bias, "bias's stride per block");
	CHECK(na == 2 + 49 + 2 * p->ncheck, "rows2 na %d", na);

	/* padding: the same with a window test on oh + kh (its value at the
	   lower corner, then its change per iteration of i, oh, k, kh) */
	const char *padded = DECLS "var s local s32\nvar C param s32\nvar W param s32\n"
		"var oh iter s32\nvar kh iter s32\nvar bi param ptr\narray bi base=bi\n"
		"cond oh+kh-1\ncond -oh-kh+M\n"
		"loop oh lo=0 hi=M-1\nloop i parent=oh lo=0 hi=7\n"
		"loop j parent=i lo=0 hi=15\nstmt j : s = bi[4*j]:s32\n"
		"loop kh parent=j lo=0 hi=2\nloop k parent=kh lo=0 hi=C-1\n"
		"stmt k guarded if=0 if=1 : s = (+ s (* (cast:s32 x[oh*W+kh*W+i*C+k-W]:s8) "
		"(cast:s32 w[j*K+kh*C+k]:s8)))\n"
		"stmt j : y[512*oh+64*i+4*j]:s32 = s\n";
	CHECK(analyse(padded, n, p), "%s", p->reason);
	na = mp_plan_call_args(n, p, NULL, a, MP_MAX_CALL_ARGS);
	CHECK(p->guard == 3 && p->loop_i2 == 0 && p->nsum == 1, "padded: guard %u i2 %d nsum %d",
	      p->guard, p->loop_i2, p->nsum);
	CHECK(a[46].kind == MP_ARG_CONST && a[46].cst == 2, "P 2");
	CHECK(a[47].cst == 0 && a[48].cst == 0, "padded element: the zero point");
	for (int c = 0; c < 2; c++) {
		const mp_arg *q = &a[49 + 5 * c];
		CHECK(q[0].kind == MP_ARG_COND_LO && q[0].access == c, "cond %d: value at the corner", c);
		CHECK(q[1].kind == MP_ARG_COND_COEF && q[1].var == n->loop[p->loop_i].iter,
		      "cond %d: per row", c);
		CHECK(q[2].kind == MP_ARG_COND_COEF && q[2].var == n->loop[p->loop_i2].iter,
		      "cond %d: per block of rows", c);
		CHECK(q[3].kind == MP_ARG_COND_COEF && q[3].var == n->loop[p->loop_k].iter,
		      "cond %d: per k", c);
		CHECK(q[4].kind == MP_ARG_COND_COEF && q[4].var == n->loop[p->loop_sum[0]].iter,
		      "cond %d: per summed loop", c);
	}
	CHECK(na == 2 + 49 + 10 + 2 * p->ncheck, "padded na %d", na);

	/* floating-point source, DIRECT: the list of __mixprec_lp_nest */
	const char *fdirect = DECLS "loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : y[8*i*N+8*j]:f64 = (+ y[8*i*N+8*j]:f64 "
		"(* x[8*i*K+8*k]:f64 w[8*k*N+8*j]:f64))\n";
	mp_pragma fpr = { .prec = MP_PREC_FP8_E4M3, .lp_capable = 1 };
	CHECK(mp_nest_parse(n, fdirect) == 0, "parse: %s", n->error);
	CHECK(mp_analyze(n, &fpr, p), "%s", p->reason);
	CHECK(p->src_float && p->src_type == MP_TY_F64 && p->mode == MP_OUT_DIRECT, "float plan");
	na = mp_plan_call_args(n, p, &fpr, a, MP_MAX_CALL_ARGS);
	ncheck = p->ncheck;
	CHECK(na == 2 + 40 + 2 * ncheck, "lp na %d ncheck %d", na, ncheck);
	CHECK(a[1].cst == na - 2, "lp nargs");
	CHECK(a[2].cst == 1 && a[3].cst == 0, "direct, auto target");
	CHECK(a[4].cst == 3 && a[5].cst == 1, "lp fp8_e4m3 = 3, is_double");
	CHECK(a[6].kind == MP_ARG_EXTENT && a[8].kind == MP_ARG_EXTENT, "extents");
	CHECK(a[9].kind == MP_ARG_ADDR && a[9].access == p->acc_a, "A address");
	CHECK(a[10].kind == MP_ARG_COEF && a[11].kind == MP_ARG_COEF, "A strides");
	CHECK(a[12].kind == MP_ARG_ADDR && a[12].access == p->acc_b, "B address");
	CHECK(a[15].kind == MP_ARG_ADDR && a[15].access == p->acc_c, "C address");
	{
		double one;
		memcpy(&one, &a[18].cst, sizeof one);
		CHECK(a[18].kind == MP_ARG_CONST && one == 1.0, "alpha 1.0 when none");
	}
	CHECK(a[19].cst == 0 && a[20].cst == 1 && a[21].cst == 0 && a[22].cst == 1,
	      "no zero points: 0, sign 1");
	for (int q = 23; q < 31; q++)
		CHECK((a[q].kind == MP_ARG_CONST && a[q].cst == 0) || a[q].kind == MP_ARG_NULL,
		      "dynamic scales: zeros (arg %d)", q);
	CHECK(a[31].kind == MP_ARG_CONST && a[31].cst == 0, "flags: no verify");
	CHECK(a[32].kind == MP_ARG_LOC, "location string");
	CHECK(a[33].kind == MP_ARG_CONST && a[33].cst == 0, "lp: no summed loops, L 0");
	CHECK(a[34].kind == MP_ARG_CONST && a[34].cst == -1 && a[35].cst == 0 && a[36].cst == 0,
	      "lp: no second row loop, M2 -1 (ABI 10)");
	CHECK(a[37].kind == MP_ARG_CONST && a[37].cst == 0, "lp: no padding, P 0");
	CHECK(a[40].kind == MP_ARG_CONST && a[40].cst == ncheck, "lp ncheck");
	CHECK(a[41 + 2 * ncheck].cst == 0, "lp nprot");

	/* a float convolution (issue 9): the summed loop, the second row
	   loop's place and the padding after the location, as in the integer
	   list */
	const char *fconv = DECLS "var h iter s32\ncond i+h-1\ncond -i-h+M\n"
		"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
		"loop h parent=j lo=0 hi=2\nloop k parent=h lo=0 hi=K-1 if=0 if=1\n"
		"stmt k : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 "
		"(* x[4*i*K+4*h*K+4*k-4*K]:f32 w[4*j*K+4*h*K+4*k]:f32))\n";
	mp_pragma bpr = { .prec = MP_PREC_BF16, .lp_capable = 1 };
	CHECK(mp_nest_parse(n, fconv) == 0, "parse: %s", n->error);
	CHECK(mp_analyze(n, &bpr, p), "float conv: %s", p->reason);
	CHECK(p->src_float && p->nsum == 1 && p->guard == 3, "float conv: nsum %d guard %u",
	      p->nsum, p->guard);
	na = mp_plan_call_args(n, p, &bpr, a, MP_MAX_CALL_ARGS);
	CHECK(a[33].kind == MP_ARG_CONST && a[33].cst == 1, "float conv: L 1");
	CHECK(a[34].kind == MP_ARG_EXTENT && a[34].loop == p->loop_sum[0], "float conv: extent");
	CHECK(a[35].kind == MP_ARG_COEF && a[35].access == p->acc_a, "float conv: A's stride");
	CHECK(a[37].kind == MP_ARG_CONST && a[37].cst == -1, "float conv: M2 -1");
	CHECK(a[40].kind == MP_ARG_CONST && a[40].cst == 2, "float conv: P 2");
	CHECK(a[43].kind == MP_ARG_COND_LO && a[48].kind == MP_ARG_COND_LO, "float conv: conditions");
	CHECK(na == 2 + 40 + 3 + 10 + 2 * p->ncheck, "float conv na %d", na);

	/* alpha * x * w with scale=(0.5, ws[j]) and verify: the factor as a
	   double, A one value, B per column (pointer advanced by loop j's lower
	   bound), the verify flag */
	const char *falpha = DECLS "var al param f64\nloop i lo=0 hi=M-1\n"
		"loop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
		"stmt k : y[8*i*N+8*j]:f64 = (+ y[8*i*N+8*j]:f64 "
		"(* (* al x[8*i*K+8*k]:f64) w[8*k*N+8*j]:f64))\n";
	mp_pragma spr = { .prec = MP_PREC_INT8, .lp_capable = 1, .verify = 1,
			  .scale = MP_SCALE_EXPR, .nsspec = 2 };
	spr.sspec[0].kind = MP_SS_NUMBER;
	spr.sspec[0].value = 0.5;
	spr.sspec[1].kind = MP_SS_INDEXED;
	strcpy(spr.sspec[1].name, "ws");
	strcpy(spr.sspec[1].index, "j");
	spr.sspec[1].elem = MP_TY_F32;
	CHECK(mp_nest_parse(n, falpha) == 0, "parse: %s", n->error);
	CHECK(mp_analyze(n, &spr, p), "%s", p->reason);
	CHECK(p->alpha_expr >= 0, "alpha recognised");
	na = mp_plan_call_args(n, p, &spr, a, MP_MAX_CALL_ARGS);
	CHECK(a[18].kind == MP_ARG_EXPR_F64 && a[18].expr == p->alpha_expr, "alpha as f64");
	{
		double h;
		memcpy(&h, &a[24].cst, sizeof h);
		CHECK(a[23].cst == 1 && h == 0.5 && a[25].kind == MP_ARG_NULL, "A: one value 0.5");
	}
	CHECK(a[27].cst == 2 && a[29].kind == MP_ARG_SCALE_PTR && a[29].cst == 1 &&
	      a[29].loop == p->loop_j && a[30].cst == 0, "B: per column, float array");
	CHECK(a[31].cst == 1, "verify flag");
	/* indexed by the wrong iterator: refused by name */
	strcpy(spr.sspec[1].index, "i");
	CHECK(!mp_analyze(n, &spr, p) && strstr(p->reason, "must be indexed by 'j'"),
	      "wrong iterator: %s", p->reason);
	/* a name the glue could not resolve to float/double */
	strcpy(spr.sspec[1].index, "j");
	spr.sspec[1].elem = MP_TY_S32;
	CHECK(!mp_analyze(n, &spr, p) && strstr(p->reason, "not a float or double"),
	      "int scale: %s", p->reason);
	spr.sspec[1].elem = MP_TY_F32;
	/* constant=: names an operand (flag 4 for B), or is refused by name */
	spr.nconstant = 1;
	strcpy(spr.constant[0], "w");
	CHECK(mp_analyze(n, &spr, p) && p->const_b && !p->const_a, "constant=w: %s", p->reason);
	na = mp_plan_call_args(n, p, &spr, a, MP_MAX_CALL_ARGS);
	CHECK(a[31].cst == (1 | 4), "flags verify + B constant: %lld", (long long)a[31].cst);
	strcpy(spr.constant[0], "q");
	CHECK(!mp_analyze(n, &spr, p) && strstr(p->reason, "constant=q names no operand"),
	      "constant=q: %s", p->reason);
	spr.nconstant = 0;
	/* a zero point on a float operand: x + m (sign -1), as a double's bits */
	const char *fzp = DECLS "var m param f64\nloop i lo=0 hi=M-1\n"
		"loop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
		"stmt k : y[8*i*N+8*j]:f64 = (+ y[8*i*N+8*j]:f64 "
		"(* (+ x[8*i*K+8*k]:f64 m) w[8*k*N+8*j]:f64))\n";
	CHECK(mp_nest_parse(n, fzp) == 0, "parse: %s", n->error);
	fpr.lp_capable = 1;
	CHECK(mp_analyze(n, &fpr, p), "%s", p->reason);
	na = mp_plan_call_args(n, p, &fpr, a, MP_MAX_CALL_ARGS);
	CHECK(a[19].kind == MP_ARG_EXPR_F64 && a[19].expr == p->za_expr && a[20].cst == -1 &&
	      a[21].cst == 0 && a[22].cst == 1, "zero point of A: value and sign -1");
	/* without lp_capable (a glue that cannot emit the call) it is refused */
	fpr.lp_capable = 0;
	CHECK(!mp_analyze(n, &fpr, p) && strstr(p->reason, "not supported yet"), "no lp glue");

	free(n);
	free(p);
	CT_DONE("test_args");
}
