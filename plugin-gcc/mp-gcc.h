/* mp-gcc.h -- the state of one nest while the GCC glue translates it into
 * the core's description (translate.cc, nest.cc) and rewrites it from the
 * core's plan (rewrite.cc). */
#ifndef MP_GCC_H
#define MP_GCC_H

/* The architecture of the compiler this plugin is built for (MP_ARCH_* of
 * mp_nest.h): MP_ARCH_AARCH64 for the aarch64 cross compiler's plugin and
 * on an aarch64 host (CMake). */
#ifndef MP_GCC_TARGET_ARCH
#define MP_GCC_TARGET_ARCH MP_ARCH_X86_64
#endif


mp_scalar mp_scalar_of_type(tree t);
int64_t mp_int_cst(tree t);

struct mp_ctx {
	function *fn;
	class loop *top;            /* the annotated loop */
	mp_nest *n;
	mp_pragma_rec *pr;
	location_t loop_loc;

	std::vector<char> bb_in;    /* block index -> inside the nest */
	std::vector<class loop *> loops;          /* loop id -> loop */
	std::vector<gimple *> loop_init, loop_incr;
	std::vector<tree> loop_iter;              /* loop id -> iterator decl */
	/* (loop id, sibling) of loops continuing the sibling's iterator */
	std::vector<std::pair<int, class loop *>> after_pending;
	/* remainder loops mp_reroll folded into the loop before them: they run
	   only when the nest falls back (mp_absorb_loops) */
	std::vector<class loop *> absorbed;
	/* the assignments of the locals set from an operand element under
	   its zero-skip guard (zero_guard): unguarded in the description, as
	   the core drops the guard or refuses the nest */
	std::vector<gimple *> zguard_defs;
	std::map<tree, int> iter_var;             /* iterator decl -> var id */
	std::map<tree, int> var_of;
	std::vector<tree> var_tree;               /* var id -> decl / SSA name */
	std::map<tree, int> array_of;
	std::vector<tree> array_base;             /* array id -> base tree */
	std::vector<tree> access_ref;             /* access id -> reference */
	std::vector<gimple *> stmt_g;             /* stmt id -> gimple */
	std::map<tree, std::vector<gimple *>> defs;  /* non-SSA decl -> in-nest assignments */
	std::map<tree, std::vector<gimple *>> uses;  /* artificial decl -> in-nest reads */
	std::set<tree> stored_decls;              /* non-register decls stored to */
	std::set<tree> protected_decls;           /* memory decls read as parameters */
	std::set<tree> outer_iters;               /* iterators of loops around the nest */
	std::set<gimple *> control;               /* loop control statements */
	/* variables stepped beside an iterator (stepped_ivs): the loop, the
	   step, the value inside the body */
	struct stepped_iv {
		class loop *l;
		gimple *step;
		mp_aff val;
	};
	std::map<tree, stepped_iv> stepped;
	bool stepped_at(tree t, gimple *at, mp_aff *r);
	bool has_opaque = false;
	std::string opaque_call;                  /* the first call that made it so */
	gimple *cur_stmt = NULL;                  /* the statement being described */
	/* in-bounds assumptions met while describing one access (index,
	   extent of a declared array dimension): mp_access.bidx/bext */
	std::vector<std::pair<mp_aff, int64_t>> cur_bounds;

	bool failed = false;
	std::string fail_text;
	location_t fail_loc = UNKNOWN_LOCATION;

	bool in_nest(basic_block bb) const;
	bool invariant_memory_decl(tree t, gimple *at);
	void fail(location_t loc, const char *fmt, ...) ATTRIBUTE_PRINTF_3;
	int var_for(tree t, mp_var_kind kind, bool fresh = false);
	int iter_of(tree decl, gimple *at);
	bool walking(tree t, gimple *at);
	tree invariant_value(tree t, gimple *at, int depth);
	tree invariant_rhs(gimple *d, int depth);
	int derived_var(tree val, tree type);
	std::map<std::string, int> derived;       /* rendering -> derived PARAM var */
	std::map<int, int> derived_array;         /* derived pointer var -> array */
	bool walk_read(tree p, gimple *at, int *arr, mp_aff *off);
	int var_expr(int v, mp_scalar ty);
	gimple *inline_def(tree t, gimple *use);
	gimple *dominating_def(tree t, gimple *use);
	bool ptr_of_def(gimple *d, int *arr, mp_aff *off, int depth);
	bool inlined_temp(gimple *g);
	bool aff_of(tree t, gimple *at, mp_aff *r, int depth);
	bool aff_of_def(gimple *d, mp_aff *r, int depth);
	bool aff_of_def_(gimple *d, mp_aff *r, int depth);
	bool aff_mod(tree t, mp_aff *r, int bits, int depth);
	/* T (read at AT) as MAX or MIN of two affine forms: GCC's MAX_EXPR /
	   MIN_EXPR, or the two assignments of `c ? x : y` before the merge
	   (a local holding it followed); *is_max says which */
	bool minmax_of(tree t, gimple *at, mp_aff *a, mp_aff *b, bool *is_max, int depth);
	bool minmax_of_def(gimple *d, mp_aff *a, mp_aff *b, bool *is_max, int depth);
	bool minmax_diamond(tree t, gimple *at, mp_aff *a, mp_aff *b, bool *is_max, int depth);

