/* mp_nest.h -- compiler-neutral description of an annotated loop nest,
 * the pragma it carries, and the plan the core derives from both.
 *
 * This is the contract between the compiler glue (plugin-gcc/, later
 * plugin-clang/) and the analysis core (polyhedral/, plain C + ISL):
 *
 *   glue:  source IR  -> mp_nest          (mp_nest_* builders below)
 *   core:  mp_nest + mp_pragma -> mp_plan (mp_analyze)
 *   glue:  mp_plan    -> calls into the runtime (include/mixprec.h)
 *
 * Nothing in here knows about GCC or clang.  Every object is a plain value
 * type kept in fixed-size tables, indexed by small integers ("ids"); a nest
 * that does not fit the tables is refused with a reason, never truncated.
 *
 * Ownership: mp_nest and mp_plan are caller-allocated (they are large but
 * flat; allocate them with calloc).  No function here keeps pointers to its
 * arguments.
 */
#ifndef MP_NEST_H
#define MP_NEST_H

#include <stdint.h>
#include <stddef.h>
#include "mp_guard.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MP_MAX_VARS     96
#define MP_MAX_LOOPS    12
#define MP_MAX_SUM      2   /* summed reduction loops around loop k */
#define MP_MAX_ARRAYS   24
#define MP_MAX_ACCESSES 96
#define MP_MAX_EXPRS    768
#define MP_MAX_STMTS    96
#define MP_MAX_TERMS    8
#define MP_MAX_ARGS     8    /* arguments of an MP_X_CALL */
#define MP_MAX_CONDS    8    /* affine conditions (mp_cond) of a nest */
#define MP_MAX_NARROW   4    /* narrowed values (mp_narrow) of a nest */
#define MP_NAME_LEN     48
#define MP_REASON_LEN   320

/* Messages both glues give for facts only they can see (one text, so the
 * compilers say the same). */
#define MP_MSG_ITER_IN_MEMORY \
	"loop variable '%s' lives in memory (a global, or its address is taken) and " \
	"may change through a pointer; use a local variable as the iterator"

#define MP_MSG_BOUND_MEMORY \
	"the bound of loop '%s' is read from memory (a struct member or an array " \
	"element); copy it to a local variable before the nest"
#define MP_MSG_BOUND_MEMORY_CALL \
	"the bound of loop '%s' is read from memory and the nest calls '%s', which " \
	"may write it; copy the bound to a local variable before the nest"
#define MP_MSG_OMP_LOOP \
	"the loop carries an OpenMP directive other than 'parallel for', 'parallel for simd' " \
	"or 'simd' (mixprec replaces those constructs whole, the kernels using the " \
	"directive's thread count): put '#pragma mixprec' on a loop inside the construct's " \
	"body (a nest there runs on the kernels on each thread)"
#define MP_MSG_OMP_CLAUSE \
	"the OpenMP loop runs as written (mixprec replaces 'parallel for' constructs whose " \
	"clauses are private, firstprivate, shared, default, schedule, collapse, num_threads, " \
	"if, proc_bind, safelen, simdlen or aligned)"
#define MP_MSG_OMP_DEFAULT \
	"the OpenMP directive on the loop has a 'default(private)' or 'default(firstprivate)' " \
	"clause: the variables of the loop are the threads' own copies, which the call " \
	"replacing the loop would not use; name them in private/firstprivate clauses instead"
#define MP_MSG_OMP_NONRECT \
	"the loops the OpenMP directive collapses are not rectangular (a bound names an " \
	"outer collapsed loop's iterator); remove the collapse clause"
#define MP_MSG_OMP_TLS \
	"the nest reads the threadprivate (thread-local) variable '%s', of which each thread " \
	"of the OpenMP team has its own copy; the call replacing the loop would read the " \
	"calling thread's only"
#define MP_MSG_OMP_PRIVATE_ARRAY \
	"the array '%s' is private to the OpenMP construct (each thread writes its own " \
	"copy); the call replacing the loop would write the original"
#define MP_MSG_NOT_LP64 \
	"the target is not 64-bit (long and pointers of 64 bits); mixprec's kernels are for " \
	"x86-64 and aarch64"
#define MP_MSG_OMP_REMARK \
	"the OpenMP construct on the loop is replaced by the call, its kernels on the " \
	"construct's threads (num_threads, else OMP_NUM_THREADS); the construct runs as " \
	"written when the call falls back"
#define MP_MSG_OMP_DESCEND \
	"the contraction is inside loops the nest keeps around the call, and the outermost " \
	"carries an OpenMP loop directive: mixprec replaces only whole nests under an OpenMP " \
	"directive; put '#pragma mixprec' on the contraction's loop inside the OpenMP loop " \
	"(it then runs on the kernels on each thread)"
#define MP_MSG_OMP_TILE \
	"under an OpenMP loop directive, a nest whose loops stay (tile mode) needs one " \
	"contraction, its reduction loop inside the directive's loop, the loops not collapsed " \
	"and no num_threads clause (the loops run on the calling thread); remove the clause, or " \
	"the directive: the kernels use OpenMP threads themselves (%s)"

/* a loop of the contraction whose constant bounds give it no iteration
 * (`for (i = 0; i < 0; i++)`, a dimension configured to 0 by a macro) */
#define MP_MSG_NO_ITERATIONS \
	"loop '%s' runs no iterations (its bounds are constants): nothing to transform"
#define MP_MSG_COND_FALSE \
	"the loop's condition is always false (it runs no iterations): nothing to transform"

#define MP_MSG_CALL_EFFECTS \
	"call to '%s' may have side effects: its body writes memory other than its " \
	"own variables, or is not visible here (declare it __attribute__((const)) or " \
	"__attribute__((pure)))"

/* ---------------------------------------------------------------- types */

/* Scalar element types the core distinguishes. */
typedef enum mp_scalar {
	MP_TY_OTHER = 0, /* anything else (struct, bool, ...): never an operand */
	MP_TY_S8, MP_TY_U8, MP_TY_S16, MP_TY_U16,
	MP_TY_S32, MP_TY_U32, MP_TY_S64, MP_TY_U64,
	MP_TY_F32, MP_TY_F64,
	MP_TY_PTR
} mp_scalar;

const char *mp_scalar_name(mp_scalar t);      /* "s8", "u8", ..., "ptr" */
int mp_scalar_is_int(mp_scalar t);
int mp_scalar_bits(mp_scalar t);              /* 0 for OTHER */

/* ------------------------------------------------------------ variables */

/* ITER : the induction variable of a loop of the nest.
 * PARAM: a scalar that is read in the nest and never written inside it
 *        (sizes, leading dimensions, zero points, pointer bases).
 * LOCAL: a user scalar written inside the nest (accumulators, temporaries
 *        the user named).  Compiler temporaries never appear: the glue
 *        folds them into expressions. */
typedef enum mp_var_kind { MP_VAR_ITER, MP_VAR_PARAM, MP_VAR_LOCAL } mp_var_kind;

