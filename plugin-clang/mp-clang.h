/* mp-clang.h -- state shared by the clang glue's files: the pragmas seen by
 * the preprocessor (plugin.cc), the translation of one nest into the core's
 * description (translate.cc, nest.cc) and its rewrite (rewrite.cc).
 */
#ifndef MP_CLANG_H
#define MP_CLANG_H

#include <map>
#include <set>
#include <string>
#include <vector>
#include "clang-compat.h"
#include "mp_nest.h"

/* One '#pragma mixprec' of the translation unit. */
struct mp_pragma_rec {
	mp_pragma p;
	clang::SourceLocation pragma_loc;  /* the precision (first token) */
	clang::SourceLocation next_loc;    /* the first token after the pragma */
	bool bad = false;                  /* an error was reported already */
	bool done = false;                 /* matched with its statement */
	bool region = false;               /* on a block of several loops: each
	                                      loop a nest; one without any
	                                      contraction is only a remark */
	std::vector<clang::SourceLocation> tok_locs;
	/* scale=(SA, SB): the variable or parameter each named scale resolved
	   to where the pragma stands (null: dynamic, a number, or not a usable
	   float/double variable or array); read by the rewrite */
	clang::VarDecl *scale_decl[2] = { nullptr, nullptr };
	/* what each named scale resolved to, usable or not: the lookup runs
	   one token ahead of the parser (a block or a for loop just closed
	   is still in scope), so the function's AST confirms it is visible
	   at the loop (nest.cc) */
	const clang::NamedDecl *scale_nd[2] = { nullptr, nullptr };
};

extern std::vector<mp_pragma_rec> mp_pragmas;
/* the element type a named scale gives (MP_TY_OTHER: not usable) */
mp_scalar mp_scale_elem(const clang::NamedDecl *nd, mp_sspec_kind kind);
extern bool mp_opt_dump;
extern bool mp_opt_verify;   /* -fplugin-arg-mixprec-verify */
extern std::string mp_opt_profile_use;   /* -fplugin-arg-mixprec-profile-use=FILE */
extern clang::Sema *mp_sema;

/* Location cookies: small ints (>= 1) standing for a SourceLocation inside
 * the compiler-neutral core. */
int mp_loc_cookie(clang::SourceLocation loc);
clang::SourceLocation mp_loc_of(int cookie);

/* Diagnostics: errors (custom ids), the refusal warning and the remark
 * through the grouped backend-plugin ids (-w, -Werror, -Rremark-backend-plugin
 * apply), notes. */
void mp_error(clang::SourceLocation loc, const std::string &text);
void mp_warning(clang::SourceLocation loc, const std::string &text);
void mp_remark(clang::SourceLocation loc, const std::string &text);
void mp_note(clang::SourceLocation loc, const std::string &text);
void mp_report(clang::DiagnosticsEngine::Level lvl, unsigned builtin_id, clang::SourceLocation loc,
	       const std::string &text);

/* build.cc: __MIXPREC__, the dependency file, the optimisation record, the
 * dump stream (stderr or -fplugin-arg-mixprec-dump=FILE); a transformed
 * nest's remark (-Rpass=mixprec, split after a short first line when
 * longer than MP_REMARK_SHORT, details under -Rpass-analysis=mixprec) and
 * a refusal's (-Rpass-missed=mixprec; AT: where the reason is). */
#define MP_REMARK_SHORT 200
extern FILE *mp_dump_fp;
extern std::string mp_cur_function;   /* the function being processed */
bool mp_build_setup(clang::CompilerInstance &CI, const char *dump_file);
std::string mp_remark_split(const std::string &text, std::string *details);
void mp_report_passed(clang::SourceLocation loc, const std::string &text);
void mp_report_missed(clang::SourceLocation loc, const std::string &reason,
		      clang::SourceLocation at);

/* core.cc: load libmixprec-core.so (once); false with a message. */
bool mp_core_load(std::string &err);

mp_scalar mp_scalar_of_type(clang::ASTContext &C, clang::QualType t);

