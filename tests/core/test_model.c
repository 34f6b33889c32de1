/* test_model.c -- ISL-level tests of the model (polyhedral/mp_model.h):
 * dependences carried by the right loop, writers of operand reads,
 * injectivity of outputs, rectangular domains, trip counts and the
 * delinearisation of linearised subscripts.
 */
#include "mp_nest.h"
#include "mp_model.h"
#include "core_test.h"

#include <inttypes.h>

/* Statement ids of the tile nest below: 0 init, 1 reduction, 2 epilogue. */
static const char *tile_nest = DECLS "var s local s32\n"
	"loop i lo=0 hi=M-1\n"
	"loop j parent=i lo=0 hi=N-1\n"
	"stmt j : s = 0\n"
	"loop k parent=j lo=0 hi=K-1\n"
	"stmt k : s = (+ s (* (cast:s32 x[i*K+k]:s8) (cast:s32 w[j*K+k]:s8)))\n"
	"stmt j : y[4*i*N+4*j]:s32 = s\n";

static mp_nest n;

static mp_model *build(const char *text)
{
	char err[MP_REASON_LEN] = "";
	mp_model *m;

	if (mp_nest_parse(&n, text) != 0) {
		CHECK(0, "parse: %s", n.error);
		return NULL;
	}
	m = mp_model_build(&n, err, sizeof(err));
	CHECK(m != NULL, "build: %s", err);
	return m;
}

static int loop_of(const char *iter)
{
	return n.var[mp_nest_find_var(&n, iter)].loop;
}

/* Is (a, b) among the carried pairs of loop l? cnt: all pairs found. */
static int carries(mp_model *m, isl_union_map *deps, const char *iter, int a, int b,
		   int *cnt)
{
	int pairs[64][2], c, i, found = 0;

	c = mp_model_carried(m, deps, loop_of(iter), pairs, 64);
	*cnt = c;
	for (i = 0; i < c && i < 64; i++)
		found |= pairs[i][0] == a && pairs[i][1] == b;
	return found;
}

static void test_tile_dependences(void)
{
	mp_model *m = build(tile_nest);
	isl_union_map *deps, *raw;
	int cnt, pairs[64][2], i;

	if (!m)
		return;
	deps = mp_model_dependences(m, MP_DEP_ALL);
	raw = mp_model_dependences(m, MP_DEP_RAW);
	/* k carries only the reduction's own dependence on s */
	CHECK(carries(m, deps, "k", 1, 1, &cnt) && cnt == 1, "k carries %d pairs", cnt);
	cnt = mp_model_carried(m, deps, loop_of("k"), pairs, 64);
	for (i = 0; i < cnt; i++)
		CHECK(pairs[i][0] == 1 && pairs[i][1] == 1, "k carries %d->%d",
		      pairs[i][0], pairs[i][1]);
	/* j carries the reuse of s across output points: epilogue -> next init */
	CHECK(carries(m, deps, "j", 2, 0, &cnt), "j: WAR epilogue->init (%d)", cnt);
	CHECK(carries(m, deps, "j", 1, 0, &cnt), "j: WAW reduction->init (%d)", cnt);
	CHECK(carries(m, deps, "i", 2, 0, &cnt), "i: epilogue->init (%d)", cnt);
	/* dependences are memory-based (no kills): RAW init(i,j) -> red(i,j',k)
	   exists for j' > j too; legality only asks about loop k */
	CHECK(carries(m, raw, "k", 1, 1, &cnt) && cnt == 1, "RAW on k: red->red only");
	CHECK(isl_union_map_is_empty(raw) == isl_bool_false, "RAW deps exist");
	isl_union_map_free(raw);
	isl_union_map_free(deps);
	/* nobody writes x or w; y is written only by its own store */
	/* accesses: 0 x (read), 1 w (read), 2 y (write) */
	CHECK(mp_model_first_writer(m, 0, -1) == -1, "x not written");
	CHECK(mp_model_first_writer(m, 1, -1) == -1, "w not written");
	CHECK(mp_model_domain_is_box(m, 1) == isl_bool_true, "rectangular");
	CHECK(mp_model_max_trip(m, loop_of("k")) == -1, "K is a parameter");
	CHECK(mp_model_array_row_param(m, 0) == mp_nest_find_var(&n, "K"), "x rows of K");
	CHECK(mp_model_array_row_param(m, 2) == mp_nest_find_var(&n, "N"), "y rows of N");
	CHECK(!mp_model_access_is_whole(m, 0) && !mp_model_access_is_whole(m, 1),
	      "delinearised accesses are exact");
	{
		int ij[2] = { loop_of("i"), loop_of("j") };

		CHECK(mp_model_access_injective(m, 2, ij, 2) == isl_bool_true,
		      "y[4*i*N+4*j] injective in (i,j)");
		CHECK(mp_model_access_injective(m, 2, ij, 1) == isl_bool_false,
		      "y[4*i*N+4*j] not a function of i alone");
	}
	mp_model_free(m);
}