typedef struct mp_var {
	char name[MP_NAME_LEN];
	mp_var_kind kind;
	mp_scalar type;
	int loop;              /* ITER: the loop it drives; else -1 */
	int used_after;        /* ITER/LOCAL: read after the nest (glue fills) */
	int in_memory;         /* PARAM: a variable in memory (a global) read as
	                          an invariant; its bytes are protected at run
	                          time against the nest's stores */
	int64_t mem_size;      /* in_memory: its size in bytes */
	int outer_iter;        /* PARAM: the iterator of a loop around the
	                          annotated nest (glue); used for the hint
	                          that the pragma could stand on that loop */
	int same_as;           /* ITER of a loop reusing the source variable of
	                          a sibling loop's iterator (`int j;` driving
	                          two loops): the first such var's id; else -1.
	                          A read of the variable outside every loop it
	                          drives is described as a read of any one of
	                          them */
	int prod[2];           /* PARAM standing for the product of PARAMs
	                          prod[0] * prod[1] (made by mp_aff_mul for
	                          terms of three or more factors: b*T*C is
	                          b * (T*C)); the glue evaluates it as that
	                          product.  -1, -1 otherwise */
} mp_var;

/* -------------------------------------------------------- affine forms */

/* A "quasi-affine" integer expression: cst + sum coef * v1 [* v2].
 * v1, v2 are variable ids; v2 == -1 for a linear term.  In a product term
 * at most one of v1, v2 is an ITER (the other a PARAM): this is what
 * linearised subscripts look like (i*ld + k).  PARAM*PARAM terms are
 * allowed (they are loop invariant); ITER*ITER is not affine and the glue
 * reports the subscript as non-affine instead. */
typedef struct mp_term {
	int64_t coef;
	int v1, v2;
} mp_term;

typedef struct mp_aff {
	int64_t cst;
	int n;
	mp_term t[MP_MAX_TERMS];
} mp_aff;

/* ----------------------------------------------------- arrays, accesses */

/* An array is the object an access goes through: a pointer variable (a
 * PARAM of type PTR, value = base address) or a declared array (global,
 * static, local or parameter of array type).  Two distinct arrays may still
 * overlap at run time when either is a pointer: the core asks for a run-time
 * overlap check then. */
typedef struct mp_array {
	char name[MP_NAME_LEN];
	int base_var;          /* PARAM var holding the base pointer, or -1 */
	int is_decl;           /* a declared array object (not a pointer) */
	int64_t size_bytes;    /* size of a declared array, -1 if unknown */
} mp_array;

/* One memory access.  The address is  base(array) + off  in BYTES, where
 * off is an mp_aff over ITER and PARAM variables.  affine == 0 marks an
 * address the glue could not express (indirect subscript, ...): off is then
 * meaningless and the access may touch any byte of its array. */
typedef struct mp_access {
	int array;
	mp_aff off;
	int affine;
	mp_scalar elem;
	int elem_size;         /* bytes */
	int is_write;
	int stmt;              /* statement containing it */
	int loc;               /* glue location cookie (for diagnostics) */
	/* in-bounds assumptions (glue): C forbids indexing past an inner
	   dimension of a declared array type (`int32_t C[NI][NJ]`, C[i][j]:
	   0 <= j < NJ), so wherever the access runs 0 <= bidx[d] < bext[d].
	   Used where they matter: one output element per (i, j) point. */
	int nbound;
	mp_aff bidx[3];
	int64_t bext[3];
	int via;               /* set by mp_walk_resolve: the walking pointer
	                          (a LOCAL var) the glue described it through,
	                          before the array and offset were rewritten
	                          to its closed form; -1 otherwise */
	unsigned conds;        /* a read under a condition: the value is the
	                          load where these mp_conds hold, `padv`
	                          elsewhere (`inside ? in[...] : 0`, the value
	                          of a select); 0: always the load */
	int64_t padv;
} mp_access;

/* --------------------------------------------------------- expressions */

typedef enum mp_expr_kind {
	MP_X_CONST,   /* cst (integers) or fcst (floats) */
	MP_X_VAR,     /* read of variable `var` */
	MP_X_LOAD,    /* read of access `access` */
	MP_X_CAST,    /* conversion of operand a to `type` */
	MP_X_ADD, MP_X_SUB, MP_X_MUL, MP_X_NEG,
	MP_X_OTHER,   /* any other operation / pure call; operands a, b
	                 (-1 when absent) are listed so that reads are known */
	MP_X_CALL     /* call of the pure function `op` with ALL its arguments:
	                 args[0..nargs-1] in order (nargs <= MP_MAX_ARGS; a
	                 call with more arguments is an MP_X_OTHER).  a and b
	                 mirror args[0] and args[1] (-1 when absent):
	                 mp_nest_add_expr sets them, so code that only follows
	                 a and b still sees the first two. */
} mp_expr_kind;

typedef struct mp_expr {
	mp_expr_kind kind;
	mp_scalar type;        /* type of the result */
	int64_t cst;
	double fcst;
	int var;
	int access;
	int a, b;
	int nargs;             /* MP_X_CALL: number of arguments, else 0 */
	int args[MP_MAX_ARGS]; /* MP_X_CALL: argument expr ids, else unused (0) */
	char op[MP_NAME_LEN];  /* MP_X_OTHER: operator or callee name, for reasons;
	                          MP_X_CALL: the callee name */
} mp_expr;

/* ---------------------------------------------------------- statements */

/* ASSIGN: var `lhs_var` (a LOCAL or ITER) = expr `rhs`; or, when
 *         `ptr_assign` is set, a pointer assignment  lhs_var =
 *         base(ptr_array) + ptr_off  (bytes; rhs -1): `p = x + i*K`,
 *         `p++` (ptr_array is then the array based on lhs_var itself:
 *         a step), `p = q` with q another pointer.  Locals assigned this
 *         way are walking pointers; mp_walk_resolve turns the accesses
 *         made through them into closed forms.
 * STORE : access `lhs_access` (is_write) = expr `rhs`.
 * OPAQUE: something the glue cannot describe (call with side effects,
 *         asm, volatile access, store through a non-affine address of
 *         unknown array).  `why` says what.  Its presence blocks
 *         transformation unless the core can prove it harmless (it never
 *         can at present). */
typedef enum mp_stmt_kind { MP_S_ASSIGN, MP_S_STORE, MP_S_OPAQUE } mp_stmt_kind;

typedef struct mp_stmt {
	mp_stmt_kind kind;
	int loop;              /* innermost enclosing loop id, -1 = none */
	int pos;               /* position among the children of `loop` */
	int guarded;           /* executed under a condition inside its loop */
	unsigned conds;        /* guarded: when non-zero, the whole condition
	                          as a conjunction of the nest's mp_cond
	                          (bit c: cond[c] holds); 0: not described */
	int lhs_var;
	int lhs_access;
	int rhs;
	int loc;               /* glue location cookie */
	int ptr_assign;        /* ASSIGN of a pointer: lhs_var = &ptr_array[ptr_off] */
	int ptr_array;
	mp_aff ptr_off;
	int ivstep;            /* set by mp_walk_resolve: a step or reset of a
	                          walking pointer whose accesses it resolved
	                          (no longer a statement of the computation) */
	char why[MP_REASON_LEN];
} mp_stmt;