/* The state of one nest while it is described and rewritten. */
struct mp_ctx {
	clang::ASTContext &C;
	clang::Sema &S;
	clang::FunctionDecl *fn;
	clang::Stmt *top;                  /* the annotated for or while loop */
	clang::Stmt *top_init = nullptr;   /* `i = 0;` before `for (; ...)`, or null */
	/* an OpenMP loop directive on the nest (`#pragma omp parallel for`):
	   the call goes before it and the directive, untouched, is the
	   fallback; omp_threads / omp_if: its num_threads and if clauses' expressions
	   (or null) */
	clang::Stmt *omp = nullptr;
	clang::Expr *omp_threads = nullptr, *omp_if = nullptr;
	mp_nest *n;
	mp_pragma_rec *pr;
	clang::SourceLocation loop_loc;
	std::map<const clang::Stmt *, clang::Stmt *> *parent;
	/* fors with a pragma: each one's pragma (an index into the function's) */
	const std::map<const clang::Stmt *, size_t> *annotated = nullptr;
	/* the innermost OpenMP region (parallel, task, worksharing body) the
	   nest is in, or null: references the rewrite builds to variables
	   declared outside it go through its captures */
	clang::CapturedStmt *captured = nullptr;
	/* locals declared outside that region which an OpenMP clause makes
	   private in it (`private(h)`, the iterator of a `parallel for`): not
	   among its captures, yet the nest reads them, and so may the rewrite
	   (codegen maps the references to the private copy) */
	std::set<const clang::VarDecl *> omp_private;

	std::vector<clang::Stmt *> loops;               /* loop id -> for or while */
	std::set<const clang::Stmt *> skip;             /* a while loop's init and increment */
	/* variables stepped beside a loop's iterator (stepped_ivs in
	   nest.cc): the loop (for or while), its body, the value inside it */
	struct stepped_iv {
		const clang::Stmt *loop, *body;
		mp_aff val;
	};
	std::map<const clang::VarDecl *, stepped_iv> stepped;
	bool stepped_at(const clang::VarDecl *d, const clang::Expr *use, mp_aff *r);
	/* loops of the nest whose body's last statements step a variable
	   (stepped_last in nest.cc), found before their block is described:
	   the initial value's statement is loop control */
	std::map<const clang::Stmt *, size_t> last_stepped;
	const clang::Stmt *child_toward(const clang::Stmt *anc, const clang::Stmt *x) const;
	std::set<const clang::VarDecl *> skip_decl;     /* a while loop's declared iterator */
	std::vector<clang::VarDecl *> loop_iter;        /* loop id -> iterator */
	/* remainder loops mp_reroll folded into the loop before them: they run
	   only when the nest falls back */
	std::vector<clang::Stmt *> absorbed;
	std::map<const clang::VarDecl *, int> iter_var; /* iterator -> var id */
	std::map<const clang::ValueDecl *, int> var_of;
	std::vector<clang::VarDecl *> var_decl;         /* var id -> decl */
	std::map<const clang::VarDecl *, int> array_of;
	std::vector<clang::VarDecl *> array_base;       /* array id -> decl */
	std::vector<const clang::Expr *> access_ref;    /* access id -> lvalue */
	/* scalar variables assigned in the nest: decl -> defining expressions
	   (the initializer of a declaration inside the nest, or the assignment) */
	std::map<const clang::VarDecl *, std::vector<const clang::Expr *>> defs;
	std::set<const clang::VarDecl *> declared_in;   /* declared inside the nest */
	std::set<const clang::VarDecl *> stored_decls;  /* objects stored to */
	std::vector<clang::VarDecl *> protected_decls;  /* memory read as parameters */
	std::set<const clang::VarDecl *> outer_iters;   /* iterators of loops around the nest */
	/* locals and parameters of the function whose address is taken
	   anywhere in it: like globals, they live in memory and may change
	   through a pointer (mem_decl) */
	std::set<const clang::VarDecl *> addr_taken;
	/* steps of walking pointers met inside the statement being described
	   (`*p++`, `*++p`): pointer assignments emitted right after it */
	std::vector<std::pair<clang::VarDecl *, int64_t>> pending_steps;
	std::set<const clang::Expr *> pending_seen;
	/* in-bounds assumptions met while describing one access (index,
	   extent of a declared array dimension): mp_access.bidx/bext */
	std::vector<std::pair<mp_aff, int64_t>> cur_bounds;
	bool has_opaque = false;
	std::string opaque_call;                        /* the first call that made it so */
	std::string stmt_opaque;                        /* why the current stmt is opaque */

	bool failed = false;
	std::string fail_text;
	clang::SourceLocation fail_loc;