/* In-place recurrence: a[i] = a[i-1] + ... is carried by i, not j. */
static void test_recurrence(void)
{
	mp_model *m = build("var M param s32\nvar N param s32\nvar a param ptr\n"
			    "var i iter s32\nvar j iter s32\narray a base=a\n"
			    "loop i lo=1 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
			    "stmt j : a[4*i*N+4*j]:s32 = (+ a[4*i*N-4*N+4*j]:s32 1)\n");
	isl_union_map *deps;
	int cnt;

	if (!m)
		return;
	deps = mp_model_dependences(m, MP_DEP_RAW);
	CHECK(carries(m, deps, "i", 0, 0, &cnt), "i carries a[i-1] -> a[i]");
	CHECK(!carries(m, deps, "j", 0, 0, &cnt) && cnt == 0, "j carries nothing (%d)", cnt);
	CHECK(mp_model_first_writer(m, 1, -1) == 0, "a is read and written");
	isl_union_map_free(deps);
	mp_model_free(m);
}

static void test_shapes(void)
{
	mp_model *m;
	int ij[2];

	/* triangular: not a box; trip count of j not constant */
	m = build("var M param s32\nvar i iter s32\nvar j iter s32\nvar y param ptr\n"
		  "array y base=y\nloop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=i\n"
		  "stmt j : y[4*j]:s32 = 0\n");
	if (m) {
		CHECK(mp_model_domain_is_box(m, 0) == isl_bool_false, "triangle is no box");
		CHECK(mp_model_max_trip(m, 1) == -1, "triangle trip unbounded");
		ij[0] = 0; ij[1] = 1;
		CHECK(mp_model_access_injective(m, 0, ij, 2) == isl_bool_false,
		      "y[4*j] over (i,j) not injective");
		mp_model_free(m);
	}
	/* the bounding box of triangles (mp_model_box): exact projections,
	   empty (lo > hi) where the loops do not run; none when a bound is a
	   minimum of two */
	m = build("var M param s32\nvar N param s32\nvar i iter s32\nvar j iter s32\nvar j2 iter s32\n"
		  "var y param ptr\narray y base=y\nloop i lo=0 hi=M-1\n"
		  "loop j parent=i lo=0 hi=i-1\nloop j2 parent=i lo=i hi=N-1\n"
		  "stmt j : y[4*j]:s32 = 0\nstmt j2 : y[4*j2]:s32 = 0\n");
	if (m) {
		mp_aff lo[2], hi[2];
		char b[4][64];
		int l[2] = { 0, 1 }, l2[2] = { 0, 2 };

		CHECK(mp_model_box(m, l, 2, lo, hi) == 0, "box of j < i");
		mp_aff_print(&n, &lo[0], b[0], 64);
		mp_aff_print(&n, &hi[0], b[1], 64);
		mp_aff_print(&n, &lo[1], b[2], 64);
		mp_aff_print(&n, &hi[1], b[3], 64);
		CHECK(!strcmp(b[0], "1") && !strcmp(b[1], "M - 1") && !strcmp(b[2], "0") &&
		      !strcmp(b[3], "M - 2"), "box of j < i: %s..%s, %s..%s", b[0], b[1], b[2],
		      b[3]);
		/* i < M and i <= j < N: i's range ends at min(M, N) - 1 */
		CHECK(mp_model_box(m, l2, 2, lo, hi) == 1, "no box for i <= j < N, i < M");
		mp_model_free(m);
	}
	/* the hull of a triangular reduction (mp_model_hull): k = j .. K-1 is
	   0 .. K-1 wherever loop j runs; as a box (mp_model_box) it is not
	   exact (no k where N = 0 < K) */
	m = build("var N param s32\nvar K param s32\nvar j iter s32\nvar k iter s32\n"
		  "var y param ptr\narray y base=y\nloop j lo=0 hi=N-1\n"
		  "loop k parent=j lo=j hi=K-1\nstmt k : y[4*k]:s32 = 0\n");
	if (m) {
		mp_aff lo[2], hi[2];
		char b[2][64];
		int l[2] = { 0, 1 };

		CHECK(mp_model_box(m, l, 2, lo, hi) == 1, "no box for j <= k < K, j < N");
		CHECK(mp_model_hull(m, l, 2, lo, hi) == 0, "hull of j <= k < K");
		mp_aff_print(&n, &lo[1], b[0], 64);
		mp_aff_print(&n, &hi[1], b[1], 64);
		CHECK(!strcmp(b[0], "0") && !strcmp(b[1], "K - 1"), "hull of k: %s..%s", b[0],
		      b[1]);
		mp_model_free(m);
	}
	/* reads seen at entry (mp_model_reads_entry): TRMM in place over rows
	   of a fixed length reads the rows below (k > i, under its condition)
	   before the loop writes them; over the rows above (k < i) it reads
	   rows already written; rows of a run-time length (b[i*N + j]) may
	   overlap: no proof */
	for (int above = 0; above < 2; above++) {
		char txt[512];

		snprintf(txt, sizeof(txt),
			 "var M param s32\nvar N param s32\nvar i iter s32\nvar j iter s32\n"
			 "var k iter s32\nvar a param ptr\nvar b param ptr\narray a base=a\n"
			 "array b base=b\ncond %s\nloop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\n"
			 "loop k parent=j lo=0 hi=M-1\n"
			 "stmt k guarded if=0 : b[i*64+j]:s8{j<64} = (+ b[i*64+j]:s8{j<64} "
			 "(* a[k*64+i]:s8{i<64} b[k*64+j]:s8{j<64}))\n",
			 above ? "i-k-1" : "k-i-1");
		m = build(txt);
		if (m) {
			/* accesses: 0 the write, 1 b[i,j], 2 a[k,i], 3 b[k,j] */
			CHECK(mp_model_reads_entry(m, 3) == !above, "b[k][j] for k %s i read at entry: %d",
			      above ? "<" : ">", mp_model_reads_entry(m, 3));
			CHECK(mp_model_reads_entry(m, 2) == 1, "a is never written");
			mp_model_free(m);
		}
	}
	m = build("var M param s32\nvar N param s32\nvar i iter s32\nvar j iter s32\n"
		  "var k iter s32\nvar b param ptr\narray b base=b\ncond k-i-1\n"
		  "loop i lo=0 hi=M-1\nloop j parent=i lo=0 hi=N-1\nloop k parent=j lo=0 hi=M-1\n"
		  "stmt k guarded if=0 : b[i*N+j]:s8 = (+ b[i*N+j]:s8 b[k*N+j]:s8)\n");
	if (m) {
		CHECK(mp_model_reads_entry(m, 2) == 0, "rows of a run-time length: no proof");
		mp_model_free(m);
	}
	/* sliding window of constant length: trip 16; constant loop: 64 */
	m = build("var M param s32\nvar i iter s32\nvar k iter s32\nvar t iter s32\n"
		  "var y param ptr\narray y base=y\n"
		  "loop i lo=0 hi=M-1\nloop k parent=i lo=i hi=i+15\n"
		  "stmt k : y[4*k]:s32 = 0\n"
		  "loop t parent=i lo=0 hi=63\nstmt t : y[4*t]:s32 = 1\n");
	if (m) {
		CHECK(mp_model_max_trip(m, 1) == 16, "window trip %" PRId64,
		      mp_model_max_trip(m, 1));
		CHECK(mp_model_max_trip(m, 2) == 64, "constant trip");
		CHECK(mp_model_domain_is_box(m, 0) == isl_bool_false, "window is no box");
		CHECK(mp_model_domain_is_box(m, 1) == isl_bool_true, "i x t is a box");
		mp_model_free(m);
	}
	/* an access that does not fit the array's delinearised shape, and a
	   non-affine one, touch the whole array */
	m = build("var M param s32\nvar K param s32\nvar L param s32\nvar i iter s32\n"
		  "var x param ptr\narray x base=x\nloop i lo=0 hi=M-1\n"
		  "stmt i : x[i*K]:s8 = (+ x[i*L]:s8 x[?]:s8)\n");
	if (m) {
		CHECK(!mp_model_access_is_whole(m, 0), "x[i*K] exact");
		CHECK(mp_model_access_is_whole(m, 1), "x[i*L] whole");
		CHECK(mp_model_access_is_whole(m, 2), "x[?] whole");
		CHECK(mp_model_first_writer(m, 1, -1) == 0, "whole read overlaps");
		mp_model_free(m);
	}
	/* a PARAM*PARAM offset is a parameter of its own (q_..) */
	m = build("var M param s32\nvar K param s32\nvar i iter s32\nvar x param ptr\n"
		  "array x base=x\nloop i lo=0 hi=M*K-1\n"
		  "stmt i : x[M*K+i]:s8 = x[i]:s8\n");
	if (m) {
		CHECK(mp_model_loop_bounds_affine(m, 0), "M*K bound modelled");
		CHECK(mp_model_first_writer(m, 1, -1) == -1,
		      "x[i], i < M*K, never meets x[M*K+i]");
		mp_model_free(m);
	}
}

int main(void)
{
	test_tile_dependences();
	test_recurrence();
	test_shapes();
	CT_DONE("test_core_model");
}