/* ---------------------------------------------------------------- loops */

/* for (iter = lo; iter <= hi; iter += step).  lo and hi are inclusive
 * affine bounds over PARAM and outer ITER variables.  Loop 0 is the
 * outermost loop of the nest (the one the pragma annotates). */
typedef struct mp_loop {
	int iter;              /* ITER var id */
	int parent;            /* loop id, -1 for loop 0 */
	int pos;               /* position among the children of parent */
	mp_aff lo, hi;
	int64_t step;          /* only 1 is transformed */
	int ne_exit;           /* the exit test is `iter != bound`, described
	                          as `<` (step 1): the same loop only when the
	                          iterator starts at or below the bound (the
	                          core checks it can tell) */
	int loc;               /* glue location cookie */
	int after;             /* the loop has no initial value of its own: it
	                          continues the iterator of loop `after` (the
	                          sibling just before it on the same variable:
	                          `for (; k + 3 < K; k += 4) ...; for (; k < K;
	                          k++) ...`); lo is then meaningless.  Only
	                          mp_reroll's form is understood.  -1 otherwise */
	int orig;              /* the loop's id as the glue added it (ids move
	                          when mp_reroll removes a loop) */
	unsigned conds;        /* the loop runs, on an iteration of its parent,
	                          only where these mp_conds hold (bit c:
	                          cond[c]): a loop under `if`, or after
	                          `if (...) continue;`.  0: always */
	int step_var;          /* >= 0: the loop steps by the value of this
	                          PARAM (`j += GS`, GS set at run time; step
	                          is then 1, the values between the steps
	                          included: a superset); positive at run
	                          time or the call falls back.  Only a
	                          quantization group loop (plan.loop_g) is
	                          planned with one.  -1 otherwise */
	unsigned clip;         /* a window clipped by MAX/MIN bounds (CMSIS-NN's
	                          `for (k = MAX(0, -base); k < MIN(K, W -
	                          base); k++)`): bit 0, the loop starts at
	                          max(lo, lo2); bit 1, it ends at min(hi, hi2)
	                          (inclusive, as hi).  The core rewrites it as
	                          the loop over the iterator-free bounds with
	                          the others as conditions on its statements
	                          (mp_analyze) */
	mp_aff lo2, hi2;
	int zguard;            /* >= 0: the loop runs only where this variable
	                          is non-zero (`if (t != 0) for (j ...) C[i][j]
	                          += t * B[k][j];`, the zero-skip guard of
	                          netlib's and GSL's C BLAS).  The core checks
	                          that the loop holds the contraction alone,
	                          its product having the variable as a factor:
	                          what the guard skips adds t * b = 0 (for
	                          floats a zero, the non-finite b the runtime
	                          falls back on aside).  -1 otherwise */
	char zguard_src[MP_NAME_LEN]; /* "" where the guard tests zguard
	                          itself; else the guard tests an operand
	                          element, as written here (netlib's f2c
	                          BLAS: `if (b[l + j * b_dim1] != 0.f) { temp
	                          = alpha * b[l + j * b_dim1]; for ...}`) and
	                          zguard is the local assigned under the
	                          guard with that element as a factor (the
	                          glue checks it): where the element is 0,
	                          zguard is 0.  zguard must then not be used
	                          after the nest (the guard kept its old
	                          value) */
} mp_loop;

/* ----------------------------------------------------------- conditions */

/* An affine condition  e >= 0  over ITER and PARAM variables, as the glue
 * read it from an `if` or a `continue` guarding statements or loops of the
 * nest (`ih >= 0 && ih < H` is two: ih >= 0 and H - ih - 1 >= 0).  A
 * padded convolution's window test; the core decides what it may guard. */
typedef struct mp_cond {
	mp_aff e;
	int loc;               /* glue location cookie */
} mp_cond;

/* A value narrowed to a smaller integer type (CMSIS-NN's `const int16_t
 * base_idx_y = i_out_y * stride_y - pad_y;`): the glue reads it as the
 * affine value e, which is exact only while every value e takes lies in
 * [lo, hi] (the narrow type's range; outside it the conversion wraps).
 * The glue checks that before the call, at every corner of the box of the
 * iterators' ranges (mp_plan.range_lo / range_hi): e is affine in each
 * iterator, so its extremes over the box lie at corners (at most
 * 2^MP_MAX_NARROW_ITERS of them); when one is out, the nest runs as
 * written. */
#define MP_MAX_NARROW_ITERS 3
typedef struct mp_narrow {
	mp_aff e;
	int64_t lo, hi;
} mp_narrow;

/* --------------------------------------------------------------- nest */

typedef struct mp_nest {
	int nvars, nloops, narrays, naccesses, nexprs, nstmts;
	mp_var var[MP_MAX_VARS];
	mp_loop loop[MP_MAX_LOOPS];
	mp_array array[MP_MAX_ARRAYS];
	mp_access access[MP_MAX_ACCESSES];
	mp_expr expr[MP_MAX_EXPRS];
	mp_stmt stmt[MP_MAX_STMTS];
	int nconds;
	mp_cond cond[MP_MAX_CONDS];
	int nnarrow;
	mp_narrow narrow[MP_MAX_NARROW];
	/* loops mp_reroll folded into the loop before them, by their glue ids
	   (mp_loop.orig): the glue drops them from its own loop list, in
	   decreasing id order, and runs them only when the nest falls back */
	int nabsorbed;
	int absorbed[MP_MAX_LOOPS];
	/* set by a builder when a table overflowed or an input was invalid;
	   mp_analyze then refuses with this text */
	char error[MP_REASON_LEN];
} mp_nest;

/* Builders.  All return the new id, or -1 (and set n->error) when a table
 * is full.  Names are copied (truncated to MP_NAME_LEN - 1). */
void mp_nest_init(mp_nest *n);
int mp_nest_add_var(mp_nest *n, const char *name, mp_var_kind kind, mp_scalar type);
int mp_nest_find_var(const mp_nest *n, const char *name);          /* -1 if none */
int mp_nest_add_loop(mp_nest *n, int iter, int parent, int pos,
		     const mp_aff *lo, const mp_aff *hi, int64_t step);
int mp_nest_add_array(mp_nest *n, const char *name, int base_var, int is_decl,
		      int64_t size_bytes);
int mp_nest_add_access(mp_nest *n, int array, const mp_aff *off, int affine,
		       mp_scalar elem, int elem_size, int is_write, int stmt);
int mp_nest_add_expr(mp_nest *n, const mp_expr *e);
/* The value of affine form A as expressions of type TY (the constant plus
 * each term, coef * v1 [* v2]): a glue's value read where it stands for
 * an affine one (a variable stepped beside an iterator).  The root's id,
 * or -1 (the nest's expression table is full: n->error says so). */