	int array_for(tree base, bool is_decl);
	bool ptr_of(tree p, gimple *at, int *arr, mp_aff *off, int depth);
	bool addr_of(tree ref, gimple *at, int *arr, mp_aff *off, int depth);
	int access_for(tree ref, gimple *at, bool is_write, int stmt);
	int add_expr(mp_expr_kind k, mp_scalar ty, int a, int b);
	int expr_of(tree t, gimple *at, int stmt, int depth);
	int def_expr(gimple *d, int stmt, int depth);
};

static inline bool is_reg_decl_p(tree t)
{
	return t && (TREE_CODE(t) == VAR_DECL || TREE_CODE(t) == PARM_DECL) && is_gimple_reg(t);
}
edge mp_loop_entry(class loop *l);
edge mp_loop_exit(class loop *l);
bool mp_harmless_call(gcall *c);
const char *mp_callee_name(gcall *c);
/* walk_tree callback: the tree *TP is DATA (nest.cc) */
tree mp_mentions_r(tree *tp, int *walk_subtrees, void *data);

/* nest.cc */
bool mp_build_nest(mp_ctx &c);
bool mp_select_conds(mp_ctx &c, tree t, gimple *at, gimple **val, int64_t *k, unsigned *set);
/* rewrite.cc */
bool mp_rewrite(mp_ctx &c, const mp_plan *plans, int count);

extern bool mp_opt_dump;
extern bool mp_opt_verify;   /* -fplugin-arg-mixprec-verify */
extern const char *mp_opt_profile_use;   /* -fplugin-arg-mixprec-profile-use=FILE */

/* build.cc: __MIXPREC__, the dependency file, -fopt-info merging, the dump
 * stream (stderr or -fplugin-arg-mixprec-dump=FILE), long remarks split
 * after a short first line. */
extern FILE *mp_dump_fp;
#define MP_REMARK_SHORT 200
opt_pass *mp_split_pass_new(void);
bool mp_build_init(struct plugin_name_args *info, opt_pass *pass, const char *dump_file);
std::string mp_remark_split(const char *text);

#define MP_RT_DECLS 6
extern tree mp_rt_decls[MP_RT_DECLS];

/* pragma-text.cc: where a _Pragma stands in the source text.  The
 * _Pragma("mixprec ...") operators TEXT shows (written there, or through
 * the macros it names), *COL the column of the last one, *IN_MACRO the
 * column of the function-like macro whose arguments hold a written one,
 * *IN_ARGS whether it stands in such arguments (*OUTER: the outermost such
 * macro's column, also for one through a macro); the identifier at column
 * COL of TEXT; the last character of code
 * before line LINE (column COL); the first after the _Pragma or macro at
 * column COL of LINE (*AT its column); the first after the pragma in
 * macro NAME's expansion (0: it ends the expansion); the start of a
 * macro invocation spanning lines that ends on LINE and holds the pragma
 * (*ARGS: written in its arguments, at *AT_LINE, *AT_COL). */
int mp_pragma_column(const std::string &text, int depth, int *col, int *in_macro = NULL,
		     bool *in_args = NULL, int *outer = NULL);
std::string mp_ident_at(const std::string &text, int col);
int mp_code_before(const char *file, int line, int col);
int mp_code_after(const std::string &line, int col, int *at = NULL);
int mp_macro_tail(const std::string &name, int depth);
bool mp_pragma_invocation(const char *file, int line, int *at_line, int *at_col, int *end_col,
			  bool *args);

#endif
