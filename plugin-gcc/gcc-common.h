/* gcc-common.h -- every GCC header the plugin needs, in the one order that
 * works, plus the C front-end entry points declared weak (lto1 loads the
 * plugin too and lacks them; see shared/notes/gcc-plugin.md).  Every
 * GCC-version difference belongs in this file.
 */
#ifndef MP_GCC_COMMON_H
#define MP_GCC_COMMON_H

#define INCLUDE_VECTOR
#define INCLUDE_MAP
#define INCLUDE_SET
#define INCLUDE_STRING
#define INCLUDE_ALGORITHM
#include "gcc-plugin.h"
#include "system.h"
#include "coretypes.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "context.h"
#include "ssa.h"
#include "cgraph.h"
#include "fold-const.h"
#include "stor-layout.h"
#include "gimple-iterator.h"
#include "gimplify.h"
#include "gimplify-me.h"
#include "gimple-pretty-print.h"
#include "tree-cfg.h"
#include "cfgloop.h"
#include "cfghooks.h"
#include "cfganal.h"
#include "cfgcleanup.h"
#include "dumpfile.h"
#include "intl.h"
#include "calls.h"
#include "stringpool.h"
#include "attribs.h"
#include "tree-iterator.h"
#include "langhooks.h"
#include "c-family/c-common.h"
#include "c-family/c-pragma.h"
#include "diagnostic-core.h"

#if BUILDING_GCC_VERSION < 12000
#error "mixprec's GCC plugin needs GCC 12 or newer"
#endif

/* C front-end functions: absent from lto1, so weak. */
extern void c_register_pragma_with_expansion(const char *, const char *, pragma_handler_1arg)
	__attribute__((weak));
extern enum cpp_ttype pragma_lex(tree *, location_t *) __attribute__((weak));
extern enum cpp_ttype c_lex_with_flags(tree *, location_t *, unsigned char *, int)
	__attribute__((weak));
extern tree add_stmt(tree) __attribute__((weak));
extern tree lookup_name(tree) __attribute__((weak));
extern struct cpp_reader *parse_in __attribute__((weak));

#include "mp_nest.h"

/* Shared between the plugin's files. */
#define MP_MARKER_NAME "__mixprec_marker"

struct mp_pragma_rec {
	mp_pragma p;
	location_t pragma_loc;   /* the '#pragma' */
	location_t loop_loc;     /* the 'for' it annotates (0 until known) */
	bool bad;                /* an error was reported already */
	bool region;             /* on a block of several loops: each loop a
	                            nest (a copy of the record each); one
	                            without any contraction is only a remark */
	bool region_head;        /* the pragma's own marker of a region: each
	                            loop has a marker of its own */
	location_t brace_loc;    /* the '{' right after the pragma, or
	                            UNKNOWN_LOCATION */
	bool lexed;              /* read when the lexer reached it (plugin.cc
	                            lex_pragma): its marker is placed again
	                            before genericization (settle_markers) */
	bool semi_next;          /* lexed, and an empty statement ';' follows */
	bool close_next;         /* lexed, and the block's '}' follows */
	bool directive;          /* lexed from a '#pragma' line (not _Pragma) */
	int pragma_col;          /* a _Pragma's column in its line, 0: not known */
	int pragma_macro_col;    /* the column of the macro whose arguments hold
	                            that _Pragma (0: none) */
	std::vector<location_t> tok_locs;
	/* scale=(SA, SB): the VAR_DECL / PARM_DECL each named scale resolved
	   to where the pragma stands (NULL_TREE: dynamic, a number, or not a
	   usable variable).  Also kept alive by mp_scale_roots (plugin.cc). */
	tree scale_decl[2];
	/* on a construct of an OpenMP loop directive (omp.cc): the variable
	   that runs the construct (set to "the call fell back"), and the one
	   holding the thread count it asks for (NULL_TREE: none asked) */
	tree omp_go;
	tree omp_threads;
	int omp_collapse;   /* the loops the directive collapses */
	bool omp_num_threads;   /* it has a num_threads clause */
};

extern std::vector<mp_pragma_rec> mp_pragmas;

/* Location cookies: small ints (>= 1) standing for a location_t inside the
 * compiler-neutral core. */
int mp_loc_cookie(location_t loc);
location_t mp_loc_of(int cookie);

/* Keeps tree T alive across garbage collections (a GC root list). */
void mp_keep_tree(tree t);

/* `#pragma mixprec` (its marker at MI) on an OpenMP loop construct (at XI,
 * the same statement list): replaces the construct by a block holding a
 * plain copy of its loops for the pass to rewrite and the construct as the
 * fallback (omp.cc).  False with WHY when the construct is not one mixprec
 * transforms. */
bool mp_omp_twin(tree_stmt_iterator mi, tree_stmt_iterator xi, int id, const char **why);
/* omp.cc: a nest in an OpenMP region whose scalars are declared outside it
 * gets copies of its own (before OpenMP lowering); plugin.cc's markers */
void mp_omp_privatize(tree fndecl);
bool mp_is_marker(tree t, int *id);
bool mp_is_debug_marker(tree t);
tree_stmt_iterator mp_next_stmt(tree_stmt_iterator it);
bool mp_is_hoisted_init(tree e);
bool mp_init_then_for(tree_stmt_iterator it, tree_stmt_iterator *loop);
tree mp_loop_item(tree item);
/* The first statement of scope T past its declarations (T itself when no
 * BIND_EXPR; NULL_TREE when none), an OpenMP or OpenACC construct (or the
 * scope around one for `for (int i ...)`), and its location. */
tree mp_scope_first(tree t);
bool mp_omp_construct(tree t);
location_t mp_omp_location(tree t);
/* settle.cc: each lexed pragma's marker moved to where the pragma stands */
void mp_settle_markers(tree fndecl);
/* hoist.cc: a `?:` in a loop bound of an annotated nest that reads only
 * variables the nest leaves alone, evaluated once before the nest */
void mp_hoist_bounds(tree fndecl);

/* The pass body: translate, analyse, rewrite every marked nest of FN. */
unsigned int mp_process_function(function *fn);

#endif