int mp_nest_add_aff_expr(mp_nest *n, const mp_aff *a, mp_scalar ty);
int mp_nest_add_stmt(mp_nest *n, const mp_stmt *s);
/* The condition e >= 0 (an existing equal one is reused); -1 when the
 * table is full (the glue then describes the guard as unreadable). */
int mp_nest_add_cond(mp_nest *n, const mp_aff *e, int loc);
/* A value e converted to an integer type of BITS bits (UNS: unsigned),
 * BITS < 64 (mp_narrow; an existing equal one is reused): 0; 1 when e
 * names no iterator (not recorded: a loop-invariant value the glue keeps
 * as written, a derived parameter); -1 when the table is full or e names
 * more than MP_MAX_NARROW_ITERS iterators (the glue then reads the
 * conversion as not affine). */
int mp_nest_add_narrow(mp_nest *n, const mp_aff *e, int bits, int uns);
/* The distinct ITER variables of A, in order of appearance, into it[0..]
 * (room for 2 * MP_MAX_TERMS): their count (the corners of a narrowed
 * value's check: bit k of a corner picks it[k]'s upper bound). */
int mp_aff_iters(const mp_nest *n, const mp_aff *a, int *it);

/* Affine helpers.  They return 0 on success, -1 when the result is not
 * quasi-affine or does not fit MP_MAX_TERMS. */
void mp_aff_const(mp_aff *r, int64_t c);
void mp_aff_var(mp_aff *r, int var);
int mp_aff_add(mp_aff *r, const mp_aff *a, const mp_aff *b);      /* r = a + b */
int mp_aff_scale(mp_aff *r, const mp_aff *a, int64_t c);           /* r = a * c */
int mp_aff_equal(const mp_aff *a, const mp_aff *b);                /* a - b == 0 */
/* A test `e >= 0` (or `e > 0`) choosing value tv where it holds, fv where
 * not: 1 with *is_max = 1 when that is max(tv, fv) (e a positive multiple
 * of tv - fv, or tv - fv of e, up to 16: compilers divide a test by common
 * factors; at tv == fv either arm is the value), *is_max = 0 when it is
 * min(tv, fv) (the same with fv - tv); 0 when neither */
int mp_aff_minmax(const mp_aff *e, const mp_aff *tv, const mp_aff *fv, int *is_max);
/* r = a * b when the product is quasi-affine: at most one iterator in
 * each term.  Terms of three or more factors keep the iterator (if any)
 * and one parameter: the other parameters are folded into product
 * variables (mp_var.prod) added to n. */
int mp_aff_mul(mp_nest *n, mp_aff *r, const mp_aff *a, const mp_aff *b);
/* The variable standing for PARAMs a * b (added on first use); -1 if the
 * nest is full. */
int mp_nest_prod_var(mp_nest *n, int a, int b);
int mp_aff_is_const(const mp_aff *a, int64_t *c);
/* Coefficient of ITER var `it` in a, as an affine form over PARAMs (a
 * linearised subscript i*ld + k has coefficient `ld` for i). */
void mp_aff_coef_of(const mp_aff *a, int it, mp_aff *coef);
int mp_aff_uses_var(const mp_aff *a, int var);
/* Print in C syntax ("4*i*K + 4*k"), for reasons and tests. */
int mp_aff_print(const mp_nest *n, const mp_aff *a, char *buf, size_t len);

/* Dump the whole nest in the text format of mp_nest_parse (docs/nest-format.md). */
int mp_nest_print(const mp_nest *n, char *buf, size_t len);
/* Parse the text format (used by unit tests and by `-fplugin-arg-...-dump`).
 * Returns 0, or -1 with a message in n->error. */
int mp_nest_parse(mp_nest *n, const char *text);

/* -------------------------------------------------------------- pragma */

typedef enum mp_prec {
	MP_PREC_NONE = 0, MP_PREC_INT8, MP_PREC_UINT8, MP_PREC_BF16,
	MP_PREC_FP16, MP_PREC_FP8_E4M3, MP_PREC_FP8_E5M2,
	MP_PREC_AUTO   /* auto [(candidates)]: mp_analyze_auto picks one */
} mp_prec;
/* The candidates of `auto` (mp_pragma.auto_mask): bit (1 << prec). */
#define MP_AUTO_CANDIDATES ((1 << MP_PREC_INT8) | (1 << MP_PREC_UINT8) | (1 << MP_PREC_BF16) | \
			    (1 << MP_PREC_FP8_E4M3) | (1 << MP_PREC_FP8_E5M2))

typedef enum mp_accty { MP_ACC_DEFAULT = 0, MP_ACC_INT32, MP_ACC_FP32 } mp_accty;

typedef enum mp_target {
	MP_TARGET_AUTO = 0, MP_TARGET_SCALAR, MP_TARGET_AVX2, MP_TARGET_AVX512VNNI,
	MP_TARGET_AVXVNNI, MP_TARGET_AVX512BF16, MP_TARGET_DOTPROD, MP_TARGET_I8MM
} mp_target;

typedef enum mp_scale_kind { MP_SCALE_NONE = 0, MP_SCALE_DYNAMIC, MP_SCALE_EXPR } mp_scale_kind;

/* Tokens as the glue's preprocessor delivers them (macros expanded). */
typedef enum mp_tok_kind {
	MP_TOK_NAME, MP_TOK_NUMBER, MP_TOK_PUNCT, MP_TOK_STRING, MP_TOK_OTHER
} mp_tok_kind;

typedef struct mp_token {
	mp_tok_kind kind;
	char text[64];
	int loc;               /* glue location cookie */
} mp_token;

#define MP_MAX_PRAGMA_TOKENS 256
#define MP_MAX_SCALE_TOKENS  64

/* One operand's scale in an explicit scale=(SA, SB) (mp_pragma_scales):
 * SA belongs to the left factor of the product as written, SB to the
 * right one. */
typedef enum mp_sspec_kind {
	MP_SS_DYNAMIC = 0, /* dynamic: computed from the data at run time */
	MP_SS_NUMBER,      /* a literal number > 0 (value)                */
	MP_SS_NAME,        /* a float/double variable: one scale (name)   */
	MP_SS_INDEXED      /* name[index]: a float/double array or pointer
	                      indexed by a loop iterator: one per channel */
} mp_sspec_kind;

typedef struct mp_scale_spec {
	mp_sspec_kind kind;
	double value;          /* MP_SS_NUMBER */
	char name[64];         /* MP_SS_NAME / MP_SS_INDEXED */
	char index[64];        /* MP_SS_INDEXED: the iterator's name */
	int tok;               /* index of its first token in the pragma's tokens */
	int loc;               /* location cookie of that token */
	/* Set by the glue after it resolved `name` where the pragma stands
	   (never by the parser): the element type of the variable or of the
	   array (MP_TY_F32 / MP_TY_F64); MP_TY_OTHER while unresolved. */
	mp_scalar elem;
} mp_scale_spec;

