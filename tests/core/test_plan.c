/* test_plan.c -- table-driven tests of mp_analyze.
 *
 * Each row is a nest in the text format (docs/nest-format.md), the pragma
 * clauses that differ from '#pragma mixprec(int8)', and the expected plan:
 * verdict, mode, loop roles, operand arrays, bounds, run-time checks and
 * substrings of the reason / remarks.  Every row is also round-tripped
 * through mp_nest_print / mp_nest_parse.  The six loop orders of a perfect
 * nest are generated.
 */
#include "mp_nest.h"
#include "mp_model.h"
#include "core_test.h"

#include <inttypes.h>
#include <stdint.h>

#define NOCHK (-99)

typedef struct pcase {
	const char *name;
	const char *text;
	mp_prec prec;          /* 0: int8 */
	mp_accty acc;
	mp_scale_kind scale;
	int ok;
	mp_out_mode mode;
	const char *li, *lj, *lk;  /* iterator names, "-" = none, NULL = skip */
	const char *a, *b;         /* operand arrays */
	const char *acc_var;       /* TILE scalar accumulator */
	int64_t kext, bound;       /* NOCHK = skip */
	int rtb;                   /* need_runtime_bound, NOCHK = skip */
	int ncheck1;               /* expected ncheck + 1, 0 = skip */
	int rif1;                  /* expected red_iter_final + 1, 0 = skip */
	int zsa, zsb;              /* zsign_a / zsign_b, NOCHK = skip */
	const char *reason;        /* substring of the refusal */
	int reason_loc;            /* 0 = skip */
	const char *what, *layout; /* substrings of the remarks */
	/* MP_OUT_FUSED (checked when mode == MP_OUT_FUSED) */
	mp_epi_kind epi;
	const char *eout, *ebias;  /* arrays; "-" = no bias, NULL = skip */
	mp_scalar etype;           /* epi_out_type, 0 = skip */
	int64_t einit;
	const char *eargs;         /* epi_arg[] rendered, "a,b,...", NULL = skip */
	/* floating-point sources */
	int nolp;                  /* the glue cannot emit __mixprec_lp_nest */
	mp_scalar srct;            /* expected src_type (src_float = 1); 0: an
	                              integer plan (src_float = 0) */
} pcase;

/* Common bodies ----------------------------------------------------- */

#define PROD(A, B) "(* (cast:s32 " A ") (cast:s32 " B "))"

/* i { j { s = 0; k { s += x[i,k]*w[j,k] }; y[i,j] = s } } */
#define TILE_SCALAR(XA, WB) DECLS "var s local s32\n" \
	"loop i lo=0 hi=M-1 loc=1\n" \
	"loop j parent=i lo=0 hi=N-1 loc=2\n" \
	"stmt j loc=3 : s = 0\n" \
	"loop k parent=j lo=0 hi=K-1 loc=4\n" \
	"stmt k loc=5 : s = (+ s " PROD(XA, WB) ")\n" \
	"stmt j loc=6 : y[4*i*N+4*j]:s32@7 = s\n"

/* i { j { s = INIT; k { s += x[i,k]*w[j,k] }; STORE } } with a bias
 * pointer b and the extra declarations DECL. */
/* Floating-point sources: i { j { s = INIT; k { s += P }; y[i,j] = s } }
 * with element type T (f32 / f64) and product P. */
#define FTILE(T, SZ, P) DECLS "var s local " T "\n" \
	"loop i lo=0 hi=M-1 loc=1\n" \
	"loop j parent=i lo=0 hi=N-1 loc=2\n" \
	"stmt j loc=3 : s = 0.0:" T "\n" \
	"loop k parent=j lo=0 hi=K-1 loc=4\n" \
	"stmt k loc=5 : s = (+ s " P ")\n" \
	"stmt j loc=6 : y[" SZ "*i*N+" SZ "*j]:" T " = s\n"
#define FPROD32 "(* x[4*i*K+4*k]:f32@8 w[4*k*N+4*j]:f32@9)"
#define FPROD64 "(* x[8*i*K+8*k]:f64@8 w[8*k*N+8*j]:f64@9)"

#define FUSED_IJ(DECL, INIT, STORE) DECLS "var s local s32\nvar b param ptr\n" \
	"array b base=b\n" DECL \
	"loop i lo=0 hi=M-1\n" \
	"loop j parent=i lo=0 hi=N-1\n" \
	"stmt j : " INIT "\n" \
	"loop k parent=j lo=0 hi=K-1\n" \
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n" \
	"stmt j : " STORE "\n"

/* i { j { s = 0; k { s += XA*WB }; y[i,j] = s } } with the bounds of i
 * and j given ("lo=.. hi=.."), j at loc 2 */
#define TRI_SCALAR(BI, BJ, XA, WB) DECLS "var s local s32\n" \
	"loop i " BI " loc=1\n" \
	"loop j parent=i " BJ " loc=2\n" \
	"stmt j loc=3 : s = 0\n" \
	"loop k parent=j lo=0 hi=K-1 loc=4\n" \
	"stmt k loc=5 : s = (+ s " PROD(XA, WB) ")\n" \
	"stmt j loc=6 : y[4*i*N+4*j]:s32@7 = s\n"

static const pcase cases[] = {
/* Iterators read outside their own loop (issue 14): the TILE rewrite must
 * give the reduction iterator its final value. */
{ .name = "reduction iterator read by the next output's init (s = k)",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = k\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .rif1 = 2 },
{ .name = "reduction iterator read by the epilogue (y = s + k)",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ s k)\n",
  .ok = 1, .mode = MP_OUT_TILE, .rif1 = 2 },
{ .name = "reduction iterator read only in its loop: no final value",
  .text = TILE_SCALAR("x[i*K+k]:s8", "w[j*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_FUSED, .rif1 = 1 },
{ .name = "reduction iterator in a subscript after its loop",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j+4*k]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .rif1 = 2 },
{ .name = "sibling k loops sharing one variable, read between them",
  .text = DECLS "var s local s32\nvar k2 iter s32 same_as k\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=2\n"
	"stmt k : y[4*i*N]:s32 = (+ y[4*i*N]:s32 k)\n"
	"loop j parent=i lo=0 hi=N-1\nstmt j : s = k\n"
	"loop k2 parent=j lo=0 hi=K-1\n"
	"stmt k2 : s = (+ s " PROD("x[i*K+k2]:s8", "w[j*K+k2]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .lk = "k2", .rif1 = 2 },
/* Reductions unrolled along k with a remainder loop (mp_reroll, issue 8):
 * one loop of step 1 when the unrolled updates are the remainder's at
 * the offsets 0 .. step-1. */
#define UNROLLED(HI4, BODY4) DECLS "var s local s32\nvar k4 iter s32 same_as k\n" \
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j pos=0 : s = 0\n" \
	"loop k parent=j pos=2 lo=0 hi=K-1 after=k4\n" \
	"stmt k pos=0 : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n" \
	"loop k4 parent=j pos=1 lo=0 hi=" HI4 " step=4\n" BODY4 \
	"stmt j pos=3 : y[4*i*N+4*j]:s32 = s\n"
#define P4(O) PROD("x[i*K+k4" O "]:s8", "w[j*K+k4" O "]:s8")
{ .name = "k unrolled by 4 in one update, remainder loop listed first (GCC's order)",
  .text = UNROLLED("K-4", "stmt k4 pos=0 : s = (+ s (+ (+ (+ " P4("") " " P4("+1") ") " P4("+2")
		   ") " P4("+3") "))\n"),
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k4", .a = "x", .b = "w" },
{ .name = "k unrolled by 4 in four updates, offsets shuffled",
  .text = UNROLLED("K-4", "stmt k4 pos=0 : s = (+ s " P4("+2") ")\n"
		   "stmt k4 pos=1 : s = (+ s " P4("") ")\n"
		   "stmt k4 pos=2 : s = (+ " P4("+3") " s)\n"
		   "stmt k4 pos=3 : s = (+ s " P4("+1") ")\n"),
  .ok = 1, .mode = MP_OUT_FUSED, .lk = "k4" },
{ .name = "k unrolled by 4: offset 3 missing",
  .text = UNROLLED("K-4", "stmt k4 pos=0 : s = (+ s (+ (+ " P4("") " " P4("+1") ") " P4("+2")
		   "))\n"),
  .ok = 0, .reason = "continues where the loop before it on 'k' stopped" },
{ .name = "k unrolled by 4 may stop past the remainder's bound (k + 2 < K)",
  .text = UNROLLED("K-3", "stmt k4 pos=0 : s = (+ s (+ (+ (+ " P4("") " " P4("+1") ") " P4("+2")
		   ") " P4("+3") "))\n"),
  .ok = 0, .reason = "understood only as the remainder loop" },
{ .name = "k unrolled by 4: an update of another accumulator",
  .text = UNROLLED("K-4", "stmt k4 pos=0 : s = (+ s (+ (+ " P4("") " " P4("+1") ") " P4("+2")
		   "))\nstmt k4 pos=1 : y[0]:s32 = (+ y[0]:s32 " P4("+3") ")\n"),
  .ok = 0, .reason = "continues where the loop before it" },
{ .name = "sibling j loops sharing one variable (PolyBench's int i, j, k)",
  .text = DECLS "var j2 iter s32 same_as j\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:s32 = (* y[4*i*N+4*j]:s32 3)\n"
	"loop k parent=i lo=0 hi=K-1\nloop j2 parent=k lo=0 hi=N-1\n"
	"stmt j2 : y[4*i*N+4*j2]:s32 = (+ y[4*i*N+4*j2]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j2]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j2", .lk = "k" },
{ .name = "sibling j loops: the one below k read after both",
  .text = DECLS "var j2 iter s32 same_as j\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:s32 = (* y[4*i*N+4*j]:s32 3)\n"
	"loop k parent=i lo=0 hi=K-1\nloop j2 parent=k lo=0 hi=N-1 loc=3\n"
	"stmt j2 : y[4*i*N+4*j2]:s32 = (+ y[4*i*N+4*j2]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j2]:s8") ")\n"
	"stmt i : y[4*i*N]:s32 = j\n",
  .ok = 0, .reason = "the iterator 'j2' is read after its loop", .reason_loc = 3 },
/* Operand values copied into locals (issue 8): forwarded into the product */
{ .name = "int copy of A(i,k) in loop k, ikj order (darknet's A_PART)",
  .text = DECLS "var a local s32\nloop i lo=0 hi=M-1\n"
	"loop k parent=i lo=0 hi=K-1\nstmt k : a = (cast:s32 x[i*K+k]:s8)\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 (* a (cast:s32 w[k*N+j]:s8)))\n",
  .ok = 1, .mode = MP_OUT_DIRECT, .a = "x", .b = "w" },
{ .name = "both operands copied, offsets added at the product (TFLM)",
  .text = DECLS "var s local s32\nvar xv local s32\nvar wv local s32\n"
	"var zx param s32\nvar zw param s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : xv = (cast:s32 x[i*K+k]:s8)\nstmt k : wv = (cast:s32 w[j*K+k]:s8)\n"
	"stmt k : s = (+ s (* (+ wv zw) (+ xv zx)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .zsa = -1, .zsb = -1 },
{ .name = "chain of copies through a narrower type, offset in the copy",
  .text = DECLS "var s local s32\nvar t8 local u8\nvar t16 local s16\nvar t local s32\n"
	"var zx param s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : t8 = x[i*K+k]:u8\nstmt k : t16 = (cast:s16 t8)\n"
	"stmt k : t = (- (cast:s32 t16) zx)\n"
	"stmt k : s = (+ s (* t (cast:s32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .prec = MP_PREC_UINT8, .ok = 1, .mode = MP_OUT_FUSED, .zsa = 1 },
{ .name = "a copy read before it is set (the previous k's value): no contraction",
  .text = DECLS "var s local s32\nvar a local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (* a (cast:s32 w[j*K+k]:s8)))\n"
	"stmt k : a = (cast:s32 x[i*K+k]:s8)\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "no contraction found" },
{ .name = "a copy also read after the reduction: no contraction",
  .text = DECLS "var s local s32\nvar a local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : a = (cast:s32 x[i*K+k]:s8)\n"
	"stmt k : s = (+ s (* a (cast:s32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ s a)\n",
  .ok = 0, .reason = "no contraction found" },
{ .name = "a copy assigned twice: no contraction",
  .text = DECLS "var s local s32\nvar a local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : a = (cast:s32 x[i*K+k]:s8)\nstmt k : a = (* a 2)\n"
	"stmt k : s = (+ s (* a (cast:s32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "no contraction found" },
/* Walking pointers (mp_walk_resolve) */
{ .name = "walking pointer: reset per output, *p++ in the reduction",
  .text = DECLS "var s local s32\nvar p local ptr\narray p base=p\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : p = &x[i*K]\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("p[0]:s8", "w[j*K+k]:s8") ")\nstmt k : p = &p[1]\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .a = "x", .b = "w", .li = "i", .lj = "j" },
{ .name = "walking pointer: reset per row, continues across columns",
  .text = DECLS "var s local s32\nvar p local ptr\narray p base=p\n"
	"loop i lo=0 hi=M-1\nstmt i : p = &w[0]\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "p[0]:s8") ")\nstmt k : p = &p[1]\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .a = "x", .b = "w", .li = "i", .lj = "j" },
{ .name = "walking pointer: continuing across three loops (i*N*K + j*K + k) is a second reduction",
  .text = DECLS "var s local s32\nvar p local ptr\narray p base=p\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "p[0]:s8") ")\nstmt k : p = &p[1]\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "loop 'i' indexes both operands 'x' and 'p' and the output" },
{ .name = "walking pointer: conditional step is not followed",
  .text = DECLS "var s local s32\nvar p local ptr\narray p base=p\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : p = &x[i*K]\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("p[0]:s8", "w[j*K+k]:s8") ")\nstmt k guarded : p = &p[1]\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "read through pointer 'p', which the nest changes" },
{ .name = "walking pointer: two resets are not followed",
  .text = DECLS "var s local s32\nvar p local ptr\narray p base=p\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : p = &x[i*K]\nstmt j : p = &w[0]\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("p[0]:s8", "w[j*K+k]:s8") ")\nstmt k : p = &p[1]\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "read through pointer 'p'" },
{ .name = "walking pointer: stepped in the reduction loop, read after it",
  .text = DECLS "var s local s32\nvar p local ptr\narray p base=p\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : p = &x[i*K]\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("p[0]:s8", "w[j*K+k]:s8") ")\nstmt k : p = &p[1]\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ s (cast:s32 p[-1]:s8))\n",
  .ok = 1, .mode = MP_OUT_TILE, .a = "x" },