	mp_ctx(clang::ASTContext &c, clang::Sema &s) : C(c), S(s) {}
	void fail(clang::SourceLocation loc, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));
	int var_for(clang::VarDecl *d, mp_var_kind kind, bool fresh = false);
	bool invariant_memory_decl(clang::VarDecl *d, clang::SourceLocation at);
	bool mem_decl(const clang::VarDecl *d) const
	{
		return d->hasGlobalStorage() || addr_taken.count(d);
	}
	/* A local pointer the nest assigns more than once (`p = lhs; ...
	   p++`): a walking pointer, described by pointer assignments and
	   resolved by the core (mp_walk_resolve). */
	bool walking(const clang::VarDecl *d) const
	{
		auto it = defs.find(d);
		return d->getType()->isPointerType() && !mem_decl(d) &&
		       !d->getType().isVolatileQualified() && it != defs.end() &&
		       !(it->second.size() == 1 && declared_in.count(d) &&
			 d->getInit() == it->second[0]);
	}
	/* sizeof(*p) for pointer type T, or 0 */
	int64_t pointee_size(clang::QualType t) const;

	/* Derived parameters: loop-invariant values that are not affine (n /
	   32, rows >> 1, (uint16_t) n) or read from memory the nest does not
	   write (x->n, x->q): PARAM vars whose value is the expression as
	   written, evaluated again before the nest (translate.cc). */
	std::map<int, const clang::Expr *> var_value;   /* var -> rvalue */
	std::map<int, const clang::Expr *> var_lvalue;  /* var read from memory -> lvalue */
	std::map<std::string, int> derived;             /* rendering -> var */
	std::map<int, int> derived_array;               /* pointer var -> array */
	std::vector<const clang::Expr *> array_value;   /* array id -> base value */
	bool invariant(const clang::Expr *e, int depth);
	int derived_var(const clang::Expr *value);
	int value_var(const std::string &name, const clang::Expr *value);
	/* variable-length array type -> the PARAM var of its size in bytes
	   (`sizeof (T)` of that type object: the size saved when it was formed) */
	std::map<const clang::VariableArrayType *, int> vla_size;
	int var_expr(int v, mp_scalar ty);
	int add_expr(mp_expr_kind k, mp_scalar ty, int a, int b);
	/* the value of D at USE when D has one definition in the nest that
	   every read at USE sees, or null */
	const clang::Expr *single_def(const clang::VarDecl *d, const clang::Expr *use = nullptr);
	bool aff_of(const clang::Expr *e, mp_aff *r, int depth);
	bool aff_of_(const clang::Expr *e, mp_aff *r, int depth);
	bool aff_of_lvalue(const clang::Expr *e, mp_aff *r, int depth);
	/* E as MAX or MIN of two affine forms (`a > b ? a : b`, a local
	   holding one): *is_max says which; false when it is neither */
	bool minmax_of(const clang::Expr *e, mp_aff *a, mp_aff *b, bool *is_max, int depth);
	/* E (negated when NEG) as a conjunction of affine conditions, their
	   bits added to *set (mp_nest_add_cond); false when it is not one */
	bool conds_of(const clang::Expr *e, bool neg, unsigned *set, int depth);
	/* the guard of the statements being described (describe_body): the
	   enclosing `if`s' conditions, and the `if (C) continue;` seen so
	   far in the current loop body (!C); known: all of them could be
	   read (conds_of) */
	unsigned g_conds = 0, cont_conds = 0;
	bool g_known = true, cont_known = true;
	unsigned cur_conds = 0;   /* new_stmt: the current statement's */
	bool cur_known = true;
	bool size_of(clang::QualType t, mp_aff *r, int depth);
	int64_t const_vla_length(clang::QualType t);
	int array_for(clang::VarDecl *base, bool is_decl);
	bool ptr_of(const clang::Expr *p, int *arr, mp_aff *off, int depth);
	bool addr_of(const clang::Expr *lv, int *arr, mp_aff *off, int depth);
	int access_for(const clang::Expr *lv, bool is_write, int stmt);
	int expr_of(const clang::Expr *e, int stmt, int depth);
	int rvalue_of(const clang::Expr *lv, int stmt, int depth);
};

bool mp_harmless_call(const clang::CallExpr *c);
std::string mp_callee_name(const clang::CallExpr *c);
std::string mp_call_effects(const clang::CallExpr *c);   /* MP_MSG_CALL_EFFECTS */
const clang::VarDecl *mp_var_of_ref(const clang::Expr *e);

/* nest.cc */
bool mp_build_nest(mp_ctx &c);

/* `for (i = 0, p = a; ...)`: the init's part setting the iterator and the
 * other parts (which the rewrite runs before the call); empty extra when
 * the init is not such a comma. */
struct mp_for_extra {
	clang::Stmt *own = nullptr;
	std::vector<clang::Stmt *> extra;
};
mp_for_extra mp_for_init_extra(clang::ForStmt *f);
void mp_process_function(clang::ASTContext &C, clang::Sema &S, clang::FunctionDecl *fd);
void mp_finish_unit(void);
/* rewrite.cc */
bool mp_rewrite(mp_ctx &c, const mp_plan *plans, int count);

#endif