typedef struct mp_pragma {
	mp_prec prec;
	mp_accty acc;
	mp_target target;
	mp_scale_kind scale;
	int scale_first, scale_count;  /* token range of an explicit scale= */
	int tile_m, tile_n, tile_k;    /* tile=MxNxK override, 0 = planner's */
	int verify;                    /* verify clause (the glue may also set it
	                                  from a plugin argument) */
	char constant[2][64];          /* constant=NAME / (NAME, NAME): operand
	                                  arrays whose contents do not change
	                                  between calls (packed and quantized
	                                  once by the runtime) */
	int nconstant;
	int constant_tok[2];           /* location cookies of those names */
	int constant_loc;              /* of the clause's value, 0 if none */
	mp_scale_spec sspec[2];        /* scale=(SA, SB) after mp_pragma_scales */
	int nsspec;                    /* 2 then, else 0 */
	int loc;                       /* location cookie of the precision */
	int scale_loc;                 /* location cookie of scale=, 0 if none */
	int lp_capable;                /* set by the glue (never by the parser):
	                                  it can emit __mixprec_lp_nest, so
	                                  floating-point sources may be planned;
	                                  0: they are refused */
	int auto_mask;                 /* prec == MP_PREC_AUTO: the candidates
	                                  (MP_AUTO_CANDIDATES bits; all of them
	                                  for a plain `auto`) */
	/* set by the glue (never by the parser) for `auto`: the nest's
	   "FILE:LINE" (the string of MP_ARG_LOC, the runtime profile's key)
	   and -fplugin-arg-mixprec-profile-use's file, or NULL */
	const char *auto_where;
	const char *auto_profile;
} mp_pragma;

/* Parse the tokens between the pragma name and the end of the line:
 * "( PREC [, clause]... )".  Returns 0, or -1 with a message in err and the
 * index of the offending token in *err_tok (ntok when the problem is at the
 * end).  Every message is a complete sentence fragment in the style of
 * compiler diagnostics, e.g. "unknown precision 'int4' in '#pragma mixprec';
 * expected one of int8, uint8, bf16, fp16, fp8_e4m3, fp8_e5m2". */
int mp_pragma_parse(const mp_token *tok, int ntok, mp_pragma *out,
		    char *err, size_t errlen, int *err_tok);
/* Interpret an explicit scale=EXPR (p->scale == MP_SCALE_EXPR) as one
 * scale per operand, "( S , S )" with S one of dynamic, a number > 0,
 * NAME, NAME [ NAME ], and fill p->sspec / p->nsspec.  Returns 0 (also
 * when there is no explicit scale), or -1 with a message and the index of
 * the offending token, like mp_pragma_parse.  The glue calls it after
 * mp_pragma_parse and then resolves the names (mp_scale_spec.elem). */
int mp_pragma_scales(const mp_token *tok, int ntok, mp_pragma *p,
		     char *err, size_t errlen, int *err_tok);
const char *mp_prec_name(mp_prec p);
/* Is access ACC a read of memory the nest may take as a loop-invariant
 * value (a zero point `zp[0]`, `p->zp`, a factor `*alpha`): affine, its
 * offset over parameters only, its array a parameter pointer or a
 * declared array that no access of the nest writes?  The call reads it
 * once, before the nest (the glues load it from its address); its bytes
 * join the ranges the nest's stores must not hit (mp_args.c). */
int mp_invariant_load(const mp_nest *n, int acc);
/* The refusal of a pragma above a do-while loop, in both glues' words. */
#define MP_DO_WHILE_REASON                                                              \
	"a do-while loop (its body runs once before the first test); mixprec reads "  \
	"'for' and 'while' loops: write the nest with them (the loop is compiled as "  \
	"written)"
const char *mp_target_name(mp_target t);

/* ---------------------------------------------------------------- plan */

typedef enum mp_out_mode {
	MP_OUT_TILE,   /* the runtime fills a temporary int32 tile T[M][N];
	                  the reduction loop becomes  acc = acc + T[i-lo_i][j-lo_j] */
	MP_OUT_DIRECT, /* the runtime accumulates straight into the output
	                  access (C += A*B); the nest disappears */
	MP_OUT_FUSED   /* a recognised epilogue: the runtime computes
	                  out(i,j) = EPI(init + bias(i,j) + S(i,j)) in the
	                  kernel's epilogue; the nest disappears */
} mp_out_mode;

/* Epilogues the kernels fuse (MP_OUT_FUSED).  The values equal the
 * runtime's mp_epi (include/mixprec.h), passed through unchanged.  EPI is exactly the
 * include/mixprec.h helper of the same name, then the C conversion to the
 * output's element type. */
typedef enum mp_epi_kind {
	MP_FUSE_STORE = 0,  /* out = acc                      (no args)            */
	MP_FUSE_FP32,       /* mp_requant_fp32(acc, scale, zp, qmin, qmax)         */
	MP_FUSE_GEMMLOWP,   /* mp_requant_gemmlowp(acc, qm, shift, zp, qmin, qmax) */
	MP_FUSE_RNDNU,      /* mp_requant_rndnu(acc, qm, shift, zp, qmin, qmax)    */
	MP_FUSE_CLAMP       /* mp_clamp_i32(acc, lo, hi)                           */
} mp_epi_kind;