/* Fixed-size array parameters: C's in-bounds rule makes C[i][j] injective */
{ .name = "fixed-size output C[NI][44], run-time nj: direct with the bound",
  .text = DECLS "loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[176*i+4*j]:s32{j<44} = (+ y[176*i+4*j]:s32{j<44} " PROD("x[48*i+k]:s8{k<48}", "w[44*k+j]:s8{j<44}") ")\n",
  .ok = 1, .mode = MP_OUT_DIRECT },
{ .name = "fixed-size output without the bound: not one element per point",
  .text = DECLS "loop k lo=0 hi=K-1\nloop j parent=k lo=0 hi=N-1\nloop i parent=j lo=0 hi=M-1\n"
	"stmt i : y[176*i+4*j]:s32 = (+ y[176*i+4*j]:s32 " PROD("x[48*i+k]:s8", "w[44*k+j]:s8") ")\n",
  .ok = 0, .reason = "not one element per (i, j) point" },
/* The pragma on an inner loop: the hint names the enclosing loop */
{ .name = "matrix-vector per row of a GEMM: the remark suggests the outer loop",
  .text = "var M param s32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\n"
	"var i param s32 outer_iter\nvar j iter s32\nvar k iter s32\nvar s local s32\n"
	"array x base=x\narray w base=w\narray y base=y\n"
	"loop j lo=0 hi=N-1\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .what = "matrix-vector" },
/* count-down loops (step -1) */
{ .name = "count-down loops i, k (step -1), final values",
  .text = "var M param s32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\n"
	"var i iter s32 used_after\nvar j iter s32\nvar k iter s32\nvar s local s32\n"
	"array x base=x\narray w base=w\narray y base=y\n"
	"loop i lo=0 hi=M-1 step=-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1 step=-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lk = "k" },
{ .name = "step -2: refused",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1 step=-2 loc=9\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "step -2", .reason_loc = 9 },
/* `!=` exit tests */
{ .name = "!= exit test on an int iterator",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1 ne_exit\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1 ne_exit\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED },
{ .name = "!= exit test on an unsigned iterator from 0",
  .text = "var M param u32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\n"
	"var i iter u32\nvar j iter s32\nvar k iter s32\nvar s local s32\n"
	"array x base=x\narray w base=w\narray y base=y\n"
	"loop i lo=0 hi=M-1 ne_exit\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED },
{ .name = "!= exit test on an unsigned iterator from 1: refused",
  .text = "var M param u32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\n"
	"var i iter u32\nvar j iter s32\nvar k iter s32\nvar s local s32\n"
	"array x base=x\narray w base=w\narray y base=y\n"
	"loop i lo=1 hi=M-1 ne_exit loc=9\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "exit test of loop 'i' is '!='", .reason_loc = 9 },
{ .name = "ijk tile, scalar acc used after the nest, B transposed",
  .text = DECLS "var s local s32 used_after\n"
	"loop i lo=0 hi=M-1 loc=1\n"
	"loop j parent=i lo=0 hi=N-1 loc=2\n"
	"stmt j loc=3 : s = 0\n"
	"loop k parent=j lo=0 hi=K-1 loc=4\n"
	"stmt k loc=5 : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j loc=6 : y[4*i*N+4*j]:s32@7 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .acc_var = "s", .kext = -1, .bound = -1, .rtb = 1, .ncheck1 = 2, .zsa = 0, .zsb = 0,
  .what = "int8 contraction over k: y[i,j] <- s = sum_k x[i,k]*w[j,k] (s8 x s8 -> s32)",
  .layout = "A=x (k contiguous), B=w (transposed: k contiguous), tile mode (epilogue kept)" },

{ .name = "fused store: s = 0; s += P; y[i,j] = s into int32",
  .text = TILE_SCALAR("x[i*K+k]:s8", "w[j*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .acc_var = "s", .kext = -1, .bound = -1, .rtb = 1, .ncheck1 = 2,
  .epi = MP_FUSE_STORE, .eout = "y", .ebias = "-", .etype = MP_TY_S32, .einit = 0,
  .eargs = "",
  .what = "int8 contraction over k: y[i,j] = sum_k x[i,k]*w[j,k] (s8 x s8 -> s32)",
  .layout = "A=x (k contiguous), B=w (transposed: k contiguous), fused epilogue: "
	"store -> s32 out y[i,j], run-time overlap check, run-time bound check" },

{ .name = "operands swapped: B first in the product",
  .text = TILE_SCALAR("w[j*K+k]:s8", "x[i*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_FUSED, .li = "j", .lj = "i", .lk = "k", .a = "w", .b = "x",
  .kext = -1, .rtb = 1 },

{ .name = "static K: bound computed",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=63\n"
	"stmt k : s = (+ " PROD("x[64*i+k]:s8", "w[64*j+k]:s8") " s)\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k",
  .kext = 64, .bound = 64 * 128 * 128, .rtb = 0 },

{ .name = "u8 x s8 with constant zero point on x (a - 128), static K",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=1 hi=100\n"
	"stmt k : s = (+ s (* (- (cast:s32 x[i*K+k]:u8) 128) (cast:s32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .a = "x", .b = "w", .kext = 100,
  .bound = 100 * 128 * 128, .rtb = 0, .zsa = 1, .zsb = 0,
  .what = "(u8 x s8 -> s32, zero point on x)" },

{ .name = "u8 x u8, no zero point",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=255\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:u8", "w[j*K+k]:u8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .prec = MP_PREC_UINT8, .ok = 1, .mode = MP_OUT_FUSED, .kext = 256, .bound = 256 * 255 * 255, .rtb = 0,
  .what = "uint8 contraction" },

{ .name = "zero points: x - zx (param), w + 3 (constant, via casts)",
  .text = DECLS "var s local s32\nvar zx param s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (* (- (cast:s32 (cast:s16 x[i*K+k]:s8)) zx) "
	"(+ (cast:s32 w[j*K+k]:s8) (cast:s32 3:s8))))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .zsa = 1, .zsb = -1, .rtb = 1, .bound = -1,
  .what = "zero points on x and w" },

{ .name = "constant zero point added first: (5 + w) with K = 10",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=9\n"
	"stmt k : s = (+ s (* (cast:s32 x[i*K+k]:s8) (+ 5 (cast:s32 w[j*K+k]:s8))))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .zsb = -1, .kext = 10, .bound = 10 * 128 * 132, .rtb = 0 },

{ .name = "init from bias and requantizing epilogue (tile)",
  .text = DECLS "var s local s32\nvar bias param ptr\narray bias base=bias\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : s = bias[4*j]:s32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[i*N+j]:s8 = (cast:s8 (other:s32 \"mp_requant\" s _))\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .ncheck1 = 2,
  .what = "y[i,j] <- s" },

{ .name = "2-D VLA subscripts: byte offsets with row-byte parameters",
  .text = DECLS "var s local s32\nvar rbx param s64\nvar rbw param s64\nvar rby param s64\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*rbx+k]:s8", "w[k*rbw+j]:s8") ")\n"
	"stmt j : y[i*rby+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k",
  .layout = "B=w (j contiguous)" },

{ .name = "direct: perfect ijk nest into an injective int32 output",
  .text = DECLS
	"loop i lo=0 hi=M-1 loc=1\nloop j parent=i lo=0 hi=N-1\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_DIRECT, .li = "i", .lj = "j", .lk = "k", .ncheck1 = 2,
  .layout = "direct mode", .what = "y[i,j] += sum_k x[i,k]*w[k,j]" },

{ .name = "memory accumulator, output not injective in (i,j): tile",
  .text = DECLS
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i+4*j]:s32 = (+ y[4*i+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_TILE },

{ .name = "memory accumulator with init statement: tile, acc_mem",
  .text = DECLS
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:s32 = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:s32 = (+ " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") " y[4*i*N+4*j]:s32)\n",
  .ok = 1, .mode = MP_OUT_TILE, .what = "y[i,j] += sum_k" },

{ .name = "matrix-vector, direct",
  .text = DECLS
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
	"stmt k : y[4*i]:s32 = (+ y[4*i]:s32 " PROD("x[i*K+k]:s8", "w[k]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_DIRECT, .li = "i", .lj = "-", .lk = "k", .a = "x", .b = "w",
  .what = "matrix-vector product", .layout = "B=w (vector)" },

{ .name = "matrix-vector with the vector first: normalised A(i,k), B(k)",
  .text = DECLS "var s local s32\n"
	"loop j lo=0 hi=N-1\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "j", .lj = "-", .lk = "k", .a = "w", .b = "x" },

{ .name = "same declared array read and written, provably disjoint",
  .text = "var i iter s32\nvar j iter s32\nvar k iter s32\nvar s local s32\n"
	"array buf decl size=4096\n"
	"loop i lo=0 hi=3\nloop j parent=i lo=0 hi=3\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=63\n"
	"stmt k : s = (+ s " PROD("buf[64*i+k]:s8", "buf[256+64*j+k]:s8") ")\n"
	"stmt j : buf[1024+16*i+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .ncheck1 = 1, .kext = 64, .rtb = 0 },

{ .name = "identity casts around the product and the accumulator (s32 -> s32)",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ (cast:s32 s) (cast:s32 (* (cast:s32 (cast:s32 x[i*K+k]:s8)) "
	"(cast:s32 (cast:s16 w[j*K+k]:s8)))))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k" },

{ .name = "unsigned 32-bit accumulator",
  .text = DECLS "var s local u32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0:u32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k loc=5 : s = (+ s (cast:u32 " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") "))\n"
	"stmt j : y[4*i*N+4*j]:u32 = s\n",
  .ok = 0, .reason = "accumulator 's' is u32", .reason_loc = 5 },

/* ------------------------------------------------- fused epilogues */

{ .name = "fused fp32: bias[j], (int8_t) mp_requant_fp32(s, sc, zy, -128, 127)",
  .text = FUSED_IJ("var sc param f32\nvar zy param s32\n",
	"s = b[4*j]:s32",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_requant_fp32\" s sc zy -128 127))"),
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .acc_var = "s", .ncheck1 = 2,
  .epi = MP_FUSE_FP32, .eout = "y", .ebias = "b", .etype = MP_TY_S8, .einit = 0,
  .eargs = "sc,zy,-128,127",
  .what = "int8 contraction over k: y[i,j] = mp_requant_fp32(b[j] + sum_k "
	"x[i,k]*w[j,k]) (s8 x s8 -> s32)",
  .layout = "fused epilogue: mp_requant_fp32 -> s8 out y[i,j], bias b[j], "
	"run-time overlap check" },

{ .name = "fused fp32: constant scale, converted double scale, zy folded",
  .text = FUSED_IJ("var sd param f64\nvar zy param s32\n",
	"s = 0",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_requant_fp32\" s (cast:f32 (* sd 0.5)) "
	"zy (- -128 zy) (cast:s32 127:s8)))"),
  .ok = 1, .mode = MP_OUT_FUSED, .epi = MP_FUSE_FP32, .eout = "y", .ebias = "-",
  .etype = MP_TY_S8, .eargs = "(f32)(sd*0.5),zy,(-128-zy),(s32)127",
  .layout = "fused epilogue: mp_requant_fp32 -> s8 out y[i,j], run-time" },

{ .name = "fused gemmlowp into u8: init bias[i] + 7",
  .text = FUSED_IJ("var qm param s32\nvar sh param s32\n",
	"s = (+ b[4*i]:s32 7)",
	"y[i*N+j]:u8 = (cast:u8 (call:s32 \"mp_requant_gemmlowp\" s qm sh 128 0 255))"),
  .ok = 1, .mode = MP_OUT_FUSED, .epi = MP_FUSE_GEMMLOWP, .eout = "y", .ebias = "b",
  .etype = MP_TY_U8, .einit = 7, .eargs = "qm,sh,128,0,255",
  .what = "y[i,j] = mp_requant_gemmlowp(7 + b[i] + sum_k x[i,k]*w[j,k])",
  .layout = "fused epilogue: mp_requant_gemmlowp -> u8 out y[i,j], bias b[i], init 7" },

{ .name = "fused rndnu, jik order, init -3 + bias[j] through an identity cast",
  .text = DECLS "var s local s32\nvar b param ptr\narray b base=b\n"
	"var qm param s32\nvar sh param s32\nvar zy param s32\n"
	"loop j lo=0 hi=N-1\nloop i parent=j lo=0 hi=M-1\n"
	"stmt i : s = (cast:s32 (+ -3 b[4*j]:s32))\n"
	"loop k parent=i lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt i : y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_requant_rndnu\" (cast:s32 s) "
	"qm sh zy -128 127))\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k",
  .epi = MP_FUSE_RNDNU, .eout = "y", .ebias = "b", .etype = MP_TY_S8, .einit = -3,
  .eargs = "qm,sh,zy,-128,127",
  .layout = "fused epilogue: mp_requant_rndnu -> s8 out y[i,j], bias b[j], init -3" },

{ .name = "fused clamp into int32, no cast",
  .text = FUSED_IJ("var lo param s32\n",
	"s = 0",
	"y[4*i*N+4*j]:s32 = (call:s32 \"mp_clamp_i32\" s (neg lo) lo)"),
  .ok = 1, .mode = MP_OUT_FUSED, .epi = MP_FUSE_CLAMP, .eout = "y", .ebias = "-",
  .etype = MP_TY_S32, .einit = 0, .eargs = "(-lo),lo",
  .what = "y[i,j] = mp_clamp_i32(sum_k x[i,k]*w[j,k])",
  .layout = "fused epilogue: mp_clamp_i32 -> s32 out y[i,j], run-time" },

{ .name = "fused clamp into int8 with a cast",
  .text = FUSED_IJ("",
	"s = b[4*j]:s32",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" s -128 127))"),
  .ok = 1, .mode = MP_OUT_FUSED, .epi = MP_FUSE_CLAMP, .etype = MP_TY_S8,
  .ebias = "b", .eargs = "-128,127" },

{ .name = "fused store with an identity cast and a constant init",
  .text = FUSED_IJ("", "s = 42", "y[4*i*N+4*j]:s32 = (cast:s32 s)"),
  .ok = 1, .mode = MP_OUT_FUSED, .epi = MP_FUSE_STORE, .etype = MP_TY_S32,
  .einit = 42, .ebias = "-", .eargs = "",
  .what = "y[i,j] = 42 + sum_k x[i,k]*w[j,k]" },

{ .name = "fused matrix-vector: y[i] = (int8_t) mp_requant_fp32(b[i] + ..., 0.25f, ...)",
  .text = DECLS "var s local s32\nvar b param ptr\narray b base=b\n"
	"loop i lo=0 hi=M-1\n"
	"stmt i : s = b[4*i]:s32\n"
	"loop k parent=i lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[k]:s8") ")\n"
	"stmt i : y[i]:s8 = (cast:s8 (call:s32 \"mp_requant_fp32\" s 0.25:f32 3 -128 127))\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "-", .lk = "k", .a = "x", .b = "w",
  .epi = MP_FUSE_FP32, .eout = "y", .ebias = "b", .etype = MP_TY_S8,
  .eargs = "0.25,3,-128,127",
  .what = "int8 matrix-vector product over k: y[i] = mp_requant_fp32(b[i] + sum_k "
	"x[i,k]*w[k])",
  .layout = "B=w (vector), fused epilogue: mp_requant_fp32 -> s8 out y[i], bias b[i]" },

/* not fusable: the TILE plan stays as it was */

{ .name = "not fused: per-channel scale (a load)",
  .text = FUSED_IJ("var sc param ptr\narray sc base=sc\nvar zy param s32\n",
	"s = b[4*j]:s32",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_requant_fp32\" s sc[4*j]:f32 zy -128 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .ncheck1 = 2,
  .what = "y[i,j] <- s", .layout = "tile mode (epilogue kept)" },

{ .name = "not fused: extra statement in j",
  .text = DECLS "var s local s32\nvar z param ptr\narray z base=z\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n"
	"stmt j : z[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .ncheck1 = 3 },

{ .name = "not fused: extra statement in i",
  .text = DECLS "var s local s32\nvar z param ptr\narray z base=z\n"
	"loop i lo=0 hi=M-1\nstmt i : z[4*i]:s32 = 0\n"
	"loop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: an epilogue loop after k",
  .text = DECLS "var s local s32\nvar e iter s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"loop e parent=j lo=0 hi=0\n"
	"stmt e : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: accumulator used after the nest",
  .text = DECLS "var s local s32 used_after\nvar b param ptr\narray b base=b\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = b[4*j]:s32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" s -128 127))\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: iterator used after the nest",
  .text = "var M param s32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\n"
	"var i iter s32\nvar j iter s32 used_after\nvar k iter s32\n"
	"array x base=x\narray w base=w\narray y base=y\nvar s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: guarded store",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j guarded : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: guarded init",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j guarded : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: output not one element per (i, j)",
  .text = FUSED_IJ("", "s = 0", "y[i+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" s -128 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: output subscript uses k's final value",
  .text = FUSED_IJ("", "s = 0", "y[4*i*N+4*j+4*k]:s32 = s"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: bias array is the output array",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = y[4*j]:s32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j+4*N]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: bias through the output's pointer (same base)",
  .text = DECLS "var s local s32\narray yb base=y\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = yb[4*j]:s32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j+4*N]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: int16 bias widened to int32",
  .text = FUSED_IJ("", "s = (cast:s32 b[2*j]:s16)", "y[4*i*N+4*j]:s32 = s"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: cast type differs from the stored type",
  .text = FUSED_IJ("", "s = 0",
	"y[i*N+j]:s8 = (cast:u8 (call:s32 \"mp_clamp_i32\" s -128 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: store of s into an int8 output (STORE needs int32)",
  .text = FUSED_IJ("", "s = 0", "y[i*N+j]:s8 = (cast:s8 s)"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: int16 output",
  .text = FUSED_IJ("", "s = 0",
	"y[2*i*N+2*j]:s16 = (cast:s16 (call:s32 \"mp_clamp_i32\" s -128 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: unknown function my_requant",
  .text = FUSED_IJ("var sc param f32\nvar zy param s32\n", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"my_requant\" s sc zy -128 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: helper as MP_X_OTHER (arguments not all known)",
  .text = FUSED_IJ("", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (other:s32 \"mp_clamp_i32\" s -128))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: wrong argument count",
  .text = FUSED_IJ("", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" s -128))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: arithmetic around the helper",
  .text = FUSED_IJ("", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (+ (call:s32 \"mp_clamp_i32\" s -128 127) 1))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: accumulator not the helper's first argument",
  .text = FUSED_IJ("", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" -128 s 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: helper argument of the wrong type (double scale)",
  .text = FUSED_IJ("var sd param f64\n", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_requant_fp32\" s sd 0 -128 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: helper argument reads the iterator",
  .text = FUSED_IJ("", "s = 0",
	"y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" s (neg j) 127))"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

{ .name = "not fused: init reads the accumulator's previous value",
  .text = FUSED_IJ("", "s = (+ s 1)", "y[4*i*N+4*j]:s32 = s"),
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s" },

/* ---------------------------------------------------------- refusals */

{ .name = "operand array written in the nest",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : x[i*K+j]:s8@9 = (cast:s8 s)\n",
  .ok = 0, .reason = "'x' is an operand of the contraction and the nest writes to it",
  .reason_loc = 9 },

{ .name = "non-affine operand subscript",
  .text = TILE_SCALAR("x[?]:s8@8", "w[j*K+k]:s8"),
  .ok = 0, .reason = "subscript of 'x' is not affine in the loop iterators", .reason_loc = 8 },

/* ---------------------------------- windows clipped by MAX/MIN (issue 9) */

/* i { j { s = 0; k from max(0, P-j) to min(K-1, N+P-j-1) { s += x[j+k-P] *
   w[i,k] }; y[i,j] = s } } (K and N: a 1-D convolution, CMSIS-NN's form) */
#define CLIP_1D(KB, TAIL) DECLS "var s local s32\nvar P param s32\n" \
	"loop i lo=0 hi=M-1 loc=1\n" \
	"loop j parent=i lo=0 hi=N-1 loc=2\n" \
	"stmt j loc=3 : s = 0\n" \
	"loop k parent=j " KB " loc=4\n" \
	"stmt k loc=5 : s = (+ s " PROD("x[j+k-P]:s8", "w[i*K+k]:s8") ")\n" \
	"stmt j loc=6 : y[4*i*N+4*j]:s32@7 = s\n" TAIL

{ .name = "clipped window: the padded form, padding on x",
  .text = CLIP_1D("lo=0 lo2=P-j hi=K-1 hi2=N+P-j-1", ""),
  .ok = 1, .mode = MP_OUT_FUSED, .li = "j", .lj = "i", .lk = "k", .what = "padded" },

{ .name = "clipped window: the iterator-free operand second",
  .text = CLIP_1D("lo=P-j lo2=0 hi=N+P-j-1 hi2=K-1", ""),
  .ok = 1, .mode = MP_OUT_FUSED, .lk = "k", .what = "padded" },

{ .name = "clipped window: both operands of the MAX name an iterator",
  .text = CLIP_1D("lo=i lo2=P-j hi=K-1", ""),
  .ok = 0, .reason = "both operands of a MAX/MIN bound name an iterator", .reason_loc = 4 },

{ .name = "clipped window: its iterator read after its loop",
  .text = CLIP_1D("lo=0 lo2=P-j hi=K-1 hi2=N+P-j-1", "stmt j : y[4*i*N+4*j+4]:s32 = k\n"),
  .ok = 0, .reason = "the iterator 'k' of a loop bounded by MAX/MIN is read outside its loop",
  .reason_loc = 4 },

{ .name = "clipped window counting down: refused",
  .text = CLIP_1D("lo=0 lo2=P-j hi=K-1 step=-1", ""),
  .ok = 0, .reason = "steps by one from its start", .reason_loc = 4 },

/* ------------------------------------------- triangular nests (issue 9) */

{ .name = "triangular j <= i (SYRK): tile over the bounding box, never fused",
  .text = TRI_SCALAR("lo=0 hi=M-1", "lo=0 hi=i", "x[i*K+k]:s8", "x[j*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j", .lk = "k", .acc_var = "s",
  .what = "triangular, tile over the box 0 <= i <= M - 1, 0 <= j <= M - 1" },

{ .name = "triangular j < i: the box starts at i = 1",
  .text = TRI_SCALAR("lo=0 hi=M-1", "lo=0 hi=i-1", "x[i*K+k]:s8", "w[j*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_TILE,
  .what = "triangular, tile over the box 1 <= i <= M - 1, 0 <= j <= M - 2" },

{ .name = "triangular j >= i (upper triangle)",
  .text = TRI_SCALAR("lo=0 hi=N-1", "lo=i hi=N-1", "x[i*K+k]:s8", "w[j*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_TILE,
  .what = "triangular, tile over the box 0 <= i <= N - 1, 0 <= j <= N - 1" },

{ .name = "triangular j > i, offset bounds",
  .text = TRI_SCALAR("lo=2 hi=N+1", "lo=i+1 hi=N+1", "x[i*K+k]:s8", "w[j*K+k]:s8"),
  .ok = 1, .mode = MP_OUT_TILE,
  .what = "triangular, tile over the box 2 <= i <= N, 3 <= j <= N + 1" },

{ .name = "triangular with j outside: i's bounds name j",
  .text = DECLS "var s local s32\n"
	"loop j lo=0 hi=N-1\nloop i parent=j lo=j hi=N-1\nstmt i : s = 0\n"
	"loop k parent=i lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt i : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j",
  .what = "triangular, tile over the box 0 <= i <= N - 1, 0 <= j <= N - 1" },

{ .name = "triangular perfect nest C += A*B: tile mode, not direct",
  .text = DECLS "loop i lo=0 hi=N-1\nloop j parent=i lo=0 hi=i\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "x[j*K+k]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_TILE, .what = "triangular, tile over the box" },

{ .name = "triangular ikj (PolyBench syrk): tile mode, a row per i",
  .text = DECLS "var j2 iter s32 same_as j\nloop i lo=0 hi=N-1\nloop j2 parent=i lo=0 hi=i\n"
	"stmt j2 : y[4*i*N+4*j2]:s32 = (* y[4*i*N+4*j2]:s32 3)\n"
	"loop k parent=i lo=0 hi=K-1\nloop j parent=k lo=0 hi=i\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "x[j*K+k]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j", .lk = "k",
  .what = "triangular, tile over the box 0 <= i <= N - 1, 0 <= j <= N - 1" },

{ .name = "triangular kij: refused (k around both i and j)",
  .text = DECLS "loop k lo=0 hi=K-1 loc=4\nloop i parent=k lo=0 hi=N-1\n"
	"loop j parent=i lo=0 hi=i\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "x[j*K+k]:s8") ")\n",
  .ok = 0, .reason_loc = 4,
  .reason = "the reduction loop 'k' encloses both loops 'i' and 'j', whose bounds depend on "
	"each other" },

{ .name = "triangular fused form: tile mode",
  .text = DECLS "var s local s32\nvar b param ptr\narray b base=b\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=i\nstmt j : s = b[4*j]:s32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[i*N+j]:s8 = (cast:s8 (call:s32 \"mp_clamp_i32\" s -128 127))\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .what = "triangular" },

{ .name = "triangular float source: tile mode",
  .text = DECLS "var s local f32\n"
	"loop i lo=0 hi=N-1\nloop j parent=i lo=0 hi=i\nstmt j : s = 0.0:f32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (* x[4*i*K+4*k]:f32 x[4*j*K+4*k]:f32))\n"
	"stmt j : y[4*i*N+4*j]:f32 = s\n",
  .prec = MP_PREC_BF16, .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32 },

{ .name = "triangular float perfect nest: tile mode, not direct",
  .text = DECLS "loop i lo=0 hi=N-1\nloop j parent=i lo=i hi=N-1\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 " FPROD32 ")\n",
  .prec = MP_PREC_INT8, .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32 },

{ .name = "triangular reduction (TRMM's k < i): k over its hull, the bound as padding",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=i-1 loc=4\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED },

{ .name = "triangular reduction naming both output loops: refused",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=i+j-1 loc=4\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason_loc = 4,
  .reason = "the bounds of reduction loop 'k' depend on an output loop (a triangular "
	"reduction) and it could not be planned over the hull of its ranges" },

{ .name = "triangular reduction, j's bounds name k (ikj): refused",
  .text = DECLS "loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
	"loop j parent=k lo=k hi=N-1 loc=3\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 0, .reason_loc = 3,
  .reason = "the bounds of loop 'j' depend on 'k', the iterator of a reduction loop" },

{ .name = "triangular with a piecewise box (i < M, i <= j < N): refused",
  .text = TRI_SCALAR("lo=0 hi=M-1", "lo=i hi=N-1", "x[i*K+k]:s8", "w[j*K+k]:s8"),
  .ok = 0, .reason_loc = 2,
  .reason = "the range of 'i' or 'j' over the nest is not one interval with affine bounds" },

{ .name = "triangular with a step: refused",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1 step=2\nloop j parent=i lo=0 hi=i loc=2\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason_loc = 2,
  .reason = "the bounds of loop 'j' depend on 'i' and loop 'i' steps by 2" },

{ .name = "opaque statement",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j loc=11 : opaque \"call to 'printf'\"\n",
  .ok = 0, .reason = "call to 'printf'", .reason_loc = 11 },

{ .name = "64-bit accumulator",
  .text = DECLS "var s local s64\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0:s64\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k loc=5 : s = (+ s (cast:s64 " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") "))\n"
	"stmt j : y[8*i*N+8*j]:s64 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .what = "widened into the 64-bit 's'" },

{ .name = "64-bit accumulator of a 64-bit product: refused",
  .text = DECLS "var s local s64\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0:s64\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k loc=5 : s = (+ s (* (cast:s64 x[i*K+k]:s8) (cast:s64 w[j*K+k]:s8)))\n"
	"stmt j : y[8*i*N+8*j]:s64 = s\n",
  .ok = 0, .reason = "accumulator 's' is 64-bit", .reason_loc = 5 },

{ .name = "64-bit accumulator, integer factor: refused",
  .text = DECLS "var s local s64\nvar al param s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0:s64\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k loc=5 : s = (+ s (cast:s64 (* al " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")))\n"
	"stmt j : y[8*i*N+8*j]:s64 = s\n",
  .ok = 0, .reason = "scaled by an integer factor", .reason_loc = 5 },

{ .name = "static overflow bound",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=199999 loc=4\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "the int32 accumulator can overflow: K*max|a|*max|b| = 200000*128*128 = "
	"3276800000 > 2^31-1", .reason_loc = 4 },

{ .name = "float source",
  .text = DECLS "var s local f32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0.0:f32\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (* x[i*K+k]:f32 w[j*K+k]:f32))\n"
	"stmt j : y[4*i*N+4*j]:f32 = s\n",
  .nolp = 1, .ok = 0, .reason = "floating-point sources are not supported yet" },

{ .name = "float source, bf16 tile",
  .text = FTILE("f32", "4", FPROD32), .prec = MP_PREC_BF16,
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .acc_var = "s", .kext = -1, .bound = -1, .rtb = 0, .ncheck1 = 2, .srct = MP_TY_F32,
  .what = "bf16 contraction over k: y[i,j] <- s = sum_k x[i,k]*w[k,j] (f32 x f32 at "
	"bf16, acc fp32, no scales; result within the bound of docs/error-bounds.md)",
  .layout = "A=x (k contiguous), B=w (j contiguous), tile mode (epilogue kept)" },

{ .name = "float source, bf16 tile with bias init (not fused)",
  .text = DECLS "var s local f32\nvar b param ptr\narray b base=b\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = b[4*j]:f32\n"
	"loop k parent=j lo=0 hi=K-1\nstmt k : s = (+ s " FPROD32 ")\n"
	"stmt j : y[4*i*N+4*j]:f32 = s\n",
  .prec = MP_PREC_BF16, .acc = MP_ACC_FP32, .scale = MP_SCALE_DYNAMIC,
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .srct = MP_TY_F32 },

{ .name = "float source, int8 direct (perfect nest into a float output)",
  .text = DECLS "loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 " FPROD32 ")\n",
  .ok = 1, .mode = MP_OUT_DIRECT, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .kext = -1, .bound = -1, .rtb = 0, .srct = MP_TY_F32,
  .what = "int8 contraction over k: y[i,j] += sum_k x[i,k]*w[k,j] (f32 x f32 at int8, "
	"acc int32 (exact), dequantized in double, dynamic scales per row/column",
  .layout = "direct mode" },

{ .name = "float source, ikj order into a float output: direct",
  .text = DECLS "loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\nloop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 " FPROD32 ")\n",
  .prec = MP_PREC_FP8_E4M3, .ok = 1, .mode = MP_OUT_DIRECT, .srct = MP_TY_F32,
  .what = "fp8_e4m3 contraction" },

{ .name = "double source, fp8_e5m2 tile",
  .text = FTILE("f64", "8", FPROD64), .prec = MP_PREC_FP8_E5M2,
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .srct = MP_TY_F64,
  .what = "(f64 x f64 at fp8_e5m2, acc fp32, dynamic per-tensor scales;" },

{ .name = "float operands widened to double, double accumulator",
  .text = FTILE("f64", "8", "(* (cast:f64 x[4*i*K+4*k]:f32) (cast:f64 w[4*k*N+4*j]:f32))"),
  .prec = MP_PREC_BF16, .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .srct = MP_TY_F32 },

{ .name = "float source, perfect ikj order into a float output: direct",
  .text = DECLS "loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1 loc=4\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 " FPROD32 ")\n",
  .prec = MP_PREC_BF16, .ok = 1, .mode = MP_OUT_DIRECT, .srct = MP_TY_F32 },

{ .name = "float source, ikj order into a double output: refused (tile_add needs one type)",
  .text = DECLS "loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1 loc=4\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[8*i*N+8*j]:f64 = (+ y[8*i*N+8*j]:f64 (cast:f64 " FPROD32 "))\n",
  .prec = MP_PREC_BF16, .ok = 0, .reason_loc = 4,
  .reason = "the output 'y' is f64 while the operands are f32" },

{ .name = "float source: int8 with acc=int32 (exact int32 accumulation)",
  .text = FTILE("f32", "4", FPROD32), .prec = MP_PREC_INT8, .acc = MP_ACC_INT32,
  .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32,
  .what = "acc int32 (exact), dequantized in double" },

{ .name = "float source: netlib form, temp = alpha*x(i,k) forwarded into the product (ikj)",
  .text = DECLS "var t local f32\nvar al param f32\nloop i lo=0 hi=M-1\n"
	"loop k parent=i lo=0 hi=K-1\nstmt k : t = (* al x[4*i*K+4*k]:f32)\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 (* t w[4*k*N+4*j]:f32))\n",
  .prec = MP_PREC_INT8, .ok = 1, .mode = MP_OUT_DIRECT, .srct = MP_TY_F32,
  .what = "scalar factor 'al' applied to the sum" },

{ .name = "float source: temp forwarded in ijk order (t = x(i,k) in loop k)",
  .text = DECLS "var t local f32\nvar s local f32\nloop i lo=0 hi=M-1\n"
	"loop j parent=i lo=0 hi=N-1\nstmt j : s = 0.0:f32\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : t = x[4*i*K+4*k]:f32\nstmt k : s = (+ s (* t w[4*k*N+4*j]:f32))\n"
	"stmt j : y[4*i*N+4*j]:f32 = s\n",
  .prec = MP_PREC_BF16, .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32 },

{ .name = "float source: temp read after the nest is not forwarded",
  .text = DECLS "var t local f32 used_after\nloop i lo=0 hi=M-1\n"
	"loop k parent=i lo=0 hi=K-1\nstmt k : t = x[4*i*K+4*k]:f32\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 (* t w[4*k*N+4*j]:f32))\n",
  .prec = MP_PREC_INT8, .ok = 0, .reason = "no contraction found" },

{ .name = "float source: temp also read by another statement is not forwarded",
  .text = DECLS "var t local f32\nvar z param ptr\narray z base=z\nloop i lo=0 hi=M-1\n"
	"loop k parent=i lo=0 hi=K-1\nstmt k : t = x[4*i*K+4*k]:f32\n"
	"stmt k : z[4*i*K+4*k]:f32 = t\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j : y[4*i*N+4*j]:f32 = (+ y[4*i*N+4*j]:f32 (* t w[4*k*N+4*j]:f32))\n",
  .prec = MP_PREC_INT8, .ok = 0, .reason = "no contraction found" },

{ .name = "float source: alpha * x * w (scalar factor matched, any association)",
  .text = FTILE("f32", "4", "(* (* 0.5:f32 x[4*i*K+4*k]:f32) w[4*k*N+4*j]:f32)"),
  .prec = MP_PREC_INT8, .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32,
  .what = "scalar factor 0.5 applied to the sum" },

{ .name = "float source: x * w * alpha",
  .text = FTILE("f32", "4", "(* (* x[4*i*K+4*k]:f32 w[4*k*N+4*j]:f32) 2.0:f32)"),
  .prec = MP_PREC_BF16, .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32,
  .what = "scalar factor 2 applied to the sum" },

{ .name = "integer source: a float factor in the product is refused by name",
  .text = DECLS "var s local f32\nloop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"stmt j : s = 0:f32\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k loc=5 : s = (+ s (* (* 0.5:f32 (cast:f32 x[i*K+k]:s8)) (cast:f32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:f32 = s\n",
  .ok = 0, .reason_loc = 5,
  .reason = "the product of 'x' and 'w' has a floating-point factor" },

{ .name = "float source: zero point (x - 0.5f), subtracted before quantizing",
  .text = FTILE("f32", "4", "(* (- x[4*i*K+4*k]:f32@8 0.5:f32) w[4*k*N+4*j]:f32@9)"),
  .prec = MP_PREC_BF16, .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32,
  .what = "zero point on x" },

{ .name = "float source: zero point subtracted in double from a float operand: refused",
  .text = FTILE("f64", "8", "(* (- (cast:f64 x[4*i*K+4*k]:f32@8) 0.5:f64) "
		"(cast:f64 w[4*k*N+4*j]:f32@9))"),
  .prec = MP_PREC_BF16, .ok = 0, .reason_loc = 8,
  .reason = "the zero point of operand 'x' (f32) is subtracted in f64" },

{ .name = "float source: explicit scale the glue did not interpret",
  .text = FTILE("f32", "4", FPROD32), .prec = MP_PREC_INT8, .scale = MP_SCALE_EXPR,
  .ok = 0, .reason = "were not interpreted (internal error of the compiler plugin)" },

{ .name = "float source: uint8",
  .text = FTILE("f32", "4", FPROD32), .prec = MP_PREC_UINT8,
  .ok = 1, .mode = MP_OUT_TILE, .srct = MP_TY_F32,
  .what = "dynamic scales: A asymmetric per row (zero point), B per column" },

{ .name = "float source: fp16 not supported yet",
  .text = FTILE("f32", "4", FPROD32), .prec = MP_PREC_FP16,
  .ok = 0, .reason = "'#pragma mixprec(fp16)' on a floating-point source" },

{ .name = "float source: acc=int32 refused",
  .text = FTILE("f32", "4", FPROD32), .prec = MP_PREC_BF16, .acc = MP_ACC_INT32,
  .ok = 0, .reason = "acc=int32 on a floating-point source" },

{ .name = "mixed float and double operands refused",
  .text = FTILE("f64", "8", "(* (cast:f64 x[4*i*K+4*k]:f32) w[8*k*N+8*j]:f64)"),
  .prec = MP_PREC_BF16, .ok = 0,
  .reason = "operand 'x' is f32 and operand 'w' is f64; mixed float and double operands "
	"are not supported yet" },

{ .name = "mixed integer and float operands refused",
  .text = FTILE("f32", "4", "(* x[4*i*K+4*k]:f32 (cast:f32 w[k*N+j]:s8))"),
  .prec = MP_PREC_BF16, .ok = 0,
  .reason = "operand 'x' is f32 and operand 'w' is s8; mixed integer and floating-point" },

{ .name = "double operands narrowed to float refused",
  .text = FTILE("f32", "4", "(* (cast:f32 x[8*i*K+8*k]:f64) (cast:f32 w[8*k*N+8*j]:f64))"),
  .prec = MP_PREC_BF16, .ok = 0,
  .reason = "operand 'x' (f64) is converted with a loss of precision (to f32)" },

{ .name = "float source into an int accumulator refused",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (cast:s32 " FPROD32 "))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .prec = MP_PREC_BF16, .ok = 0,
  .reason = "accumulator 's' is s32; a floating-point source needs a float" },

{ .name = "scale clause on an integer source",
  .text = TILE_SCALAR("x[i*K+k]:s8", "w[j*K+k]:s8"), .scale = MP_SCALE_DYNAMIC,
  .ok = 0, .reason = "scale= has no effect on an integer source: write the requantization "
	"in the loop body, where mixprec fuses it" },

{ .name = "bf16 precision on an integer source",
  .text = TILE_SCALAR("x[i*K+k]:s8", "w[j*K+k]:s8"), .prec = MP_PREC_BF16,
  .ok = 0, .reason = "'#pragma mixprec(bf16)'" },

{ .name = "acc=fp32 on an integer source",
  .text = TILE_SCALAR("x[i*K+k]:s8", "w[j*K+k]:s8"), .acc = MP_ACC_FP32,
  .ok = 0, .reason = "acc=fp32 on an integer source" },

{ .name = "s - P: the sum subtracted, tile mode",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (- s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_TILE, .acc_var = "s", .what = "<- s -= sum_k" },

{ .name = "C - P into the output: tile mode, never direct",
  .text = DECLS "loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:s32 = (- y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_TILE, .what = "y[i,j] -= sum_k" },

{ .name = "P - s is not a contraction",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (- " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") " s)\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "no contraction found" },

{ .name = "C - P in ikj order: tile mode, the glue subtracts the tile",
  .text = DECLS "loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
	"loop j parent=k lo=0 hi=N-1\n"
	"stmt j loc=5 : y[4*i*N+4*j]:s32 = (- y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_TILE },

{ .name = "zero-skip guard on the update loop (GSL's if (temp != 0))",
  .text = DECLS "var t local s32\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
	"stmt k : t = (cast:s32 x[i*K+k]:s8)\n"
	"loop j parent=k lo=0 hi=N-1 zguard=t\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 (* t (cast:s32 w[k*N+j]:s8)))\n",
  .ok = 1, .mode = MP_OUT_DIRECT },

{ .name = "zero-skip guard whose variable is not a factor: refused",
  .text = DECLS "var t local s32\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
	"stmt k : t = (cast:s32 w[k*N]:s8)\n"
	"loop j parent=k lo=0 hi=N-1 zguard=t loc=7\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 0, .reason = "runs under 'if (t != 0)'", .reason_loc = 7 },

{ .name = "zero-skip guard on a loop holding another statement: refused",
  .text = DECLS "var t local s32\nvar u local s32 used_after\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\n"
	"stmt k : t = (cast:s32 x[i*K+k]:s8)\n"
	"loop j parent=k lo=0 hi=N-1 zguard=t loc=7\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 (* t (cast:s32 w[k*N+j]:s8)))\n"
	"stmt j : u = 0\n",
  .ok = 0, .reason = "runs under 'if (t != 0)'" },

{ .name = "reduction loop with another statement",
  .text = DECLS "var s local s32\nvar t local s32 used_after\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt k loc=12 : t = (cast:s32 x[i*K+k]:s8)\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "reduction loop 'k' also contains an assignment to 't'", .reason_loc = 12 },

{ .name = "ikj imperfect: k not innermost",
  .text = DECLS "var z param ptr\narray z base=z\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\nloop j parent=k lo=0 hi=N-1 loc=3\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n"
	"stmt i : z[4*i]:s32 = 0\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j", .lk = "k" },

{ .name = "ikj imperfect: a second statement inside k",
  .text = DECLS "var z param ptr\narray z base=z\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\nloop j parent=k lo=0 hi=N-1 loc=3\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n"
	"stmt j loc=9 : z[4*i]:s32 = 0\n"
	"stmt i : z[4*i]:s32 = 0\n",
  .ok = 0, .reason = "reduction loop 'k' also contains a store to 'z'", .reason_loc = 9 },

{ .name = "ikj imperfect: iterator below k used after",
  .text = "var M param s32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\nvar z param ptr\n"
	"var i iter s32\nvar j iter s32 used_after\nvar k iter s32\n"
	"array x base=x\narray w base=w\narray y base=y\narray z base=z\n"
	"loop i lo=0 hi=M-1\nloop k parent=i lo=0 hi=K-1\nloop j parent=k lo=0 hi=N-1 loc=3\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n"
	"stmt i : z[4*i]:s32 = 0\n",
  .ok = 0, .reason = "the iterator 'j' is used after the nest" },

{ .name = "operand depends on both i and j: rows (i, j) of a matrix-vector product",
  .text = TILE_SCALAR("x[i*K+j+k]:s8", "w[k]:s8"),
  .ok = 1, .mode = MP_OUT_FUSED, .li = "j", .lj = "-", .a = "x", .b = "w" },
{ .name = "operand depends on both i and j, tile mode: two row loops (i2 = i, i = j)",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+j+k]:s8", "w[k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = (call:s32 \"abs\" s)\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "j", .a = "x", .b = "w" },

{ .name = "four enclosing loops",
  .text = DECLS "var s local s32\nvar r iter s32\n"
	"loop r lo=0 hi=9\nloop i parent=r lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "nested in 4 loops" },

{ .name = "step 2 on the reduction loop: K = (K + 1) / 2 iterations",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=15 step=2\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .kext = 8, .bound = 8 * 128 * 128 },
{ .name = "rows unrolled: two contractions analysed alone give a reason",
  .text = DECLS "var s0 local s32\nvar s1 local s32\n"
	"loop i lo=0 hi=M-2 step=2\nstmt i : s0 = 0\nstmt i : s1 = 0\n"
	"loop k parent=i lo=0 hi=K-1\n"
	"stmt k : s0 = (+ s0 " PROD("x[i*K+k]:s8", "w[k]:s8") ")\n"
	"stmt k : s1 = (+ s1 " PROD("x[i*K+K+k]:s8", "w[k]:s8") ")\n"
	"stmt i : y[4*i]:s32 = s0\nstmt i : y[4*i+4]:s32 = s1\n",
  .ok = 0, .reason = "the nest holds 2 contractions" },

{ .name = "non-affine store in the epilogue",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[?]:s32@21 = s\n",
  .ok = 0, .reason = "store to 'y' has a subscript that is not affine", .reason_loc = 21 },

{ .name = "guarded reduction",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k guarded : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "guarded by a condition" },

/* a group loop stepping by a variable (`j += GS`, runq.c): the group
   loop; any other loop stepping by one is refused */
{ .name = "group loop stepping by a parameter",
  .text = DECLS "var acc local f32\nvar s local s32\nvar G param s32\nvar ws param ptr\n"
	"array ws base=ws\n"
	"loop i lo=0 hi=M-1\nstmt i : acc = 0.0:f32\nstmt i : s = 0\n"
	"loop j parent=i lo=0 hi=K-G stepvar=G\n"
	"loop k parent=j lo=0 hi=G-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+j+k]:s8", "w[j+k]:s8") ")\n"
	"stmt j : acc = (+ acc (* (cast:f32 s) ws[?]:f32))\nstmt j : s = 0\n"
	"stmt i : y[4*i]:f32 = acc\n",
  .ok = 1, .li = "i", .lk = "k", .a = "x", .b = "w" },

{ .name = "a reduction loop stepping by a parameter is refused",
  .text = DECLS "var s local s32\nvar G param s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1 stepvar=G\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "loop 'k' steps by 'G', a variable" },

/* padding (issue 9): a window test the glue read as conditions */
{ .name = "padded: a guard on the update (conditions on i and k)",
  .text = DECLS "var s local s32\n"
	"cond i+k-1\ncond -i-k+M\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k guarded if=0 if=1 : s = (+ s " PROD("x[i*K+k-1]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .what = "; padded: the terms where the condition around the sum fails are left out" },

{ .name = "padded: conditions on j only make the operands change places",
  .text = DECLS "var s local s32\n"
	"cond j+k-1\ncond -j-k+N\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k guarded if=0 if=1 : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k-1]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "j", .lj = "i", .lk = "k", .a = "w", .b = "x" },

{ .name = "padded: a select on the operand (`inside ? x[..] : 0`)",
  .text = DECLS "var s local s32\n"
	"cond i+k-1\ncond -i-k+M\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k-1]:s8?0,1:0", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  .what = "; padded: x is 0 where the condition fails" },

{ .name = "padded: a select on the right operand makes the operands change places",
  .text = DECLS "var s local s32\n"
	"cond j+k-1\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k-1]:s8?0:5") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "j", .lj = "i", .lk = "k", .a = "w", .b = "x" },

{ .name = "padded: a window loop's condition and a select other than 0 are refused",
  .text = DECLS "var s local s32\nvar h iter s32\n"
	"cond i+h-1\ncond k-1\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop h parent=j lo=0 hi=2\nloop k parent=h lo=0 hi=K-1 if=0\n"
	"stmt k : s = (+ s " PROD("x[i*K+h*K+k-K]:s8?1:3", "w[j*K+h*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "one padding value cannot give both" },

{ .name = "a select in the epilogue runs as written (tile mode, not fused)",
  .text = DECLS "var s local s32\n"
	"cond i-1\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = (+ s (cast:s32 x[i]:s8?0:0))\n",
  .ok = 1, .mode = MP_OUT_TILE, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w" },

{ .name = "padded: a condition on both output loops is refused",
  .text = DECLS "var s local s32\n"
	"cond i-j\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k guarded if=0 : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "the condition guarding the sum into 's' depends on 'j'" },

{ .name = "padded: an output loop under a condition is refused",
  .text = DECLS "var s local s32\n"
	"cond i-1\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1 if=0\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "loop 'j' runs under a condition" },

{ .name = "padded: a window loop under a condition (dead index local)",
  .text = DECLS "var s local s32\nvar h iter s32\nvar t local s32\n"
	"cond i+h-1\ncond -i-h+M\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop h parent=j lo=0 hi=2\nstmt h : t = (+ i h)\n"
	"loop k parent=h lo=0 hi=K-1 if=0 if=1\n"
	"stmt k : s = (+ s " PROD("x[i*K+h*K+k-K]:s8", "w[j*K+h*K+k]:s8") ")\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 1, .mode = MP_OUT_FUSED, .li = "i", .lj = "j", .lk = "k", .a = "x", .b = "w",
  /* the operands name the window's loop h too */
  .what = "y[i,j] = sum_h,k x[i,h,k]*w[j,h,k] (s8 x s8 -> s32); padded:" },

{ .name = "16-bit operand",
  .text = TILE_SCALAR("x[2*i*K+2*k]:s16", "w[j*K+k]:s8"),
  .ok = 0, .reason = "operand 'x' is s16" },

{ .name = "lossy cast chain (s8 -> u16 -> s32)",
  .text = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (* (cast:s32 (cast:u16 x[i*K+k]:s8)) (cast:s32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n",
  .ok = 0, .reason = "operand 'x' is not widened to int32 without loss" },

{ .name = "dot product only",
  .text = DECLS "var s local s32\n"
	"loop k lo=0 hi=K-1\n"
	"stmt k : s = (+ s " PROD("x[k]:s8", "w[k]:s8") ")\n",
  .ok = 0, .reason = "dot product" },

{ .name = "iterator used after a direct nest",
  .text = "var M param s32\nvar N param s32\nvar K param s32\n"
	"var x param ptr\nvar w param ptr\nvar y param ptr\n"
	"var i iter s32 used_after\nvar j iter s32\nvar k iter s32\n"
	"array x base=x\narray w base=w\narray y base=y\n"
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 1, .mode = MP_OUT_DIRECT },

{ .name = "output aliases an operand array (same pointer)",
  .text = DECLS
	"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
	"stmt k : x[4*i*N+4*j]:s32 = (+ x[4*i*N+4*j]:s32 " PROD("x[i*K+k]:s8", "w[k*N+j]:s8") ")\n",
  .ok = 0, .reason = "'x' is an operand of the contraction and the nest writes to it" },
};

/* ------------------------------------------------------------ driver */

static const char *iter_of(const mp_nest *n, int l)
{
	return l < 0 ? "-" : n->var[n->loop[l].iter].name;
}

static const char *arr_of(const mp_nest *n, int acc)
{
	return acc < 0 ? "-" : n->array[n->access[acc].array].name;
}

/* Render an argument expression in a compact form: 12, 0.5, zy, (s32)e,
 * (a+b), (a-b), (a*b), (-a); LOADs as "?" (never fusable). */
static void render_expr(const mp_nest *n, int e, char *buf, size_t len, int depth)
{
	const mp_expr *x;
	char a[128], b[128];

	if (e < 0 || e >= n->nexprs || depth > 20) {
		snprintf(buf, len, "_");
		return;
	}
	x = &n->expr[e];
	switch (x->kind) {
	case MP_X_CONST:
		if (x->type == MP_TY_F32 || x->type == MP_TY_F64)
			snprintf(buf, len, "%g", x->fcst);
		else
			snprintf(buf, len, "%" PRId64, x->cst);
		return;
	case MP_X_VAR:
		snprintf(buf, len, "%s", n->var[x->var].name);
		return;
	case MP_X_CAST:
		render_expr(n, x->a, a, sizeof(a), depth + 1);
		snprintf(buf, len, "(%s)%s", mp_scalar_name(x->type), a);
		return;
	case MP_X_NEG:
		render_expr(n, x->a, a, sizeof(a), depth + 1);
		snprintf(buf, len, "(-%s)", a);
		return;
	case MP_X_ADD: case MP_X_SUB: case MP_X_MUL:
		render_expr(n, x->a, a, sizeof(a), depth + 1);
		render_expr(n, x->b, b, sizeof(b), depth + 1);
		snprintf(buf, len, "(%s%c%s)", a,
			 x->kind == MP_X_ADD ? '+' : x->kind == MP_X_SUB ? '-' : '*', b);
		return;
	default:
		snprintf(buf, len, "?");
	}
}

static void render_args(const mp_nest *n, const mp_plan *plan, char *buf, size_t len)
{
	char one[128];
	int i;

	buf[0] = 0;
	for (i = 0; i < plan->epi_nargs && i < 6; i++) {
		size_t pos = strlen(buf);

		render_expr(n, plan->epi_arg[i], one, sizeof(one), 0);
		snprintf(buf + pos, len - pos, "%s%s", i ? "," : "", one);
	}
}

static void roundtrip(const char *name, const mp_nest *n)
{
	static char t1[65536], t2[65536];
	static mp_nest n2;

	CHECK(mp_nest_print(n, t1, sizeof(t1)) == 0, "%s: print", name);
	CHECK(mp_nest_parse(&n2, t1) == 0, "%s: reparse: %s\n%s", name, n2.error, t1);
	CHECK(mp_nest_print(&n2, t2, sizeof(t2)) == 0, "%s: print 2", name);
	CHECK(strcmp(t1, t2) == 0, "%s: round trip differs:\n%s\n---\n%s", name, t1, t2);
	CHECK(memcmp(n, &n2, sizeof(n2)) == 0, "%s: reparsed nest differs", name);
}

static void run_case(const pcase *c)
{
	static mp_nest n;
	mp_pragma p;
	mp_plan plan;

	memset(&p, 0, sizeof(p));
	p.prec = c->prec ? c->prec : MP_PREC_INT8;
	p.acc = c->acc;
	p.scale = c->scale;
	p.lp_capable = !c->nolp;
	if (mp_nest_parse(&n, c->text) != 0) {
		CHECK(0, "%s: parse error: %s", c->name, n.error);
		return;
	}
	roundtrip(c->name, &n);
	mp_analyze(&n, &p, &plan);
	CHECK(plan.ok == c->ok, "%s: ok=%d, reason: %s", c->name, plan.ok, plan.reason);
	if (!c->ok) {
		CHECK(c->reason && strstr(plan.reason, c->reason), "%s: reason '%s'",
		      c->name, plan.reason);
		if (c->reason_loc)
			CHECK(plan.reason_loc == c->reason_loc, "%s: reason_loc %d",
			      c->name, plan.reason_loc);
		return;
	}
	if (!plan.ok)
		return;
	CHECK(plan.mode == c->mode, "%s: mode %d", c->name, plan.mode);
	CHECK(plan.src_float == (c->srct != 0) && (!c->srct || plan.src_type == c->srct),
	      "%s: src_float %d src_type %s", c->name, plan.src_float,
	      mp_scalar_name(plan.src_type));
	if (plan.src_float)
		CHECK((plan.za_expr < 0 || strstr(plan.what, "zero point")) &&
		      plan.zb_expr < 0 && plan.bound_static == -1 &&
		      !plan.need_runtime_bound && strstr(plan.what,
		      "result within the bound of docs/error-bounds.md"),
		      "%s: float plan fields", c->name);
	CHECK(plan.red_stmt >= 0 && plan.acc_a >= 0 && plan.acc_b >= 0, "%s: ids", c->name);
	if (c->li)
		CHECK(!strcmp(iter_of(&n, plan.loop_i), c->li), "%s: loop_i %s", c->name,
		      iter_of(&n, plan.loop_i));
	if (c->lj)
		CHECK(!strcmp(iter_of(&n, plan.loop_j), c->lj), "%s: loop_j %s", c->name,
		      iter_of(&n, plan.loop_j));
	if (c->lk)
		CHECK(!strcmp(iter_of(&n, plan.loop_k), c->lk), "%s: loop_k %s", c->name,
		      iter_of(&n, plan.loop_k));
	if (c->a)
		CHECK(!strcmp(arr_of(&n, plan.acc_a), c->a), "%s: A %s", c->name,
		      arr_of(&n, plan.acc_a));
	if (c->b)
		CHECK(!strcmp(arr_of(&n, plan.acc_b), c->b), "%s: B %s", c->name,
		      arr_of(&n, plan.acc_b));
	if (plan.mode == MP_OUT_TILE) {
		CHECK(plan.red_loop == plan.loop_k, "%s: red_loop", c->name);
		CHECK((plan.acc_var >= 0) != (plan.acc_mem >= 0), "%s: tile accumulator",
		      c->name);
		CHECK(plan.acc_c == -1, "%s: acc_c in tile mode", c->name);
	} else if (plan.mode == MP_OUT_DIRECT) {
		CHECK(plan.acc_c >= 0 && n.access[plan.acc_c].is_write, "%s: acc_c", c->name);
		CHECK(plan.epi_out == -1 && plan.epi_bias == -1, "%s: epi in direct mode",
		      c->name);
	} else {
		char args[256];

		CHECK(plan.acc_c == -1 && plan.acc_var >= 0, "%s: fused accumulator", c->name);
		CHECK(plan.red_loop == 0, "%s: fused red_loop %d", c->name, plan.red_loop);
		CHECK(plan.epi_out >= 0 && n.access[plan.epi_out].is_write, "%s: epi_out",
		      c->name);
		CHECK(plan.epi == c->epi, "%s: epi %d", c->name, (int)plan.epi);
		if (c->eout)
			CHECK(!strcmp(arr_of(&n, plan.epi_out), c->eout), "%s: epi_out %s",
			      c->name, arr_of(&n, plan.epi_out));
		if (c->ebias)
			CHECK(!strcmp(arr_of(&n, plan.epi_bias), c->ebias), "%s: epi_bias %s",
			      c->name, arr_of(&n, plan.epi_bias));
		if (c->etype)
			CHECK(plan.epi_out_type == c->etype, "%s: epi_out_type %s", c->name,
			      mp_scalar_name(plan.epi_out_type));
		CHECK(plan.epi_init == c->einit, "%s: epi_init %" PRId64, c->name,
		      plan.epi_init);
		render_args(&n, &plan, args, sizeof(args));
		if (c->eargs)
			CHECK(!strcmp(args, c->eargs), "%s: epi args '%s'", c->name, args);
		/* the output is still overlap-checked against the operands */
		if (plan.ncheck)
			CHECK(plan.check_access[0] == plan.epi_out, "%s: check_access",
			      c->name);
	}
	if (plan.mode != MP_OUT_FUSED)
		CHECK(plan.epi_out == -1 && plan.epi_bias == -1 && plan.epi_nargs == 0,
		      "%s: epi fields outside fused mode", c->name);
	if (c->acc_var)
		CHECK(plan.acc_var >= 0 && !strcmp(n.var[plan.acc_var].name, c->acc_var),
		      "%s: acc_var", c->name);
	if (c->kext != 0 && c->kext != NOCHK)
		CHECK(plan.k_extent_static == c->kext, "%s: k_extent %" PRId64, c->name,
		      plan.k_extent_static);
	if (c->bound != 0 && c->bound != NOCHK)
		CHECK(plan.bound_static == c->bound, "%s: bound %" PRId64, c->name,
		      plan.bound_static);
	if (c->rtb != NOCHK && (c->kext != 0 || c->bound != 0))
		CHECK(plan.need_runtime_bound == c->rtb, "%s: need_runtime_bound %d",
		      c->name, plan.need_runtime_bound);
	if (c->ncheck1)
		CHECK(plan.ncheck == c->ncheck1 - 1, "%s: ncheck %d", c->name, plan.ncheck);
	if (c->rif1)
		CHECK(plan.red_iter_final == c->rif1 - 1, "%s: red_iter_final %d", c->name,
		      plan.red_iter_final);
	if (strstr(c->name, "suggests the outer loop"))
		CHECK(strstr(plan.hint, "enclosing loop 'i' indexes 'x'") != NULL, "%s: hint '%s'",
		      c->name, plan.hint);
	if (strstr(c->name, "read after it")) {
		char buf[64];

		/* per iteration of the reduction loop (the glue multiplies by
		   its iteration count, never below 0) */
		mp_aff_print(&n, &plan.advance_by[0], buf, sizeof buf);
		CHECK(plan.nadvance == 1 && !strcmp(buf, "1"), "%s: advance %d by %s", c->name,
		      plan.nadvance, buf);
	}
	if (c->zsa || c->zsb) {
		CHECK(plan.zsign_a == c->zsa && (c->zsa == 0) == (plan.za_expr < 0),
		      "%s: zero point a (%d, %d)", c->name, plan.zsign_a, plan.za_expr);
		CHECK(plan.zsign_b == c->zsb && (c->zsb == 0) == (plan.zb_expr < 0),
		      "%s: zero point b (%d, %d)", c->name, plan.zsign_b, plan.zb_expr);
	}
	if (c->what)
		CHECK(strstr(plan.what, c->what), "%s: what '%s'", c->name, plan.what);
	if (c->layout)
		CHECK(strstr(plan.layout, c->layout), "%s: layout '%s'", c->name, plan.layout);
}

/* Triangular nests: the written ranges (plan.range_lo / range_hi) of a
 * loop whose bounds name an iterator take that iterator's range; the box
 * of the tile. */
static void triangular_ranges(void)
{
	static mp_nest n;
	mp_pragma p;
	mp_plan plan;
	char b[4][64];
	/* PolyBench syrk: C *= beta over j2 <= i, then k { j <= i { C += } } */
	const char *syrk = DECLS "var j2 iter s32 same_as j\n"
		"loop i lo=0 hi=N-1\nloop j2 parent=i lo=0 hi=i\n"
		"stmt j2 : y[4*i*N+4*j2]:s32 = (* y[4*i*N+4*j2]:s32 3)\n"
		"loop k parent=i lo=0 hi=K-1\nloop j parent=k lo=i+1 hi=N-1\n"
		"stmt j : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 "
		PROD("x[i*K+k]:s8", "x[j*K+k]:s8") ")\n";
	/* a rectangular contraction beside a triangular loop that writes y */
	const char *side = DECLS "var s local s32\nvar j2 iter s32 same_as j\n"
		"loop i lo=0 hi=M-1\nloop j2 parent=i lo=i-2 hi=2*i+1\n"
		"stmt j2 : y[4*i*N+4*j2]:s32 = 0\n"
		"loop j parent=i lo=0 hi=N-1\nstmt j : s = 0\nloop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s " PROD("x[i*K+k]:s8", "w[j*K+k]:s8") ")\n"
		"stmt j : y[4*i*N+4*j]:s32 = s\n";

	memset(&p, 0, sizeof(p));
	p.prec = MP_PREC_INT8;
	CHECK(mp_nest_parse(&n, syrk) == 0, "syrk parse: %s", n.error);
	mp_analyze(&n, &p, &plan);
	CHECK(plan.ok && plan.tri && plan.mode == MP_OUT_TILE, "syrk: ok %d tri %d (%s)",
	      plan.ok, plan.tri, plan.reason);
	mp_aff_print(&n, &plan.range_lo[1], b[0], 64);
	mp_aff_print(&n, &plan.range_hi[1], b[1], 64);
	mp_aff_print(&n, &plan.range_lo[3], b[2], 64);
	mp_aff_print(&n, &plan.range_hi[3], b[3], 64);
	CHECK(!strcmp(b[0], "0") && !strcmp(b[1], "N - 1") && !strcmp(b[2], "1") &&
	      !strcmp(b[3], "N - 1"), "syrk ranges j2 %s..%s, j %s..%s", b[0], b[1], b[2], b[3]);
	/* the tile: the strict triangle j > i, rows 0..N-2, columns 1..N-1 */
	mp_aff_print(&n, &plan.box_lo[0], b[0], 64);
	mp_aff_print(&n, &plan.box_hi[0], b[1], 64);
	mp_aff_print(&n, &plan.box_lo[1], b[2], 64);
	mp_aff_print(&n, &plan.box_hi[1], b[3], 64);
	CHECK(!strcmp(b[0], "0") && !strcmp(b[1], "N - 2") && !strcmp(b[2], "1") &&
	      !strcmp(b[3], "N - 1"), "syrk box i %s..%s, j %s..%s", b[0], b[1], b[2], b[3]);

	CHECK(mp_nest_parse(&n, side) == 0, "side parse: %s", n.error);
	mp_analyze(&n, &p, &plan);
	CHECK(plan.ok && !plan.tri, "side: ok %d tri %d (%s)", plan.ok, plan.tri, plan.reason);
	mp_aff_print(&n, &plan.range_lo[1], b[0], 64);
	mp_aff_print(&n, &plan.range_hi[1], b[1], 64);
	CHECK(!strcmp(b[0], "-2") && !strcmp(b[1], "2*M - 1"), "side range j2 %s..%s", b[0],
	      b[1]);
}

/* The six orders of a perfect i/j/k nest into y[i,j]: all DIRECT. */
static void loop_orders(void)
{
	static const char *orders[] = { "ijk", "ikj", "jik", "jki", "kij", "kji" };
	char text[4096], name[64];
	size_t o;
	int d;

	for (o = 0; o < sizeof(orders) / sizeof(orders[0]); o++) {
		pcase c;
		const char *ord = orders[o];
		size_t pos;

		snprintf(text, sizeof(text), "%s", DECLS);
		for (d = 0; d < 3; d++) {
			char it = ord[d];
			const char *hi = it == 'i' ? "M-1" : it == 'j' ? "N-1" : "K-1";

			pos = strlen(text);
			if (d == 0)
				snprintf(text + pos, sizeof(text) - pos, "loop %c lo=0 hi=%s\n",
					 it, hi);
			else
				snprintf(text + pos, sizeof(text) - pos,
					 "loop %c parent=%c lo=0 hi=%s\n", it, ord[d - 1], hi);
		}
		pos = strlen(text);
		snprintf(text + pos, sizeof(text) - pos,
			 "stmt %c : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 %s)\n", ord[2],
			 PROD("x[i*K+k]:s8", "w[j*K+k]:s8"));
		snprintf(name, sizeof(name), "perfect %s nest", ord);
		memset(&c, 0, sizeof(c));
		c.name = name;
		c.text = text;
		c.ok = 1;
		c.mode = MP_OUT_DIRECT;
		c.li = "i";
		c.lj = "j";
		c.lk = "k";
		c.a = "x";
		c.b = "w";
		c.ncheck1 = 2;
		c.kext = -1;
		c.bound = -1;
		c.rtb = 1;
		c.layout = "B=w (transposed: k contiguous), direct mode";
		run_case(&c);
	}
}

/* A glue that describes a loop's iterator as something else (the clang
 * glue once took `k` for a local when `s = k` came before `for (k = 0; ...)`)
 * must get a refusal, not a plan indexing operands with k's entry value.
 * The text format cannot say it (its parser refuses such a loop): the nest
 * is altered after parsing. */
/* mp_reroll's bookkeeping: the remainder loop leaves the description, its
 * glue id in n.absorbed; the unrolled loop becomes step 1 to its bound. */
static void reroll_ids(void)
{
	static mp_nest n;
	mp_pragma p;
	mp_plan plan;
	char buf[64];

	memset(&p, 0, sizeof(p));
	p.prec = MP_PREC_INT8;
	CHECK(mp_nest_parse(&n, UNROLLED("K-4", "stmt k4 pos=0 : s = (+ s (+ (+ (+ " P4("") " "
					 P4("+1") ") " P4("+2") ") " P4("+3") "))\n")) == 0,
	      "parse: %s", n.error);
	CHECK(n.nloops == 4 && n.loop[2].after == 3, "after resolved: %d", n.loop[2].after);
	CHECK(mp_analyze(&n, &p, &plan) == 1, "reroll: %s", plan.reason);
	CHECK(n.nloops == 3 && n.nabsorbed == 1 && n.absorbed[0] == 2,
	      "absorbed: nloops %d nabsorbed %d [0]=%d", n.nloops, n.nabsorbed, n.absorbed[0]);
	CHECK(n.loop[2].step == 1 && n.loop[2].orig == 3 && n.loop[2].after == -1,
	      "folded loop: step %" PRId64 " orig %d", n.loop[2].step, n.loop[2].orig);
	mp_aff_print(&n, &n.loop[2].hi, buf, sizeof(buf));
	CHECK(!strcmp(buf, "K - 1"), "folded bound %s", buf);
	CHECK(n.nstmts == 3, "statements %d", n.nstmts);
	/* idempotent */
	CHECK(mp_reroll(&n) == 0 && n.nabsorbed == 1, "second reroll");
}

static void iterator_sanity(void)
{
	static mp_nest n;
	mp_pragma p;
	mp_plan plan;
	int k;

	memset(&p, 0, sizeof(p));
	p.prec = MP_PREC_INT8;
	CHECK(mp_nest_parse(&n, TILE_SCALAR("x[i*K+k]:s8", "w[j*K+k]:s8")) == 0, "parse: %s",
	      n.error);
	CHECK(mp_analyze(&n, &p, &plan) == 1, "sanity baseline: %s", plan.reason);
	k = mp_nest_find_var(&n, "k");
	n.var[k].kind = MP_VAR_LOCAL;
	CHECK(mp_analyze(&n, &p, &plan) == 0 && strstr(plan.reason, "internal error"),
	      "iterator described as a local: ok=%d %s", plan.ok, plan.reason);
	n.var[k].kind = MP_VAR_ITER;
	n.var[k].loop = 0;
	CHECK(mp_analyze(&n, &p, &plan) == 0 && strstr(plan.reason, "internal error"),
	      "iterator naming another loop: ok=%d %s", plan.ok, plan.reason);
}

/* The ISL budget (mp_model_set_budget, issue 14 item 4): under any
 * budget every table nest gets the plan or the refusal it gets with the
 * default budget, or the budget's refusal (at the outermost loop); never
 * another answer.  The smallest budgets refuse every nest that reaches
 * the model. */
static void isl_budget(void)
{
	static const unsigned long budgets[] = { 1, 10, 100, 1000, 3000, 10000, 30000 };
	static mp_nest n;
	static mp_plan base, plan;
	char budget_reason[MP_REASON_LEN];
	size_t i, b;
	int refused_small = 0, same_large = 0, modelled = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const pcase *c = &cases[i];
		mp_pragma p;

		memset(&p, 0, sizeof(p));
		p.prec = c->prec ? c->prec : MP_PREC_INT8;
		p.acc = c->acc;
		p.scale = c->scale;
		p.lp_capable = !c->nolp;
		mp_model_set_budget(0);
		if (mp_nest_parse(&n, c->text) != 0)
			continue;
		mp_analyze(&n, &p, &base);
		for (b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
			mp_model_set_budget(budgets[b]);
			snprintf(budget_reason, sizeof(budget_reason), MP_MODEL_BUDGET_FMT,
				 budgets[b]);
			CHECK(mp_nest_parse(&n, c->text) == 0, "%s: parse", c->name);
			mp_analyze(&n, &p, &plan);
			if (!plan.ok && !strcmp(plan.reason, budget_reason)) {
				CHECK(plan.reason_loc == (n.nloops ? n.loop[0].loc : 0),
				      "%s, budget %lu: reason_loc %d", c->name, budgets[b],
				      plan.reason_loc);
				refused_small += b == 0;
				continue;
			}
			CHECK(plan.ok == base.ok && !strcmp(plan.reason, base.reason) &&
			      plan.mode == base.mode && !strcmp(plan.what, base.what) &&
			      plan.need_runtime_bound == base.need_runtime_bound &&
			      plan.bound_static == base.bound_static,
			      "%s, budget %lu: ok=%d '%s' / default budget: ok=%d '%s'", c->name,
			      budgets[b], plan.ok, plan.reason, base.ok, base.reason);
			same_large += b + 1 == sizeof(budgets) / sizeof(budgets[0]);
		}
		/* a nest that reaches the model: refused at budget 1 */
		modelled += base.ok;
	}
	mp_model_set_budget(0);
	CHECK(mp_model_budget() == mp_model_budget_env(), "default budget restored");
	CHECK(refused_small >= modelled && modelled > 10,
	      "budget 1 refuses every transformed nest: %d of %d", refused_small, modelled);
	CHECK(same_large > 10, "budget 30000 gives the default answers: %d nests", same_large);
	printf("ISL budget: %d nests refused at budget 1, %d answered as by default at 30000\n",
	       refused_small, same_large);
}

/* Rows unrolled into two accumulators: mp_analyze_all plans both
 * contractions (tile mode, one reduction loop), the shared local b
 * forwarded into both. */
static void unrolled_rows(void)
{
	static mp_nest n;
	static mp_plan plans[4];
	mp_pragma p;
	int cnt;

	memset(&p, 0, sizeof(p));
	p.prec = MP_PREC_INT8;
	CHECK(mp_nest_parse(&n, DECLS "var s0 local s32\nvar s1 local s32\nvar b local s32\n"
		"loop i lo=0 hi=M-2 step=2\nstmt i : s0 = 0\nstmt i : s1 = 0\n"
		"loop k parent=i lo=0 hi=K-1\nstmt k : b = (cast:s32 w[k]:s8)\n"
		"stmt k : s0 = (+ s0 (* (cast:s32 x[i*K+k]:s8) b))\n"
		"stmt k : s1 = (+ s1 (* (cast:s32 x[i*K+K+k]:s8) b))\n"
		"stmt i : y[4*i]:s32 = s0\nstmt i : y[4*i+4]:s32 = s1\n") == 0, "parse: %s", n.error);
	cnt = mp_analyze_all(&n, &p, plans, 4);
	CHECK(cnt == 2, "unrolled rows: %d contractions (%s)", cnt, plans[0].reason);
	if (cnt != 2)
		return;
	CHECK(plans[0].mode == MP_OUT_TILE && plans[1].mode == MP_OUT_TILE &&
	      plans[0].red_loop == plans[1].red_loop && plans[0].ncontr == 2 &&
	      plans[0].acc_var != plans[1].acc_var && plans[0].acc_a != plans[1].acc_a,
	      "unrolled rows: two tile plans of one reduction loop");
	CHECK(mp_analyze_all(&n, &p, plans, 1) == 0, "unrolled rows: max 1 refuses");
}

/* Batch loops (issue 9): a contraction three loops deep inside a loop that
 * indexes the output is refused with mp_plan.descend naming the loop to
 * plan from; the inner nest, with b a parameter and b*M*K a product
 * variable, is a plain matrix product.  A loop outside the contraction that
 * does not index the output runs as written too (one call per iteration);
 * the contraction is then the innermost loops that index the output, and
 * k. */
static void batch_loops(void)
{
	static mp_nest n;
	static mp_plan plans[4];
	mp_pragma p;
	int cnt, li;

	memset(&p, 0, sizeof(p));
	p.prec = MP_PREC_INT8;
	CHECK(mp_nest_parse(&n, DECLS "var B param s32\nvar b iter s32\nvar s local s32\n"
		"loop b lo=0 hi=B-1\nloop i parent=b lo=0 hi=M-1\n"
		"loop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s " PROD("x[b*M*K+i*K+k]:s8", "w[j*K+k]:s8") ")\n"
		"stmt j : y[4*b*M*N+4*i*N+4*j]:s32 = s\n") == 0, "parse: %s", n.error);
	cnt = mp_analyze_all(&n, &p, plans, 4);
	/* fused store: the batch loop indexes x and y only, a second row
	   loop (one call, M2 blocks of M rows; the runtime checks that the
	   blocks of y do not overlap) */
	CHECK(cnt == 1 && plans[0].loop_i2 == 0 && plans[0].loop_i == 1 &&
	      plans[0].mode == MP_OUT_FUSED, "batch: rows (b, i) in one call (%d, i2 %d: %s)",
	      cnt, plans[0].loop_i2, plans[0].reason);
	/* the same with an epilogue the kernels do not fuse: tile mode, the
	   tile's rows (b, i) */
	CHECK(mp_nest_parse(&n, DECLS "var B param s32\nvar b iter s32\nvar s local s32\n"
		"loop b lo=0 hi=B-1\nloop i parent=b lo=0 hi=M-1\n"
		"loop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s " PROD("x[b*M*K+i*K+k]:s8", "w[j*K+k]:s8") ")\n"
		"stmt j : y[4*b*M*N+4*i*N+4*j]:s32 = (call:s32 \"abs\" s)\n") == 0, "parse: %s",
	      n.error);
	cnt = mp_analyze_all(&n, &p, plans, 4);
	li = 1;   /* loop ids in order of declaration: b 0, i 1 */
	CHECK(cnt == 1 && plans[0].loop_i2 == 0 && plans[0].loop_i == li &&
	      plans[0].mode == MP_OUT_TILE, "batch: tile rows (b, i) (%d, i2 %d: %s)", cnt,
	      plans[0].loop_i2, plans[0].reason);
	/* the inner nest as the glue describes it: b a parameter */
	CHECK(mp_nest_parse(&n, DECLS "var B param s32\nvar b param s32 outer_iter\n"
		"var s local s32\n"
		"loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nstmt j : s = 0\n"
		"loop k parent=j lo=0 hi=K-1\n"
		"stmt k : s = (+ s " PROD("x[b*M*K+i*K+k]:s8", "w[j*K+k]:s8") ")\n"
		"stmt j : y[4*b*M*N+4*i*N+4*j]:s32 = s\n") == 0, "parse: %s", n.error);
	cnt = mp_analyze_all(&n, &p, plans, 4);
	CHECK(cnt == 1 && plans[0].ok, "batch inner: planned (%s)", plans[0].reason);
	CHECK(mp_nest_find_var(&n, "b*M") >= 0 || mp_nest_find_var(&n, "M*b") >= 0 ||
	      mp_nest_find_var(&n, "M*K") >= 0, "batch inner: a product variable");
	/* b reduces (indexes both operands, not the output) */
	CHECK(mp_nest_parse(&n, DECLS "var B param s32\nvar b iter s32\n"
		"loop b lo=0 hi=B-1\nloop i parent=b lo=0 hi=M-1\n"
		"loop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=K-1\n"
		"stmt k : y[4*i*N+4*j]:s32 = (+ y[4*i*N+4*j]:s32 "
		PROD("x[b*M*K+i*K+k]:s8", "w[b*K*N+k*N+j]:s8") ")\n") == 0, "parse: %s", n.error);
	cnt = mp_analyze_all(&n, &p, plans, 4);
	CHECK(cnt == 0 && plans[0].descend == li &&
	      strstr(plans[0].descend_note, "loop 'b' around the contraction runs as written"),
	      "batch reduction: one call per b from loop i (%d: %s)", plans[0].descend,
	      plans[0].reason);
	/* doitgen: r and q index neither the temporary sum[p] nor anything
	   the contraction writes; the contraction is the innermost two loops
	   (p, s), planned per (r, q) */
	CHECK(mp_nest_parse(&n, DECLS "var R param s32\nvar Q param s32\nvar r iter s32\n"
		"var q iter s32\nvar P param s32\n"
		"loop r lo=0 hi=R-1\nloop q parent=r lo=0 hi=Q-1\n"
		"loop i parent=q lo=0 hi=P-1\nstmt i : y[4*i]:s32 = 0\n"
		"loop k parent=i lo=0 hi=P-1\n"
		"stmt k : y[4*i]:s32 = (+ y[4*i]:s32 "
		PROD("x[r*Q*P+q*P+k]:s8", "w[k*P+i]:s8") ")\n") == 0, "parse: %s", n.error);
	cnt = mp_analyze_all(&n, &p, plans, 4);
	CHECK(cnt == 0 && plans[0].descend == 2 &&
	      strstr(plans[0].descend_note, "loops 'r', 'q' around the contraction run as written"),
	      "doitgen: descend to loop i (%d: %s / %s)", plans[0].descend, plans[0].reason,
	      plans[0].descend_note);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
	loop_orders();
	triangular_ranges();
	reroll_ids();
	iterator_sanity();
	isl_budget();
	unrolled_rows();
	batch_loops();
	printf("%zu table rows + 6 loop orders\n", sizeof(cases) / sizeof(cases[0]));
	CT_DONE("test_core_plan");
}
