/* mp_model.h -- the ISL model of an mp_nest (internal to polyhedral/).
 *
 * Statement S<s> has the iteration domain
 *   [params] -> { S<s>[c<l0>, ..., c<ld>] : lo_l <= c_l <= hi_l }
 * over its enclosing loops, outermost first.  Parameters are named p_<var>
 * for PARAM variables and q_<v1>_<v2> for PARAM*PARAM products (never a
 * user name, so no ISL keyword can clash).
 *
 * Arrays: A<a>[o] with o the byte offset, or A<a>[r, o] when an access has a
 * linearised subscript coef*iter*P (P a PARAM): the byte offset is then
 * r*P + o, and the model assumes o stays inside a row (the delinearisation
 * assumption every polyhedral compiler makes for VLA subscripts).  An
 * access that does not fit its array's shape, or is not affine, touches the
 * whole array.  LOCAL scalars are 0-d arrays V<v>[].
 *
 * Schedule: the original 2d+1 order [pos0, c0, pos1, c1, ..., pos_s, 0...].
 * Dependences are memory-based (no kills): an over-approximation, which is
 * what legality needs.  Guarded statements execute on their whole domain
 * (their writes are may-writes; since no dependence is ever killed, the
 * over-approximation is the same).
 *
 * Ownership follows ISL: __isl_give results belong to the caller.
 */
#ifndef MP_MODEL_H
#define MP_MODEL_H

#include <isl/ctx.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/union_map.h>

#include "mp_nest.h"

#ifndef __isl_give
#define __isl_give
#define __isl_take
#define __isl_keep
#endif

typedef struct mp_model mp_model;

enum { MP_DEP_RAW = 1, MP_DEP_WAR = 2, MP_DEP_WAW = 4, MP_DEP_ALL = 7 };

/* Build the model of n.  Returns NULL (with a message in err) only when
 * ISL itself fails; parts it cannot model exactly are over-approximated
 * and flagged (mp_model_access_is_whole, mp_model_loop_bounds_affine).
 * A build that ran out of budget (below) says so in err
 * (mp_model_err_is_budget). */
mp_model *mp_model_build(const mp_nest *n, char *err, size_t errlen);

/* The work budget of one model: its ISL context stops after this many ISL
 * operations (isl_ctx_set_max_operations; ISL counts the steps of its
 * simplex and of its other core algorithms) and every later ISL call of
 * the model fails, so that no nest keeps the compiler busy for long; the
 * core then refuses the nest with MP_MODEL_BUDGET_FMT.  The nests of the
 * corpus and of the fuzz generator need 22000 at most (a few ms); 10^6 is
 * about a quarter of a second.  The compiler's environment may set it:
 * MIXPREC_ISL_BUDGET=N (mp_model_budget_env).  mp_model_set_budget(0)
 * restores that default; tests set a small one. */
#define MP_MODEL_BUDGET_DEFAULT 1000000UL
#define MP_MODEL_BUDGET_FMT "the analysis of this nest exceeded its budget (%lu ISL operations)"
void mp_model_set_budget(unsigned long ops);
unsigned long mp_model_budget_env(void);
unsigned long mp_model_budget(void);
/* Has an ISL call of m run out of the budget?  Every answer the model gave
 * since may be an error; the core refuses the nest. */
int mp_model_over_budget(mp_model *m);
/* Is err (from mp_model_build) the budget's message? */
int mp_model_err_is_budget(const char *err);
void mp_model_free(mp_model *m);
isl_ctx *mp_model_ctx(mp_model *m);

/* Copies of the parts.  NULL for a statement outside every loop's table
 * (stmt.loop invalid) or an access of no statement. */
__isl_give isl_set *mp_model_domain(mp_model *m, int stmt);
__isl_give isl_map *mp_model_access(mp_model *m, int access);
__isl_give isl_union_map *mp_model_schedule(mp_model *m);
/* kinds: a mask of MP_DEP_*; S<a>[x] -> S<b>[y] pairs, a before b. */
__isl_give isl_union_map *mp_model_dependences(mp_model *m, int kinds);

/* Access modelled as touching its whole array (not affine, or not of the
 * array's delinearised shape). */
int mp_model_access_is_whole(mp_model *m, int access);
/* Row-length parameter (a var id) of a delinearised array, else -1. */
int mp_model_array_row_param(mp_model *m, int array);
/* Loop bounds expressible in ISL (affine over params and outer iterators). */
int mp_model_loop_bounds_affine(mp_model *m, int loop);

/* Enclosing loops of stmt, outermost first; returns their number. */
int mp_model_stmt_loops(mp_model *m, int stmt, int *loops);

/* Statement pairs (src, dst) with a dependence of deps carried by loop:
 * same iteration of every outer loop, src's iteration of `loop` before
 * dst's.  Fills at most max pairs; returns how many exist, -1 on error. */
int mp_model_carried(mp_model *m, __isl_keep isl_union_map *deps, int loop,
		     int (*pairs)[2], int max);

/* The first write access of the nest (other than `except`, -1 for none)
 * that may write an element read by access `acc`; -1 if none, -2 on error. */
int mp_model_first_writer(mp_model *m, int acc, int except);

/* Does every read by access acc (under the conditions its statement runs
 * under) see the value its element held when the nest was entered: no
 * write of the nest to that element comes before it in the nest's order
 * (TRMM in place: `B[i][j] += A[k][i] * B[k][j]` for k > i reads rows
 * the loop writes later)?  Only where the array's offsets are exact (not
 * split at a parameter row length, which assumes rows that do not overlap:
 * `X[i*ld + j]` with ld < n at run time): fixed-size arrays, constant
 * strides.  1 yes, 0 no (or not known), -1 on error. */
int mp_model_reads_entry(mp_model *m, int acc);

/* Is access acc, as a function of the iterators of `loops` (the other
 * enclosing loops projected out), single-valued and injective? */
isl_bool mp_model_access_injective(mp_model *m, int acc, const int *loops,
				   int nloops);

/* Is the domain of stmt a box (bounds depend on parameters only)? */
isl_bool mp_model_domain_is_box(mp_model *m, int stmt);

/* The bounding box of the iterations of loops[0..nl) (outermost first;
 * their bounds name parameters and earlier loops of the list only, steps
 * 1 or -1): for each loops[t], lo[t] and hi[t] affine forms over PARAMs
 * such that the projection of { [c...] : the loops' bounds } onto that
 * loop is exactly { c : lo[t] <= c <= hi[t] } for every value of the
 * parameters (so lo[t] > hi[t] wherever there is no iteration).  Returns
 * 0; 1 when no such forms exist (the minimum or maximum has several
 * pieces, a division or a non-integer coefficient, the projection has
 * holes, or the loops never run); -1 on error. */
int mp_model_box(mp_model *m, const int *loops, int nl, mp_aff *lo, mp_aff *hi);

/* The same for the last loop of the list alone (lo[nl-1], hi[nl-1]; the
 * others are filled too), the projection proven equal to the interval
 * only where the loops around it run at all (the parameters for which
 * loops[0..nl-1) have an iteration): the hull of a triangular reduction,
 * whose call has no output to compute where they do not. */
int mp_model_hull(mp_model *m, const int *loops, int nl, mp_aff *lo, mp_aff *hi);

/* Largest trip count of loop over all parameter values and outer
 * iterations when it is a constant; -1 when unbounded or on error. */
int64_t mp_model_max_trip(mp_model *m, int loop);

#endif