typedef struct mp_plan {
	int ok;                    /* 1: transform as planned */
	char reason[MP_REASON_LEN];/* ok == 0: why not (one line, no location) */
	int reason_loc;            /* location cookie the reason points at */

	int loop_i, loop_j, loop_k;/* loop ids; loop_j == -1 for matrix-vector */
	int loop_i2;               /* DIRECT / FUSED: a second row loop outside
	                              loop_i, indexing A and the output (a
	                              convolution's image rows, llm.c's `bt = b*T
	                              + t`): rows (i2, i), M2 x M of them; -1
	                              without */
	int loop_g;                /* TILE: a second reduction loop directly
	                              around loop k (quantization groups: `for
	                              (g...) { s = 0; for (k < GS) s += ...;
	                              acc += s * scale[g]; }`): the tile holds
	                              one sum per group, T[(i*G + g)*N + j],
	                              G the iterations of loop_g; -1 without */
	int g_batch;               /* loop_g is a batch loop, not a reduction
	                              (a depthwise convolution's channel loop
	                              indexes A, B and the output, inside the
	                              row loop): the same tile, one sum per
	                              (i, g, j), the output written at g */
	/* Reduction loops summed into one sum (issue 9: a convolution's
	   `for (kh...) for (kw...) for (ic...) acc += in[..] * w[..]`):
	   loop_sum[0..nsum-1], outermost first, each directly enclosing the
	   next and nothing else, the last directly enclosing loop_k.  The
	   runtime gets each one's extent and A's and B's byte strides (one
	   reduction over all of them, the order of the terms free: integer
	   sums are exact); the tile read (TILE) replaces loop_sum[0]. */
	int nsum;
	int loop_sum[MP_MAX_SUM];
	/* Padding (issue 9: a padded convolution written with a guard, `if
	   (ih >= 0 && ih < H) acc += ...`, or `if (...) continue;` before a
	   window loop): the conditions (bits of mp_nest.cond) under which a
	   term of the sum is added.  Each depends only on the row loops
	   (loop_i, loop_i2), the reduction loops (loop_k, loop_sum) and
	   parameters, so a term that is not added is an element of A that is
	   not read: the runtime's copy of A puts A's zero point there, whose
	   term is 0 exactly.  0: none */
	unsigned guard;
	int pad_const;             /* guard from a select on A (mp_access.conds):
	                              the padded element is pad_value, not A's
	                              zero point (the term is then (pad_value -
	                              za) * (b - zb), as the source computes) */
	int64_t pad_value;
	int red_stmt;              /* the reduction statement */
	/* TILE with triangular bounds (issue 9: SYRK's `for (j = 0; j <= i;
	   j++)`): the bounds of loop_i or loop_j depend on the other's
	   iterator.  The tile covers the bounding box of the (i, j) points
	   the loops visit, box_lo[0] <= i <= box_hi[0] and box_lo[1] <= j <=
	   box_hi[1], affine forms over PARAMs equal to the exact projections
	   of those points (so that the kernels read only rows of A and
	   columns of B the loops read).  The glues use the box in place of
	   loop_i's and loop_j's own bounds wherever the call wants "the
	   loop's lower bound / extent" (the extents M and N, the operands'
	   lower corners, the tile's indices, per-channel scales); the nest
	   reads the tile only at the points its loops visit.  0 otherwise */
	int tri;
	mp_aff box_lo[2], box_hi[2];
	/* Every loop l of the nest (ok plans): the range its iterator takes
	   over the whole nest, range_lo[l] <= iter <= range_hi[l], affine
	   forms over PARAMs (the loop's own bounds when they name no
	   iterator; otherwise an over-approximation from its parents'
	   ranges).  The glues' written ranges (MP_ARG_RANGE_LO/HI) use it */
	mp_aff range_lo[MP_MAX_LOOPS], range_hi[MP_MAX_LOOPS];
	int neg;                   /* TILE: `acc -= a*b`: the glue subtracts the
	                              tile's value where it adds it otherwise */
	int red_iter_final;        /* TILE: the reduction loop's iterator is read
	                              after that loop (later in the nest or after
	                              it): the glue assigns it the loop's final
	                              value next to the tile read */
	/* TILE: walking pointers stepped inside the reduction loop and read
	   after it: on the fast path, next to the tile read, the glue adds
	   advance_by[i] bytes times the iteration count of red_loop (its
	   extent, never below 0) to pointer var advance_var[i]: what the
	   loop's steps add (advance_by is their sum per iteration) */
	int nadvance;
	int advance_var[8];
	mp_aff advance_by[8];
	int red_loop;              /* the loop replaced by the tile read
	                              (== loop_k in TILE mode; the outermost
	                              loop, i.e. the whole nest, in DIRECT and
	                              FUSED mode) */
	int acc_a, acc_b;          /* access ids: A(i,k) and B(k,j) */
	mp_scalar a_type, b_type;  /* MP_TY_S8 / MP_TY_U8 */
	int za_expr, zb_expr;      /* zero points subtracted in the body, expr
	                              ids (evaluable before the nest), -1: none */
	int zsign_a, zsign_b;      /* +1: operand - z ; -1: operand + z */
	mp_out_mode mode;
	int acc_c;                 /* DIRECT: the int32 output access */
	int acc_var;               /* TILE (and FUSED) with a scalar accumulator:
	                              its var */
	int acc_mem;               /* TILE with a memory accumulator: access id */

	/* MP_OUT_FUSED: the whole nest is
	 *   for i for j { acc = INIT; for k acc += P; out[i,j] = EPI(acc); }
	 * with INIT = epi_init (+ bias access epi_bias when >= 0, a read
	 * that depends on i and/or j only), acc a LOCAL not read after the
	 * nest, and EPI's extra arguments loop-invariant expressions
	 * (epi_arg[0..epi_nargs-1], in the helper's argument order after acc). */
	mp_epi_kind epi;
	int epi_out;               /* the store access out[i,j] */
	mp_scalar epi_out_type;    /* MP_TY_S8, MP_TY_U8 or MP_TY_S32 */
	int epi_bias;              /* access id or -1 */
	int64_t epi_init;
	int epi_nargs;
	int epi_arg[6];

	/* Run-time checks: written accesses whose address range must not
	   overlap A's or B's.  The runtime performs them; the original nest
	   runs when one fails. */
	int ncheck;
	int check_access[MP_MAX_ACCESSES];
	/* TILE, an operand the nest writes whose every read comes first
	   (mp_model_reads_entry: TRMM in place): bit c of check_skip[0] / [1]
	   says check c (c < 8) writes the array of A / B itself, so the runtime
	   does not compare it with that operand's read range (the tile reads
	   it before the nest writes it); it is still compared with the other
	   operand's.  0 otherwise */
	unsigned check_skip[2];

	/* int32 accumulator bound: |sum| <= K * max|a - za| * max|b - zb|.
	   k_extent_static: the largest trip count of loop k if it is a
	   compile-time constant, else -1 (then the runtime checks it). */
	int64_t k_extent_static;
	int64_t bound_static;      /* the bound when fully static, else -1 */
	int need_runtime_bound;

	/* Tile shape and kernel requested by the pragma/planner (informative:
	   the runtime picks the kernel of the running CPU). */
	mp_target target;
	int tile_m, tile_n, tile_k;

	/* For remarks: one line each, human readable. */
	char what[2 * MP_REASON_LEN];   /* "int8 contraction y[i,j] = sum_k x[i,k]*w[j,k]" */
	char layout[MP_REASON_LEN]; /* "A row-major (k contiguous), B transposed" */

	/* Floating-point source (pragma precision bf16/int8/fp8_*, acc fp32):
	   the contraction runs through mp_gemm_lp (__mixprec_lp_nest) within
	   the bound of docs/error-bounds.md.  Modes TILE (a float/double tile
	   of src_type) or DIRECT (output of src_type); never FUSED; no zero
	   points, no int32 bound (bound_static -1, need_runtime_bound 0). */
	int src_float;
	mp_scalar src_type;         /* MP_TY_F32 / MP_TY_F64: A's and B's elements */
	int alpha_expr;             /* a scalar factor of the product (alpha*a*b):
	                               expr id, applied by the runtime to the
	                               contraction; -1: none */
	mp_scale_spec scale_a, scale_b; /* the explicit scales of A and B
	                               (kind MP_SS_DYNAMIC: dynamic) */
	int sspec_a, sspec_b;       /* index into the pragma's sspec[] they come
	                               from (0: left factor), -1: none */
	int const_a, const_b;       /* the pragma's constant= names A / B: the
	                               runtime may keep their packed form */
	/* ok == 0 and the reason is an error of the user's code (scale= on an
	   integer source), reported as a compile error, not a warning */
	int reason_is_error;
	/* a matrix-vector product or dot product whose rows are a loop around
	   the annotated nest: "the pragma stands on an inner loop ..." (added
	   to the remark), or "" */
	char hint[MP_REASON_LEN];
	int ncontr;                /* mp_analyze_all: the contractions planned
	                              together (this is one of them), else 1 */
	/* ok == 0 because the contraction is nested in more than three loops
	   and the outer ones only index the output (batch loops, or rows
	   written as two loops): the loop (id) whose three-deep nest holds the
	   contraction, for the glue to plan as if the pragma stood on it, the
	   outer loops running as written (one call per iteration); and the
	   words the glue adds to that plan's remark.  -1 / "" otherwise. */
	int descend;
	char descend_note[MP_REASON_LEN];
	/* ok == 0: no statement of the nest looks like a contraction (a
	   region's init or element-wise loop: the glue only notes it) */
	int no_contraction;
	/* `#pragma mixprec(auto)` (mp_auto.c): the flags the call carries
	   (8 | candidates << 8 | nest hash << 32, 0 otherwise), what the remark
	   adds ("auto: bf16, the default without a profile"), a warning for
	   the glue to give at the pragma (a stale or unreadable profile; ""
	   if none), and auto_keep: ok == 0 because the profile keeps the nest
	   at its source precision (a remark, not a warning) */
	int64_t auto_flags;
	mp_prec auto_prec;          /* the precision chosen (the call's lp) */
	char auto_note[MP_REASON_LEN];
	char auto_warn[MP_REASON_LEN];
	int auto_keep;
} mp_plan;

/* Walking pointers (issue 8): for every LOCAL pointer the nest assigns
 * only by pointer assignments (ptr_assign: at most one reset `p = base +
 * off`, before every read of p in its loop, and steps `p = p + c` by
 * loop-invariant amounts, all unconditional), give each access made
 * through p the array and byte offset of its closed form: the reset's (or
 * p's value at entry) plus the steps executed before it, an affine form
 * of the iterators (`*p++` in loop k: base + k; a row pointer continuing
 * across rows: base + i*K + k).  Accesses it rewrites get `via` = p, the
 * pointer statements `ivstep` = 1.  What it cannot follow stays as the
 * glue described it (and is refused where it matters, naming p).  Called
 * by mp_analyze; idempotent.  Returns how many accesses it rewrote. */
int mp_walk_resolve(mp_nest *n);
/* The bytes walking pointer P advances in one iteration of loop REGION
 * (its steps there times their runs per iteration); -1 when a reset of P
 * lies inside REGION or the product is not affine. */
int mp_walk_region_delta(const mp_nest *n, int p, int region, mp_aff *delta);

/* Unrolled reductions (issue 8): a reduction loop stepped by u whose u
 * updates of one accumulator are the update of the remainder loop after
 * it (mp_loop.after) at the offsets 0..u-1 becomes that one loop with step
 * 1 and the remainder's bound; the remainder leaves the nest (absorbed).
 * Called by mp_analyze after mp_walk_resolve; idempotent.  Returns how
 * many loops it folded. */
int mp_reroll(mp_nest *n);

/* Analyse: resolve walking pointers (mp_walk_resolve, in place: the
 * glue's access ids stay valid and now hold the closed forms), build the
 * ISL model, prove legality, match the contraction and fill *plan.  Never
 * fails hard: plan->ok == 0 with a reason when the nest is not
 * transformed.  Returns plan->ok. */
int mp_analyze(mp_nest *n, const mp_pragma *p, mp_plan *plan);

/* As mp_analyze, for a nest that may hold several contractions in one
 * reduction loop (rows unrolled into accumulators: sum0 += a0*b; sum1 +=
 * a1*b): fills plans[0..count) (each a TILE plan of one contraction,
 * ncontr = count, the same red_loop) and returns count; 1 for a single
 * contraction (mp_analyze's plan in plans[0]); 0 when not transformed
 * (the reason in plans[0]). */
int mp_analyze_all(mp_nest *n, const mp_pragma *p, mp_plan *plans, int max);

/* `#pragma mixprec(auto)` (mp_auto.c; mp_analyze and mp_analyze_all call it
 * for p->prec == MP_PREC_AUTO): plans the nest at its default candidate
 * (mp_auto_default), or at the one p->auto_profile (an assignment file
 * written by mixprec-tune) gives p->auto_where when the entry's hash is
 * the nest's, and sets the plans' auto_* fields.  A nest of integer
 * sources is refused.  Returns the count as mp_analyze_all. */
int mp_analyze_auto(mp_nest *n, const mp_pragma *p, mp_plan *plans, int max);
/* The candidate `auto` runs without a profile: bf16, else fp8_e4m3,
 * int8, uint8, fp8_e5m2, the first of them in MASK. */
mp_prec mp_auto_default(int mask);
/* The nest hash of a plan's `what` (its contraction, without the
 * precision): FNV-1a of the text between the first ": " and " (". */
uint32_t mp_auto_hash(const char *what);

/* --------------------------------------------------- runtime call */

/* The argument list of __mixprec_i8_nest (runtime/nest.c) for a plan, as
 * compiler-neutral recipes that each plugin turns into code.  Keeping the
 * list here means both plugins always pass the same arguments in the same
 * order.  Every argument is a long unless it says pointer. */
typedef enum mp_arg_kind {
	MP_ARG_CONST,      /* cst */
	MP_ARG_NULL,       /* pointer: NULL */
	MP_ARG_EXTENT,     /* max(hi - lo + 1, 0) of loop `loop`; 1 when loop < 0
	                      (loop_i / loop_j of a plan.tri: of its box); a
	                      loop stepping by a variable s: max(hi - lo + s,
	                      0) / s, or -1 when s <= 0 */
	MP_ARG_ADDR,       /* pointer: address of access `access` with every
	                      iterator at its lower bound (plan.tri: loop_i's
	                      and loop_j's at their box's) */
	MP_ARG_COEF,       /* coefficient in bytes of ITER var `var` in the offset
	                      of access `access`; 0 when var < 0 */
	MP_ARG_EXPR,       /* loop-invariant expression `expr` times cst */
	MP_ARG_EXPR_I32,   /* (int32_t) expression `expr` (a helper's int argument) */
	MP_ARG_EXPR_F32,   /* the 32 bits of (float) expression `expr` */
	MP_ARG_RANGE_LO,   /* first byte access `access` touches over the box of
	                      its loops (plan.range_lo / range_hi) */
	MP_ARG_RANGE_HI,   /* last byte of the same */
	MP_ARG_VAR_LO,     /* address of in-memory PARAM var `var` */
	MP_ARG_VAR_HI,     /* its last byte */
	MP_ARG_EXPR_F64,   /* the 64 bits of (double) expression `expr` */
	MP_ARG_SCALE_F64,  /* the 64 bits of (double) the variable named by the
	                      pragma's sspec[cst] (MP_SS_NAME) */
	MP_ARG_SCALE_PTR,  /* pointer: the array (or pointer) named by the
	                      pragma's sspec[cst] (MP_SS_INDEXED), advanced by
	                      the lower bound of loop `loop` elements */
	MP_ARG_LOC,        /* pointer: a string "FILE:LINE" naming the nest
	                      (for run-time reports), or NULL */
	MP_ARG_COND_LO,    /* the value of condition `access` (an mp_cond id)'s
	                      expression with every iterator at its lower
	                      bound */
	MP_ARG_COND_COEF   /* its change per iteration of ITER var `var`'s
	                      loop (the coefficient times the step); 0 when
	                      var < 0 */
} mp_arg_kind;

typedef struct mp_arg {
	mp_arg_kind kind;
	int64_t cst;
	int loop, access, var, expr;
} mp_arg;

#define MP_NEST_ABI_VERSION 10   /* == MP_NEST_ABI of include/mixprec.h */
#define MP_MAX_CALL_ARGS (48 + 2 * MP_MAX_ACCESSES + 2 * MP_MAX_VARS)

/* Fill out[0..] with the call's arguments (ABI version and count first):
 * the list of __mixprec_i8_nest, or of __mixprec_lp_nest when
 * p->src_float (runtime/nest.c documents both; the glue picks the callee
 * from p->src_float).  Returns how many, or -1 when max is too small. */
int mp_plan_call_args(const mp_nest *n, const mp_plan *p, const mp_pragma *pr,
		      mp_arg *out, int max);

/* The inline guard before the call (runtime/nest.c, __mixprec_small): what
 * the glue reads of the call's arguments ARGS (the recipes of
 * mp_plan_call_args) to estimate the loop as the runtime's model does.
 * loops[0..nout-1]: the outputs' loops (i, j, a second row loop), then
 * loops[nout..nloops-1] the reduction's (k, groups, summed loops), the
 * extents the runtime reads.  The glue computes out = the product of the
 * first nout extents and work = out * the product of the others, each
 * product capped at MP_SMALL_CAP after every factor.  stride[0..3]: the
 * indices in ARGS of a_si, a_sk, b_sk, b_sj (bytes), or -1 when the
 * runtime may copy the operands first (summed loops, padding, groups, a
 * second row loop) or the list has none; esz the element size in bytes.
 * With g = &__mixprec_small[slot], f1 = out*g[1] + work*g[2]
 * (operands contiguous in k), f2 = out*g[3] + work*g[4] (strided), the
 * call is made only when
 *     (kc ? f1 : f2) >= g[0],  kc = a_sk == esz && b_sk == esz &&
 *                                   a_si != esz && b_sj != esz,
 * or, without strides, when max(f1, f2) >= g[0]; otherwise the loop as
 * written runs (the model would have chosen it).  Extents below 0 count as
 * 0.  slot (polyhedral/mp_guard.h): MP_GUARD_I8 for an integer source
 * (MP_GUARD_I8_TARGET when the pragma names a target=: constants for every
 * family; MP_GUARD_I8 follows the family the runtime picks); for a
 * floating-point source MP_GUARD_LP_TARGET when the pragma names a
 * target=, else MP_GUARD_LP8 at int8/uint8 and MP_GUARD_LP16 at bf16/fp8
 * (the runtime fills those with the constants of the family it picks on
 * the running CPU); MP_GUARD_I8_PAD for an integer source with padding
 * (p->guard: the runtime copies A with its padding first, whose cost g[0]
 * includes; MP_GUARD_I8_PAD_TARGET with a target=).  rows_entry, when not 0: the index in
 * __mixprec_small of that copy's cost per row of A (a padded nest without
 * groups or a batch loop), and row_loops the bits i of loops[0..nout-1]
 * that count A's rows (i and the second row loop; not j): the call is
 * then made only when the cost reaches g[0] + rows * __mixprec_small
 * [rows_entry], rows the product of those extents (capped), where work <
 * MP_SMALL_CAP (at and beyond it the model never picks the loop). */
#define MP_MAX_WORK_LOOPS 8
#define MP_SMALL_CAP (1L << 20)
typedef struct mp_work {
	int nloops, nout;
	int loops[MP_MAX_WORK_LOOPS];
	int stride[4];
	int esz;
	int slot;   /* the guard's first entry in __mixprec_small */
	int rows_entry;      /* 0, or the entry of the padded copy's cost per row */
	unsigned row_loops;  /* bits of loops[0..nout-1]: A's rows */
} mp_work;
void mp_plan_work(const mp_nest *n, const mp_plan *p, const mp_arg *args, int na, mp_work *w);

/* The loops whose extents the glue tests, outer to inner, before it
 * evaluates anything else of the call (the extents of inner loops, derived
 * values such as `l->n`, the inline guard, the arguments): the loop as
 * written reads an inner loop's bound or a value in its body only when
 * every enclosing loop runs, and those reads may fault (`k < l->n` with
 * l == NULL and M == 0).  When one of these extents is not positive the
 * call is not made and the loop as written runs.  out[0..] receives the
 * innermost of the plan's loops and its enclosing loops whose bounds name
 * no iterator (or are loop_i / loop_j of a triangular plan: the box),
 * outermost first; returns how many (at most max). */
int mp_plan_live_loops(const mp_nest *n, const mp_plan *p, int *out, int max);

/* The architecture the compiler generates code for: the kernel families
 * the remark names. */
enum { MP_ARCH_X86_64 = 0, MP_ARCH_AARCH64 = 1 };

/* The one-line remark for a transformed nest (both plugins print it):
 * what was recognised, layouts, output mode, kernel families of ARCH and
 * tiles. */
int mp_plan_remark(const mp_plan *p, const mp_pragma *pr, int arch, char *buf, size_t len);

/* Where a remark longer than LIMIT characters is cut into its first line
 * and its details (GCC's glue continues it on an indented line, clang's
 * prints the details as a note): the first "; ", or else ", ", after 40
 * characters and before LIMIT outside parentheses and brackets; or else
 * before a " (" there; or else at the last space before LIMIT.  Returns the
 * first line's length and in *RESUME where the details start; 0 when the
 * text stays whole (short, already several lines, or no place to cut). */
static inline size_t mp_remark_cut(const char *t, size_t limit, size_t *resume)
{
	size_t len = 0, sp = 0;

	while (t[len] && t[len] != '\n')
		len++;
	if (len <= limit || t[len])
		return 0;
	for (int pass = 0; pass < 3; pass++) {
		int depth = 0;

		for (size_t i = 0; i < limit; i++) {
			char c = t[i];

			if (c == '(' || c == '[')
				depth++;
			else if ((c == ')' || c == ']') && depth > 0)
				depth--;
			if (depth || i < 40 || t[i + 1] != (pass == 2 ? '(' : ' '))
				continue;
			if (c == (pass == 0 ? ';' : pass == 1 ? ',' : ' ')) {
				*resume = pass == 2 ? i + 1 : i + 2;
				return i;
			}
		}
	}
	for (size_t i = 40; i < limit; i++)
		if (t[i] == ' ')
			sp = i;
	*resume = sp + 1;
	return sp;
}

#ifdef __cplusplus
}
#endif
#endif
