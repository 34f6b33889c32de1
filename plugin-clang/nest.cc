/* nest.cc -- find the statement each '#pragma mixprec' annotates, describe
 * the nest's loops and statements for the core, and drive analysis,
 * diagnostics and rewriting (called for every function before code
 * generation).
 */
#include <stdarg.h>
#include <functional>
#include "mp-clang.h"
#include <clang/AST/DeclOpenMP.h>
#include <clang/Basic/TargetInfo.h>
#include <clang/Lex/Lexer.h>

using namespace clang;

typedef std::map<const Stmt *, Stmt *> parent_map;

static void build_parents(Stmt *s, parent_map &pm)
{
	for (Stmt *c : s->children())
		if (c) {
			pm[c] = s;
			build_parents(c, pm);
		}
	/* an OpenMP region's body: a CapturedStmt's children are only its
	   capture initialisers */
	if (CapturedStmt *cs = dyn_cast<CapturedStmt>(s))
		if (Stmt *b = cs->getCapturedStmt()) {
			pm[b] = s;
			build_parents(b, pm);
		}
}

static const char *decl_name(const VarDecl *d)
{
	static std::string buf;
	buf = d && !d->getName().empty() ? d->getName().str() : std::string("<temporary>");
	return buf.c_str();
}

/* ------------------------------------------------------ pre-scan */

/* Every definition of a scalar variable, every stored object, whether
 * the nest holds calls with side effects or inline assembly, and the
 * locals an enclosing OpenMP region made private (c.omp_private). */
static void prescan(mp_ctx &c, const Stmt *s)
{
	if (!s)
		return;
	/* locals from outside the region that the nest reads and the region
	   does not capture: an OpenMP clause privatized them (Sema marks the
	   references as captures all the same, and codegen finds the private
	   copy first) */
	if (const DeclRefExpr *dr = dyn_cast<DeclRefExpr>(s))
		if (c.captured && !c.omp)
			if (const VarDecl *vd = dyn_cast<VarDecl>(dr->getDecl()))
				if (vd->hasLocalStorage() &&
				    !c.captured->getCapturedDecl()->Encloses(vd->getDeclContext()) &&
				    !c.captured->capturesVariable(vd))
					c.omp_private.insert(vd);
	if (const DeclStmt *ds = dyn_cast<DeclStmt>(s)) {
		for (const Decl *d : ds->decls()) {
			/* a variably modified type declared in the nest (typedef
			   int8_t row[k]; a VLA): its size is evaluated where it is
			   declared, which the rewrite does not keep in place */
			const TypedefNameDecl *td = dyn_cast<TypedefNameDecl>(d);
			const VarDecl *vv = dyn_cast<VarDecl>(d);
			if ((td && td->getUnderlyingType()->isVariablyModifiedType()) ||
			    (vv && vv->getType()->isVariablyModifiedType() &&
			     !vv->getType()->isVariableArrayType()))   /* a VLA: named below */
				c.fail(d->getLocation(), "a variably modified type (a VLA or a typedef "
				       "of one) is declared inside the nest; declare it before the nest");
		}
		for (const Decl *d : ds->decls())
			if (const VarDecl *v = dyn_cast<VarDecl>(d)) {
				c.declared_in.insert(v);
				if (v->getInit())
					c.defs[v].push_back(v->getInit());
			}
	}
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(s)) {
		if (bo->isAssignmentOp()) {
			if (const VarDecl *v = mp_var_of_ref(bo->getLHS()))
				c.defs[v].push_back(bo);
			bool is_decl = false;
			const Expr *l = bo->getLHS()->IgnoreParenCasts();
			(void)is_decl;
			while (l) {
				if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(l)) {
					if (const VarDecl *v = dyn_cast<VarDecl>(r->getDecl()))
						c.stored_decls.insert(v);
					break;
				}
				if (const ArraySubscriptExpr *a = dyn_cast<ArraySubscriptExpr>(l))
					l = a->getBase()->IgnoreParenCasts();
				else if (const MemberExpr *m = dyn_cast<MemberExpr>(l))
					l = m->isArrow() ? nullptr : m->getBase()->IgnoreParenCasts();
				else
					break;
			}
		}
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(s)) {
		if (u->isIncrementDecrementOp())
			if (const VarDecl *v = mp_var_of_ref(u->getSubExpr()))
				c.defs[v].push_back(u);
		if (u->getOpcode() == UO_AddrOf)
			if (const VarDecl *v = mp_var_of_ref(u->getSubExpr())) {
				c.defs[v].push_back(u);   /* may change through the pointer */
				c.stored_decls.insert(v);
			}
	}
	if (const CallExpr *call = dyn_cast<CallExpr>(s))
		if (!mp_harmless_call(call)) {
			if (!c.has_opaque)
				c.opaque_call = mp_callee_name(call);
			c.has_opaque = true;
		}
	if (isa<AsmStmt>(s))
		c.has_opaque = true;
	for (const Stmt *k : s->children())
		prescan(c, k);
}

/* Does S contain a jump out of the nest or into it? */
static const Stmt *find_exit(const Stmt *s, int loop_depth)
{
	if (!s)
		return nullptr;
	/* a case label of a switch around the nest jumps into it (a switch
	   inside the nest is read below, its own labels with it) */
	if (isa<ReturnStmt>(s) || isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s) ||
	    isa<CaseStmt>(s) || isa<DefaultStmt>(s))
		return s;
	/* a label no goto names (nor &&label) is only a name for the
	   statement, as GCC's blocks see it */
	if (const LabelStmt *ls = dyn_cast<LabelStmt>(s))
		if (ls->getDecl()->isUsed())
			return s;
	if (isa<BreakStmt>(s))
		return s;   /* out of a loop of the nest */
	/* a statement expression standing as a statement: its statements, as
	   describe_body reads them */
	if (const CompoundStmt *cs = dyn_cast<CompoundStmt>(s)) {
		for (const Stmt *k : cs->body()) {
			const StmtExpr *se = dyn_cast<StmtExpr>(k);
			if (const Stmt *x = find_exit(se ? se->getSubStmt() : k, loop_depth))
				return x;
		}
		return nullptr;
	}
	/* a continue inside a statement expression within an expression,
	   `int z = ({ if (C) continue; 0; });`: describe_body reads guards
	   from statements only and would miss it (its terms added: found by
	   a review helper) */
	if (const StmtExpr *se = dyn_cast<StmtExpr>(s)) {
		std::vector<const Stmt *> todo(1, se->getSubStmt());
		while (!todo.empty()) {
			const Stmt *x = todo.back();
			todo.pop_back();
			if (!x || isa<ForStmt>(x) || isa<WhileStmt>(x) || isa<DoStmt>(x))
				continue;   /* (their own continues; exits: below) */
			if (isa<ContinueStmt>(x))
				return x;
			for (const Stmt *k : x->children())
				todo.push_back(k);
		}
	}
	if (const SwitchStmt *sw = dyn_cast<SwitchStmt>(s)) {
		/* a break leaves the switch only; nested loops still count */
		std::vector<const Stmt *> todo(1, sw->getBody());
		while (!todo.empty()) {
			const Stmt *x = todo.back();
			todo.pop_back();
			if (!x || isa<BreakStmt>(x))
				continue;
			if (isa<ForStmt>(x) || isa<WhileStmt>(x) || isa<DoStmt>(x) || isa<SwitchStmt>(x)) {
				if (const Stmt *e = find_exit(x, loop_depth))
					return e;
				continue;
			}
			if (isa<ReturnStmt>(x) || isa<GotoStmt>(x) || isa<IndirectGotoStmt>(x) ||
			    (isa<LabelStmt>(x) && cast<LabelStmt>(x)->getDecl()->isUsed()))
				return x;
			for (const Stmt *k : x->children())
				todo.push_back(k);
		}
		return nullptr;
	}
	for (const Stmt *k : s->children())
		if (const Stmt *x = find_exit(k, loop_depth))
			return x;
	return nullptr;
}

/* ------------------------------------------------------ loop control */

static bool describe_loop(mp_ctx &c, Stmt *l, int parent, int pos, const Stmt *outer_init);

/* Whether E is a constant 0 (integer or floating, +-0). */
static bool zero_constant(mp_ctx &c, const Expr *e)
{
	Expr::EvalResult er;
	if (e->HasSideEffects(c.C) || !e->EvaluateAsRValue(er, c.C))
		return false;
	return (er.Val.isInt() && er.Val.getInt() == 0) ||
	       (er.Val.isFloat() && er.Val.getFloat().isZero());
}

/* The variable V of a zero test: `V != 0`, `0 != V` or `V` (*nz set:
 * true where V is nonzero), `V == 0`, `0 == V` (*nz clear), each perhaps
 * under `!`; V a local or parameter of the nest, not in memory.  Else -1.
 * GCC's glue reads the same tests from the branch they fold to. */
static int zero_test(mp_ctx &c, const Expr *ce, bool *nz)
{
	ce = ce->IgnoreParenImpCasts();
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(ce)) {
		if (u->getOpcode() != UO_LNot)
			return -1;
		int v = zero_test(c, u->getSubExpr(), nz);
		*nz = !*nz;
		return v;
	}
	const Expr *v = ce;
	*nz = true;
	if (const BinaryOperator *b = dyn_cast<BinaryOperator>(ce)) {
		if (b->getOpcode() != BO_NE && b->getOpcode() != BO_EQ)
			return -1;
		*nz = b->getOpcode() == BO_NE;
		const Expr *l = b->getLHS()->IgnoreParenImpCasts(), *r = b->getRHS()->IgnoreParenImpCasts();
		v = zero_constant(c, r) ? l : zero_constant(c, l) ? r : nullptr;
	}
	const DeclRefExpr *dr = v ? dyn_cast<DeclRefExpr>(v) : nullptr;
	const VarDecl *d = dr ? dyn_cast<VarDecl>(dr->getDecl()) : nullptr;
	if (!d || d->getType().isVolatileQualified() || c.mem_decl(d) ||
	    !(d->getType()->isIntegerType() || d->getType()->isRealFloatingType()))
		return -1;
	/* its first mention may be this one (a parameter, say) */
	return c.var_for(const_cast<VarDecl *>(d), c.defs.count(d) ? MP_VAR_LOCAL : MP_VAR_PARAM);
}

/* S without the braces of a one-statement block */
static Stmt *single(Stmt *s)
{
	while (CompoundStmt *cs = dyn_cast_or_null<CompoundStmt>(s)) {
		if (cs->size() != 1)
			break;
		s = cs->body_front();
	}
	return s;
}

static bool is_empty(const Stmt *s)
{
	if (isa<NullStmt>(s))
		return true;
	const CompoundStmt *cs = dyn_cast<CompoundStmt>(s);
	if (!cs)
		return false;
	for (const Stmt *k : cs->body())
		if (!is_empty(k))
			return false;
	return true;
}

/* Whether S is `v = e;` of a local scalar V, E without side effects
 * (f2c's `i__3 = *m;` before the loop in the guard; an assignment to the
 * guard's own variable is refused by the core, as under GCC). */
static bool plain_assign(mp_ctx &c, Stmt *s, const VarDecl **var = nullptr,
			 const Expr **val = nullptr)
{
	const VarDecl *v = nullptr;
	const Expr *rhs = nullptr;
	if (BinaryOperator *bo = dyn_cast<BinaryOperator>(s)) {
		if (bo->getOpcode() != BO_Assign)
			return false;
		v = mp_var_of_ref(bo->getLHS()->IgnoreParens());
		rhs = bo->getRHS();
	} else if (DeclStmt *ds = dyn_cast<DeclStmt>(s)) {
		/* `int t = x[j];` (as GCC's glue sees an assignment) */
		v = ds->isSingleDecl() ? dyn_cast<VarDecl>(ds->getSingleDecl()) : nullptr;
		rhs = v && !v->isStaticLocal() ? v->getInit() : nullptr;
	}
	if (!v || !rhs || rhs->HasSideEffects(c.C))
		return false;
	if (var)
		*var = v, *val = rhs;
	return v->hasLocalStorage() && v->getType()->isScalarType() &&
	       !v->getType().isVolatileQualified();
}

/* `E != 0` (`E == 0`: *NZ false), E an operand element: an array
 * subscript or a dereference without side effects, not volatile; else
 * null. */
static const Expr *elem_zero_test(mp_ctx &c, const Expr *ce, bool *nz)
{
	const BinaryOperator *b = dyn_cast<BinaryOperator>(ce->IgnoreParenImpCasts());
	if (!b || (b->getOpcode() != BO_NE && b->getOpcode() != BO_EQ))
		return nullptr;
	*nz = b->getOpcode() == BO_NE;
	const Expr *l = b->getLHS()->IgnoreParenImpCasts(), *r = b->getRHS()->IgnoreParenImpCasts();
	const Expr *e = zero_constant(c, r) ? l : zero_constant(c, l) ? r : nullptr;
	const UnaryOperator *u = e ? dyn_cast<UnaryOperator>(e) : nullptr;
	if (!e || !(isa<ArraySubscriptExpr>(e) || (u && u->getOpcode() == UO_Deref)) ||
	    e->HasSideEffects(c.C) || e->getType().isVolatileQualified() ||
	    !(e->getType()->isIntegerType() || e->getType()->isRealFloatingType()))
		return nullptr;
	return e;
}

/* Whether A and B are the same expression (the same operations on the
 * same declarations). */
static bool same_expr(mp_ctx &c, const Expr *a, const Expr *b)
{
	llvm::FoldingSetNodeID pa, pb;
	a->Profile(pa, c.C, true);
	b->Profile(pb, c.C, true);
	return pa == pb;
}

/* Whether X is E (the same expression), a conversion of it or a product
 * with it as a factor: zero where E is. */
static bool elem_factor(mp_ctx &c, const Expr *x, const Expr *e, int depth = 0)
{
	x = x->IgnoreParenCasts();
	if (same_expr(c, x, e->IgnoreParenCasts()))
		return true;
	const BinaryOperator *m = dyn_cast<BinaryOperator>(x);
	return m && m->getOpcode() == BO_Mul && depth < 8 &&
	       (elem_factor(c, m->getLHS(), e, depth + 1) ||
		elem_factor(c, m->getRHS(), e, depth + 1));
}

/* Whether X reads memory other than the element E (a global, a local
 * whose address is taken, a dereference, a subscript, a field through a
 * pointer, a call). */
static bool reads_memory_besides(mp_ctx &c, const Stmt *s, const Expr *e, int depth = 0)
{
	if (!s)
		return false;
	if (const DeclStmt *ds = dyn_cast<DeclStmt>(s)) {
		for (const Decl *d : ds->decls())
			if (const VarDecl *vd = dyn_cast<VarDecl>(d))
				if (reads_memory_besides(c, vd->getInit(), e, depth + 1))
					return true;
		return false;
	}
	const Expr *x = dyn_cast<Expr>(s);
	if (!x)
		return true;
	x = x->IgnoreParenImpCasts();
	if (e && same_expr(c, x, e->IgnoreParenImpCasts()))
		return false;
	if (depth > 32 || isa<ArraySubscriptExpr>(x) || isa<CallExpr>(x) ||
	    (isa<MemberExpr>(x) && cast<MemberExpr>(x)->isArrow()))
		return true;
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(x))
		if (u->getOpcode() == UO_Deref)
			return true;
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(x))
		if (const VarDecl *d = dyn_cast<VarDecl>(r->getDecl()))
			return c.mem_decl(d) || d->getType().isVolatileQualified();
	for (const Stmt *k : x->children())
		if (k && reads_memory_besides(c, k, e, depth + 1))
			return true;
	return false;
}

/* Whether the assignments PRE under a zero-skip guard `if` IS, or the test
 * of the loop F it guards, read memory other than the guard's element
 * ELEM: the nest as written reads it only where the guard passes, the
 * rewrite on every call (CLAPACK's `i__3 = *m;` and `temp = *alpha *
 * b[...]` with m or alpha null where every guard fails: a review helper's
 * crash); then fails, naming the guard's value NAME. */
static bool guard_reads_memory(mp_ctx &c, IfStmt *is, ForStmt *f, ArrayRef<Stmt *> pre,
			       const Expr *elem, const char *name)
{
	bool mem = reads_memory_besides(c, f->getInit(), elem) ||
		   reads_memory_besides(c, f->getCond(), elem);
	for (Stmt *q : pre)
		mem |= reads_memory_besides(c, q, elem);
	if (mem)
		c.fail(is->getIfLoc(), "a loop of the nest runs under 'if (%s != 0)' and reads "
		       "memory under that guard (before the loop or in its bounds) that the nest "
		       "as written reads only where that value is not 0 (mixprec would read it "
		       "on every call); copy the value to a local variable before the nest", name);
	return mem;
}

/* The loop a zero-skip guard `if` runs where its variable is nonzero:
 * `if (t != 0) for ...`, `if (t == 0) {} else for ...`, or, where NEXT is
 * the rest of a loop body after the `if`, `if (t == 0) continue; for ...`
 * (GLPK's form).  Its variable in *zv; else null.  With PREFIX, the
 * branch may assign scalars before the loop (`if (temp != 0.f) { i__3 =
 * *m; for ... }`, f2c's form, as the GCC glue reads it): those
 * assignments in *PREFIX.  With PREFIX, the guard may test an operand
 * element (netlib's f2c BLAS: `if (b[l + j * b_dim1] != 0.f) { temp =
 * *alpha * b[l + j * b_dim1]; ... for ... }`): the variable is then the
 * local one of those assignments sets to a product with the element as a
 * factor, no assignment before it changing what the element reads, and
 * the element as written in *ZSRC. */
static ForStmt *zero_guarded(mp_ctx &c, IfStmt *is, ArrayRef<Stmt *> next, int *zv,
			     std::vector<Stmt *> *prefix = nullptr, std::string *zsrc = nullptr,
			     std::set<const Stmt *> *zdef = nullptr)
{
	bool nz;
	if (is->getInit() || is->getConditionVariable() || is->getCond()->HasSideEffects(c.C))
		return nullptr;
	int v = zero_test(c, is->getCond(), &nz);
	const Expr *elem = v < 0 && prefix && zsrc && zdef ? elem_zero_test(c, is->getCond(), &nz)
							   : nullptr;
	if (v < 0 && !elem)
		return nullptr;
	Stmt *th = single(is->getThen()), *el = single(is->getElse());
	Stmt *run = nullptr;
	if (nz && !el)
		run = th;
	else if (!nz && el && is_empty(th))
		run = el;
	else if (!nz && !el && isa<ContinueStmt>(th)) {
		for (Stmt *k : next) {
			if (is_empty(k))
				continue;
			if (run)
				return nullptr;
			run = k;
		}
	}
	*zv = v;
	CompoundStmt *cs = dyn_cast_or_null<CompoundStmt>(single(run));
	if (prefix && cs && cs->size() > 1) {
		ArrayRef<Stmt *> b(cs->body_begin(), cs->size());
		ForStmt *f = dyn_cast<ForStmt>(b.back());
		std::vector<Stmt *> pre;
		for (size_t q = 0; f && q + 1 < b.size(); q++)
			if (!is_empty(b[q]) && !plain_assign(c, b[q]))
				return nullptr;
			else if (!is_empty(b[q]))
				pre.push_back(b[q]);
		if (f && elem) {
			/* the local set from the element: the first one the
			   block assigns (as the GCC glue finds it), assigned
			   once */
			const VarDecl *w = nullptr;
			for (Stmt *q : pre) {
				const VarDecl *d;
				const Expr *rhs;
				plain_assign(c, q, &d, &rhs);
				if (w == d)
					return nullptr;
				if (w)
					continue;
				if (!elem_factor(c, rhs, elem) ||
				    !(d->getType()->isIntegerType() || d->getType()->isRealFloatingType()))
					return nullptr;
				w = d;
				zdef->insert(q);
			}
			if (!w)
				return nullptr;
			*zv = c.var_for(const_cast<VarDecl *>(w), MP_VAR_LOCAL);
			if (*zv < 0)
				return nullptr;
			*zsrc = Lexer::getSourceText(CharSourceRange::getTokenRange(elem->getSourceRange()),
						     c.C.getSourceManager(), c.C.getLangOpts()).str();
			if (zsrc->empty())   /* (in a macro, say: as the GCC glue) */
				*zsrc = "an element";
		}
		if (f && guard_reads_memory(c, is, f, pre, elem,
					    elem ? zsrc->c_str() : c.n->var[v].name))
			return nullptr;
		if (f)
			prefix->insert(prefix->end(), pre.begin(), pre.end());
		return f;
	}
	if (elem)
		return nullptr;
	ForStmt *f = dyn_cast_or_null<ForStmt>(single(run));
	if (f && guard_reads_memory(c, is, f, ArrayRef<Stmt *>(), nullptr, c.n->var[v].name))
		return nullptr;
	return f;
}

static void describe_body(mp_ctx &c, Stmt *s, int lid, bool guarded, int *pos, bool *cont);

/* X when INC adds X to V or subtracts it (`v += x`, `v -= x`, `v = v + x`,
 * `v = x + v`, `v = v - x`), *SIGN 1 or -1; else null. */
static const Expr *incr_operand(const Expr *inc, const VarDecl *v, int *sign)
{
	const BinaryOperator *bo = dyn_cast<BinaryOperator>(inc->IgnoreParens());
	if (!bo || mp_var_of_ref(bo->getLHS()) != v)
		return nullptr;
	if (bo->getOpcode() == BO_AddAssign || bo->getOpcode() == BO_SubAssign) {
		*sign = bo->getOpcode() == BO_AddAssign ? 1 : -1;
		return bo->getRHS();
	}
	if (bo->getOpcode() != BO_Assign)
		return nullptr;
	const BinaryOperator *rhs = dyn_cast<BinaryOperator>(bo->getRHS()->IgnoreParenImpCasts());
	if (!rhs || (rhs->getOpcode() != BO_Add && rhs->getOpcode() != BO_Sub))
		return nullptr;
	const Expr *a = rhs->getLHS(), *b = rhs->getRHS();
	if (rhs->getOpcode() == BO_Add && mp_var_of_ref(a->IgnoreParenImpCasts()) != v)
		std::swap(a, b);
	if (mp_var_of_ref(a->IgnoreParenImpCasts()) != v)
		return nullptr;
	*sign = rhs->getOpcode() == BO_Add ? 1 : -1;
	return b;
}

static bool is_increment(const Expr *inc, const VarDecl *v, int64_t *step, ASTContext &C)
{
	if (!inc)
		return false;
	inc = inc->IgnoreParens();
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(inc)) {
		if (!u->isIncrementDecrementOp() || mp_var_of_ref(u->getSubExpr()) != v)
			return false;
		*step = u->isIncrementOp() ? 1 : -1;
		return true;
	}
	int sign;
	const Expr *x = incr_operand(inc, v, &sign);
	Expr::EvalResult r;
	if (!x || !x->EvaluateAsInt(r, C))
		return false;
	*step = r.Val.getInt().getSExtValue() * sign;
	return true;
}

/* Assignments, increments and address-takings of V inside S. */
static int count_defs(const Stmt *s, const VarDecl *v)
{
	if (!s)
		return 0;
	int k = 0;
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(s))
		if (bo->isAssignmentOp() && mp_var_of_ref(bo->getLHS()) == v)
			k++;
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(s))
		if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
		    mp_var_of_ref(u->getSubExpr()) == v)
			k++;
	for (const Stmt *c : s->children())
		k += count_defs(c, v);
	return k;
}

/* The variables E reads (its DeclRefExprs) into OUT. */
static void vars_read(const Stmt *e, std::set<const VarDecl *> &out)
{
	if (!e)
		return;
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(e))
		if (const VarDecl *d = dyn_cast<VarDecl>(r->getDecl()))
			out.insert(d);
	for (const Stmt *k : e->children())
		vars_read(k, out);
}

static bool has_call(const Stmt *s)
{
	if (!s)
		return false;
	if (isa<CallExpr>(s) || isa<GCCAsmStmt>(s))
		return true;
	for (const Stmt *k : s->children())
		if (has_call(k))
			return true;
	return false;
}

/* Whether statement K may change a variable of VARS (an init's value
 * read again by the call at the loop: `int i = st; st = 0; for (; i <
 * M; i++)` would start at 0): assigns one, or calls something while one
 * lives in memory. */
static const VarDecl *clobbers(mp_ctx &c, const Stmt *k, const std::set<const VarDecl *> &vars)
{
	bool call = has_call(k);
	for (const VarDecl *w : vars)
		if (count_defs(k, w) || (call && c.mem_decl(w)))
			return w;
	return nullptr;
}

/* For `for (; v < n; v++)`: the last statement before F in its block that
 * sets V (`int v = lo;` or `v = lo;`), when no statement in between
 * mentions V or changes a variable lo reads; null otherwise (GCC: the last
 * assignment on the entry path). */
static const Stmt *prior_init(mp_ctx &c, const Stmt *f, const VarDecl *v,
			      const VarDecl **clobbered = nullptr, int depth = 0)
{
	auto it = c.parent->find(f);
	const CompoundStmt *cs = it == c.parent->end() ? nullptr : dyn_cast<CompoundStmt>(it->second);
	if (!cs)
		return nullptr;
	const Stmt *found = nullptr;
	bool touched = false;   /* v set, declared, or control flow before f */
	std::set<const VarDecl *> reads;   /* what found's value reads */
	for (const Stmt *k : cs->body()) {
		if (k == f) {
			if (found || touched || depth >= 4)
				return found;
			/* the first loop of a block (a region): the init before
			   the block (as GCC sees it), with nothing in the block
			   before the loop changing what it reads */
			const Stmt *outer = prior_init(c, cs, v, clobbered, depth + 1);
			if (!outer)
				return nullptr;
			std::set<const VarDecl *> r;
			if (isa<DeclStmt>(outer))
				vars_read(v->getInit(), r);
			else if (const BinaryOperator *as = dyn_cast<BinaryOperator>(outer))
				vars_read(as->getRHS(), r);
			for (const Stmt *q : cs->body()) {
				if (q == f)
					break;
				if (const VarDecl *w = clobbers(c, q, r)) {
					if (clobbered)
						*clobbered = w;
					return nullptr;
				}
			}
			return outer;
		}
		if (count_defs(k, v) || (!isa<Expr>(k) && !isa<DeclStmt>(k)))
			touched = true;
		if (const DeclStmt *ds = dyn_cast<DeclStmt>(k)) {
			bool declares = false;
			for (const Decl *d : ds->decls())
				if (d == v)
					declares = true;
			if (declares) {
				touched = true;
				found = v->getInit() ? k : nullptr;
				reads.clear();
				vars_read(v->getInit(), reads);
				continue;
			}
		}
		const BinaryOperator *as = dyn_cast<BinaryOperator>(k);
		if (as && as->getOpcode() == BO_Assign && mp_var_of_ref(as->getLHS()) == v &&
		    count_defs(as->getRHS(), v) == 0) {
			found = k;
			reads.clear();
			vars_read(as->getRHS(), reads);
			continue;
		}
		if (!found)
			continue;
		if (count_defs(k, v) || (!isa<Expr>(k) && !isa<DeclStmt>(k)))
			found = nullptr;   /* changed, or control flow in between */
		else if (const VarDecl *w = clobbers(c, k, reads)) {
			found = nullptr;   /* a variable its value reads changed */
			if (clobbered)
				*clobbered = w;
		}
	}
	return nullptr;
}

/* Are E's side effects only reads of volatile objects (no assignment,
 * increment or call)? */
static bool only_volatile_reads(const Stmt *e)
{
	if (!e)
		return true;
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e))
		if (bo->isAssignmentOp())
			return false;
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
		if (u->isIncrementDecrementOp())
			return false;
	if (isa<CallExpr>(e) || isa<StmtExpr>(e))
		return false;
	for (const Stmt *k : e->children())
		if (!only_volatile_reads(k))
			return false;
	return true;
}

/* A comparison never true because one side is a value of an integer type
 * narrower than int, promoted, and the other a constant outside that
 * type's range (`(int)u8 == -1`, `s8 > 200`): what GCC's C front end folds
 * to 0 (shorten_compare), so that both glues see the same nest. */
static bool false_by_range(ASTContext &C, const Expr *e)
{
	const BinaryOperator *bo = dyn_cast<BinaryOperator>(e->IgnoreParens());
	if (!bo || !bo->isComparisonOp() || bo->getOpcode() == BO_NE)
		return false;
	BinaryOperatorKind k = bo->getOpcode();
	const Expr *x = bo->getLHS(), *kx = bo->getRHS();
	Expr::EvalResult r;
	if (!kx->EvaluateAsInt(r, C)) {
		std::swap(x, kx);
		if (!kx->EvaluateAsInt(r, C))
			return false;
		/* k < x is x > k ... */
		k = k == BO_LT ? BO_GT : k == BO_GT ? BO_LT : k == BO_LE ? BO_GE :
		    k == BO_GE ? BO_LE : k;
	}
	const Expr *v = x->IgnoreParenImpCasts();
	QualType t = v->getType(), pt = x->getType();
	/* compared in a signed type: (unsigned)s8 == 0xffffffff holds for -1 */
	if (!t->isIntegerType() || t->isBooleanType() || !pt->isSignedIntegerType() ||
	    C.getIntWidth(t) >= C.getIntWidth(pt) || C.getIntWidth(t) >= 32 ||
	    !r.Val.isInt())
		return false;
	unsigned w = C.getIntWidth(t);
	int64_t lo = t->isSignedIntegerType() ? -((int64_t)1 << (w - 1)) : 0;
	int64_t hi = t->isSignedIntegerType() ? ((int64_t)1 << (w - 1)) - 1
					      : ((int64_t)1 << w) - 1;
	const llvm::APSInt &ki = r.Val.getInt();
	if (ki.isSigned() ? !ki.isSignedIntN(64) : !ki.isIntN(63))
		return false;
	int64_t kv = ki.isSigned() ? ki.getSExtValue() : (int64_t)ki.getZExtValue();
	switch (k) {
	case BO_EQ: return kv < lo || kv > hi;
	case BO_LT: return kv <= lo;
	case BO_LE: return kv < lo;
	case BO_GT: return kv >= hi;
	case BO_GE: return kv > hi;
	default: return false;
	}
}

/* Does S hold a `continue` of its own loop (not of a loop nested in it)? */
static bool own_continue(const Stmt *s)
{
	if (!s)
		return false;
	if (isa<ContinueStmt>(s))
		return true;
	if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s))
		return false;
	for (const Stmt *k : s->children())
		if (own_continue(k))
			return true;
	return false;
}

/* The parts of a loop: `for (init; cond; inc) body`, or
 * `init; while (cond) { ...; inc; }` (the increment the last statement of
 * the body, the init the last statement setting the iterator before the
 * loop, found later by prior_init). */
struct loop_parts {
	const Expr *cond = nullptr;
	const Expr *inc = nullptr;
	const Stmt *init = nullptr;
	Stmt *body = nullptr;
	SourceLocation kw;
	bool is_while = false;
	bool inc_in_body = false;   /* the increment is the body's last statement
	                               (while loops; `for` without an increment) */
	/* `for (k = 0, p = a; k < K; k++, p++)`: the parts of a comma init or
	   increment besides the iterator's own, which never mention it (they
	   run before the loop, and after the body on every iteration) */
	std::vector<Expr *> init_extra, inc_extra;
};

/* The operands of a comma expression, in order. */
static void comma_parts(Expr *e, std::vector<Expr *> &out)
{
	BinaryOperator *bo = e ? dyn_cast<BinaryOperator>(e->IgnoreParens()) : nullptr;
	if (bo && bo->getOpcode() == BO_Comma) {
		comma_parts(bo->getLHS(), out);
		comma_parts(bo->getRHS(), out);
	} else if (e) {
		out.push_back(e);
	}
}

static bool mentions_var(const Stmt *s, const VarDecl *v)
{
	if (!s)
		return false;
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(s))
		if (r->getDecl() == v)
			return true;
	for (const Stmt *k : s->children())
		if (mentions_var(k, v))
			return true;
	return false;
}

/* The variable E assigns or steps (`v++`, `v += x`, `v = x`), or null. */
static const VarDecl *assigned_var(const Expr *e)
{
	e = e->IgnoreParens();
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
		return u->isIncrementDecrementOp() ? mp_var_of_ref(u->getSubExpr()) : nullptr;
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e))
		return bo->isAssignmentOp() ? mp_var_of_ref(bo->getLHS()) : nullptr;
	return nullptr;
}

/* A comma increment (`k++, p++`) whose one part steps a variable the test
 * reads, the others not mentioning it: that part is the increment, the
 * others go to inc_extra; a comma init likewise, the part assigning the
 * same variable staying the init.  Anything else is left whole (and then
 * refused as before). */
static void split_commas(loop_parts &p, ForStmt *f)
{
	std::vector<Expr *> parts;
	comma_parts(const_cast<Expr *>(p.inc), parts);
	if (parts.empty() || !p.cond)
		return;
	const VarDecl *v = nullptr;
	Expr *step = nullptr;
	for (Expr *e : parts) {
		const VarDecl *d = assigned_var(e);
		if (d && mentions_var(p.cond, d)) {
			if (v)
				return;   /* two counters tested: not ours */
			v = d;
			step = e;
		}
	}
	if (!v)
		return;
	/* (one increment, `for (i = 0, j = 0; i < M; i++)`: the init's
	   commas only; GCC's front end reads them so) */
	std::vector<Expr *> extra;
	for (Expr *e : parts)
		if (e != step) {
			if (mentions_var(e, v))
				return;
			extra.push_back(e);
		}
	std::vector<Expr *> iparts, iextra;
	Expr *ie = dyn_cast_or_null<Expr>(f->getInit());
	comma_parts(ie, iparts);
	Expr *iown = nullptr;
	if (iparts.size() >= 2) {
		for (Expr *e : iparts) {
			if (assigned_var(e) == v && !iown)
				iown = e;
			else if (mentions_var(e, v) || !assigned_var(e))
				return;
			else
				iextra.push_back(e);
		}
		/* the others may run first (the annotated loop's run before the
		   call): the iterator's init must not read what they set */
		if (!iown)
			return;
		for (Expr *e : iextra)
			if (mentions_var(iown, assigned_var(e)))
				return;
		p.init = iown;
		p.init_extra = iextra;
	}
	p.inc = step;
	p.inc_extra = extra;
}

static loop_parts parts_of(Stmt *l)
{
	loop_parts p;
	if (ForStmt *f = dyn_cast<ForStmt>(l)) {
		p.cond = f->getCond();
		p.inc = f->getInc();
		p.init = f->getInit();
		p.body = f->getBody();
		p.kw = f->getForLoc();
		split_commas(p, f);
	} else if (WhileStmt *w = dyn_cast<WhileStmt>(l)) {
		p.is_while = true;
		p.cond = w->getCond();
		p.body = w->getBody();
		p.kw = w->getWhileLoc();
	}
	if (!p.inc && p.body) {
		p.inc_in_body = true;
		if (CompoundStmt *cs = dyn_cast<CompoundStmt>(p.body)) {
			if (!cs->body_empty())
				p.inc = dyn_cast<Expr>(cs->body_back());
		} else {
			p.inc = dyn_cast<Expr>(p.body);
		}
	}
	return p;
}

mp_for_extra mp_for_init_extra(ForStmt *f)
{
	loop_parts p = parts_of(f);
	mp_for_extra r;
	if (!p.init_extra.empty()) {
		r.own = const_cast<Stmt *>(p.init);
		r.extra.assign(p.init_extra.begin(), p.init_extra.end());
	}
	return r;
}

/* How a loop's iterator is tested and stepped (find_iter). */
struct iter_form {
	const Expr *bound = nullptr;  /* null: compared with 0 (`while (n)`) */
	BinaryOperatorKind code = BO_LT;
	int64_t step = 0;
	int step_var = -1;            /* `v += GS`: the PARAM (step is then 1) */
	int cond_step = 0;            /* stepped in the test: 1 `n--`, 2 `--n` */
	int64_t cmp_off = 0;          /* the test compares v + cmp_off (`i + 1 < M`) */
	bool step_not_last = false;   /* the one step of the body is not its
	                                 last statement */
};

/* V++, ++V, V--, --V: V, with *step and *post; else null. */
static const VarDecl *inc_dec_var(const Expr *e, int64_t *step, bool *post)
{
	const UnaryOperator *u = e ? dyn_cast<UnaryOperator>(e->IgnoreParenImpCasts()) : nullptr;
	if (!u || !u->isIncrementDecrementOp())
		return nullptr;
	*step = u->isIncrementOp() ? 1 : -1;
	*post = u->isPostfix();
	return mp_var_of_ref(u->getSubExpr());
}

/* `v += S` or `v = v + S` with S a value the nest does not change, one
 * parameter (`j += GS`, GS set at run time): the PARAM in *VAR. */
static bool var_increment(mp_ctx &c, const Expr *inc, const VarDecl *v, int *var)
{
	const BinaryOperator *bo = inc ? dyn_cast<BinaryOperator>(inc->IgnoreParens()) : nullptr;
	if (!bo || mp_var_of_ref(bo->getLHS()) != v)
		return false;
	const Expr *step = nullptr;
	if (bo->getOpcode() == BO_AddAssign)
		step = bo->getRHS();
	else if (bo->getOpcode() == BO_Assign) {
		const BinaryOperator *r = dyn_cast<BinaryOperator>(bo->getRHS()->IgnoreParenImpCasts());
		if (!r || r->getOpcode() != BO_Add)
			return false;
		const Expr *a = r->getLHS(), *b = r->getRHS();
		if (mp_var_of_ref(a->IgnoreParenImpCasts()) != v)
			std::swap(a, b);
		if (mp_var_of_ref(a->IgnoreParenImpCasts()) != v)
			return false;
		step = b;
	}
	mp_aff x;
	if (!step || step->HasSideEffects(c.C) || !c.aff_of(step, &x, 0) || x.n != 1 ||
	    x.cst != 0 || x.t[0].coef != 1 || x.t[0].v2 >= 0 ||
	    c.n->var[x.t[0].v1].kind != MP_VAR_PARAM)
		return false;
	*var = x.t[0].v1;
	return true;
}

/* The iterator of loop L (its test compares it, its increment steps it,
 * its body leaves it alone), or null; *f describes it.  Also `while (n)`
 * (a test against 0) and a test that steps the iterator itself
 * (`while (n--)`, `while (--n)`, `while (n-- > 0)`). */
static const VarDecl *find_iter(mp_ctx &c, const loop_parts &lp, iter_form *f)
{
	const Expr *ce = lp.cond ? lp.cond->IgnoreParenImpCasts() : nullptr;
	const BinaryOperator *cmp = ce ? dyn_cast<BinaryOperator>(ce) : nullptr;
	if (cmp && !cmp->isComparisonOp())
		return nullptr;
	for (int pass = 0; pass < 2; pass++) {
		const Expr *side = cmp ? (pass ? cmp->getRHS() : cmp->getLHS()) : ce;
		if (!side || (!cmp && pass))
			continue;
		bool post = false;
		int64_t cstep = 0;
		const VarDecl *cand = inc_dec_var(side, &cstep, &post);
		if (cand) {
			/* stepped in the test: nothing else may set it */
			if (!cand->getType()->isIntegerType() || count_defs(lp.body, cand) != 0 ||
			    (!lp.is_while && lp.inc && count_defs(lp.inc, cand) != 0))
				continue;
			f->step = cstep;
			f->cond_step = post ? 1 : 2;
		} else {
			cand = mp_var_of_ref(side->IgnoreParenCasts());
			/* `i + 1 < M`, `i + 8 - 1 < cnt`: v plus a constant */
			const BinaryOperator *ad = dyn_cast<BinaryOperator>(side->IgnoreParenImpCasts());
			Expr::EvalResult er;
			f->cmp_off = 0;
			if (!cand && ad && (ad->getOpcode() == BO_Add || ad->getOpcode() == BO_Sub) &&
			    ad->getRHS()->EvaluateAsInt(er, c.C)) {
				cand = mp_var_of_ref(ad->getLHS()->IgnoreParenCasts());
				int64_t k = er.Val.getInt().getSExtValue();
				f->cmp_off = ad->getOpcode() == BO_Add ? k : -k;
			}
			if (cand && !cand->getType()->isIntegerType())
				cand = nullptr;
			if (!cand || (!is_increment(lp.inc, cand, &f->step, c.C) &&
				      !var_increment(c, lp.inc, cand, &f->step_var)))
				continue;
			if (f->step_var >= 0)
				f->step = 1;
			int defs = count_defs(lp.body, cand);
			if (defs != (lp.inc_in_body ? 1 : 0)) {
				if (!lp.inc_in_body && defs == 0)
					continue;
				/* the step is in the body but not last: say so */
				if (lp.inc_in_body || defs == 1)
					f->step_not_last = true;
				continue;
			}
		}
		f->bound = cmp ? (pass ? cmp->getLHS() : cmp->getRHS()) : nullptr;
		f->code = !cmp ? BO_NE : pass ? BinaryOperator::reverseComparisonOp(cmp->getOpcode())
					      : cmp->getOpcode();
		return cand;
	}
	return nullptr;
}

/* A loop whose counter is stepped once in its body, but not as the body's
 * last statement (`while (k < K) { k++; ... }`): the name of the counter
 * the test reads, for the message; else null. */
static const VarDecl *stepped_early(mp_ctx &c, const loop_parts &lp)
{
	const Expr *ce = lp.cond ? lp.cond->IgnoreParenImpCasts() : nullptr;
	const BinaryOperator *cmp = ce ? dyn_cast<BinaryOperator>(ce) : nullptr;
	const Expr *sides[2] = { cmp ? cmp->getLHS() : ce, cmp ? cmp->getRHS() : nullptr };
	for (const Expr *sd : sides) {
		const VarDecl *v = sd ? mp_var_of_ref(sd->IgnoreParenCasts()) : nullptr;
		if (v && v->getType()->isIntegerType() && lp.body && count_defs(lp.body, v) == 1 &&
		    (!lp.inc || !lp.inc_in_body || count_defs(lp.inc, v) == 0) &&
		    (lp.inc_in_body || !lp.inc))
			return v;
	}
	(void)c;
	return nullptr;
}

/* The init and increment statements of the while loops directly in CS:
 * they belong to the loop, not to the statements of the enclosing one. */
static void skip_while_parts(mp_ctx &c, CompoundStmt *cs)
{
	for (Stmt *k : cs->body()) {
		Stmt *w = k;
		while (AttributedStmt *as = dyn_cast<AttributedStmt>(w))
			w = as->getSubStmt();
		/* `int k = 0; for (; k < K; k++)` too: k = 0 is that loop's
		   init (as for GCC, where it is loop control) */
		ForStmt *fs = dyn_cast<ForStmt>(w);
		if (!isa<WhileStmt>(w) && !(fs && !fs->getInit()))
			continue;
		loop_parts lp = parts_of(w);
		iter_form f;
		const VarDecl *v = find_iter(c, lp, &f);
		if (!v)
			continue;
		const Stmt *init = prior_init(c, w, v);
		if (!init)
			continue;   /* describe_loop refuses it */
		if (isa<DeclStmt>(init))
			c.skip_decl.insert(v);   /* `int s = 0, k = 0;`: s stays */
		else
			c.skip.insert(init);
		if (!f.cond_step)
			c.skip.insert(lp.inc);
	}
}

/* The loop of the nest on V just before L in their block (a label or a
 * loop hint around either is looked through), or -1. */
static int prev_sibling_loop(mp_ctx &c, Stmt *l, const VarDecl *v)
{
	auto it = c.parent->find(l);
	Stmt *at = l;
	while (it != c.parent->end() && isa<AttributedStmt>(it->second)) {
		at = it->second;
		it = c.parent->find(at);
	}
	const CompoundStmt *cs = it == c.parent->end() ? nullptr : dyn_cast<CompoundStmt>(it->second);
	if (!cs)
		return -1;
	const Stmt *prev = nullptr;
	for (const Stmt *k : cs->body()) {
		if (k == at)
			break;
		prev = k;
	}
	while (const AttributedStmt *as = dyn_cast_or_null<AttributedStmt>(prev))
		prev = as->getSubStmt();
	for (size_t i = 0; prev && i < c.loops.size(); i++)
		if (c.loops[i] == prev)
			return c.loop_iter[i] == v ? (int)i : -1;
	return -1;
}

/* Whether X reads only constants, variables the nest does not assign and
 * integers through pointers it does not assign (`*incx`), with + - * and
 * integer conversions: a value the nest leaves unchanged (an accumulator's
 * `s += a[k] * b[k]` is no step). */
static bool invariant_amount(mp_ctx &c, const Expr *x, int depth)
{
	x = x->IgnoreParens();
	if (depth > 8 || !x->getType()->isIntegerType())
		return false;
	Expr::EvalResult r;
	if (x->EvaluateAsInt(r, c.C))
		return true;
	if (const ImplicitCastExpr *ic = dyn_cast<ImplicitCastExpr>(x)) {
		if (ic->getCastKind() == CK_LValueToRValue) {
			const Expr *s = ic->getSubExpr()->IgnoreParens();
			if (const VarDecl *v = mp_var_of_ref(s))
				return !c.defs.count(v) && !v->getType().isVolatileQualified();
			const UnaryOperator *u = dyn_cast<UnaryOperator>(s);
			const VarDecl *p = u && u->getOpcode() == UO_Deref
					   ? mp_var_of_ref(u->getSubExpr()->IgnoreParenImpCasts()) : nullptr;
			return p && !c.defs.count(p) && !s->getType().isVolatileQualified();
		}
		return ic->getCastKind() == CK_IntegralCast &&
		       invariant_amount(c, ic->getSubExpr(), depth + 1);
	}
	if (const CStyleCastExpr *cc = dyn_cast<CStyleCastExpr>(x))
		return cc->getCastKind() == CK_IntegralCast &&
		       invariant_amount(c, cc->getSubExpr(), depth + 1);
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(x))
		return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus) &&
		       invariant_amount(c, u->getSubExpr(), depth + 1);
	if (const BinaryOperator *b = dyn_cast<BinaryOperator>(x))
		return (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub ||
			b->getOpcode() == BO_Mul) &&
		       invariant_amount(c, b->getLHS(), depth + 1) &&
		       invariant_amount(c, b->getRHS(), depth + 1);
	return false;
}

/* The step of E when E steps W (`w++`, `w += x`, `w = w - x`): the
 * constant in *CW, or, with *SX set, the expression x (then *CW is its
 * sign); false otherwise.  A variable x (OpenBLAS's `iy += inc_y`) is a
 * side-effect-free integer that converts to W's type without loss. */
static bool step_expr(mp_ctx &c, const VarDecl *w, const Expr *e, int64_t *cw, const Expr **sx)
{
	*sx = nullptr;
	if (is_increment(e, w, cw, c.C))
		return true;
	int sign;
	const Expr *x = incr_operand(e, w, &sign);
	if (!x)
		return false;
	if (!invariant_amount(c, x, 0))
		return false;
	/* (the value as read, X0: a load through a pointer stays a load,
	   which aff_of makes a parameter whose bytes the run-time checks
	   protect; a review helper found `*incy` pointing into y read as
	   unprotected) */
	const Expr *x0 = x;
	x = x->IgnoreParenImpCasts();
	QualType xt = x->getType(), wt = w->getType();
	if (!xt->isIntegerType() || x->HasSideEffects(c.C) || count_defs(x, w) ||
	    c.C.getTypeSize(xt) > c.C.getTypeSize(wt) ||
	    (!xt->isSignedIntegerType() && c.C.getTypeSize(xt) == c.C.getTypeSize(wt)))
		return false;
	*sx = x0;
	*cw = sign;
	return true;
}

/* Whether W, stepped by E, may step beside an iterator: a local of a
 * signed type of 32 to 64 bits, not an iterator itself, stepped by a
 * nonzero constant or a variable amount (step_expr). */
static bool steppable(mp_ctx &c, const VarDecl *w, const Expr *e, int64_t *cw, const Expr **sx)
{
	return w && !c.mem_decl(w) && !w->getType().isVolatileQualified() &&
	       w->getType()->isIntegerType() && w->getType()->isSignedIntegerType() &&
	       c.C.getTypeSize(w->getType()) >= 32 && c.C.getTypeSize(w->getType()) <= 64 &&
	       !c.iter_var.count(const_cast<VarDecl *>(w)) && step_expr(c, w, e, cw, sx) &&
	       (*sx || (*cw != 0 && *cw <= INT32_MAX && *cw >= -INT32_MAX));
}

/* W when E, a part of for loop F's comma increment, steps an integer W
 * beside the loop's iterator (onnx2c's `for (o0 = 0, i0 = -1; o0 < H;
 * o0++, i0 += 1)`): a local of a signed type of 32 to 64 bits, stepped by
 * a constant *CW, set in F's init (*WI: the declaration's initialiser or
 * the assignment) and assigned nowhere else in the nest.  Inside the body
 * W is then W0 + CW*(V - LO) (stepped_ivs); its two assignments are loop
 * control.  Else null. */
static const VarDecl *stepped_var(mp_ctx &c, ForStmt *f, const Expr *e, int64_t *cw,
				  const Expr **sx, const Expr **w0, const Stmt **wi)
{
	const VarDecl *w = assigned_var(e);
	if (!steppable(c, w, e, cw, sx))
		return nullptr;
	*w0 = nullptr;
	*wi = nullptr;
	if (const DeclStmt *ds = dyn_cast_or_null<DeclStmt>(f->getInit())) {
		for (const Decl *d : ds->decls())
			if (d == w && w->getInit())
				*wi = *w0 = w->getInit();
	} else {
		for (Expr *x : parts_of(f).init_extra)
			if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(x->IgnoreParens()))
				if (bo->getOpcode() == BO_Assign && mp_var_of_ref(bo->getLHS()) == w) {
					*w0 = bo->getRHS();
					*wi = x;
				}
	}
	auto d = c.defs.find(w);
	if (!*w0 || d == c.defs.end() || d->second.size() != 2)
		return nullptr;
	const Stmt *a = d->second[0], *b = d->second[1];
	const Stmt *ie = *wi == *w0 ? *w0 : (*wi ? cast<Expr>(*wi)->IgnoreParens() : nullptr);
	const Stmt *se = e->IgnoreParens();
	if (!((a == ie && b == se) || (a == se && b == ie)))
		return nullptr;
	return w;
}

/* A variable stepped at the end of a loop's body (stepped_last). */
struct last_step {
	const VarDecl *w;
	int64_t cw;
	const Expr *sx, *w0, *e;
	const Stmt *wi;
};

/* The integers W stepped at the end of loop F's body (OpenBLAS's generic
 * C kernels: `iy = 0; for (i = 0; i < m; i++) { y[iy] += temp *
 * a_ptr[i]; iy += inc_y; }`, also with `a_ptr += lda;` after the step, as
 * GCC's glue reads them: the body's end and the loop's step are one block;
 * F a for loop or a while loop, its iterator's own step, which its test
 * reads, not one of them):
 * the step a statement of the body followed only by assignments that
 * neither read nor write W nor call anything, no continue of F skipping
 * it; the last statement before F in its block that sets W is its initial
 * value, and in the nest W is assigned there and by the step only; for
 * the annotated loop (TOP), by the step only, the initial value set before
 * the nest. */
static std::vector<last_step> stepped_last(mp_ctx &c, Stmt *f, bool top)
{
	std::vector<last_step> out;
	loop_parts lp = parts_of(f);
	CompoundStmt *b = dyn_cast_or_null<CompoundStmt>(lp.body);
	if (!b || own_continue(b) || !lp.cond)
		return out;
	std::set<const VarDecl *> tested;   /* the iterator (`while (i < M)`) */
	vars_read(lp.cond, tested);
	ArrayRef<Stmt *> all(b->body_begin(), b->size());
	for (size_t q = all.size(); q-- > 0;) {
		/* (what follows a step: plain assignments only) */
		const Expr *e = dyn_cast<Expr>(all[q]);
		const Expr *x = e ? e->IgnoreParens() : nullptr;
		const BinaryOperator *xb = x ? dyn_cast<BinaryOperator>(x) : nullptr;
		const UnaryOperator *xu = x ? dyn_cast<UnaryOperator>(x) : nullptr;
		if (!x || has_call(x) || !((xb && xb->isAssignmentOp()) ||
					   (xu && xu->isIncrementDecrementOp())))
			break;
		const VarDecl *w = assigned_var(e);
		if (!w || tested.count(w))
			continue;
		last_step ls;
		ls.w = w;
		ls.e = e;
		if (!steppable(c, w, e, &ls.cw, &ls.sx))
			continue;
		bool after_ok = true;
		for (size_t r = q + 1; r < all.size(); r++) {
			std::set<const VarDecl *> vs;
			vars_read(all[r], vs);
			after_ok &= !vs.count(w);
		}
		const Stmt *init = after_ok ? prior_init(c, f, w) : nullptr;
		ls.w0 = nullptr;
		if (const DeclStmt *ds = dyn_cast_or_null<DeclStmt>(init)) {
			for (const Decl *d : ds->decls())
				if (d == w)
					ls.w0 = w->getInit();
		} else if (const BinaryOperator *as = dyn_cast_or_null<BinaryOperator>(init)) {
			if (as->getOpcode() == BO_Assign && mp_var_of_ref(as->getLHS()) == w)
				ls.w0 = as->getRHS();
		}
		auto d = c.defs.find(w);
		/* (the annotated loop's: without an initial value found before
		   it, W's value where the nest starts: step_beside) */
		if ((!ls.w0 && !top) || d == c.defs.end())
			continue;
		const Stmt *ie = init && isa<DeclStmt>(init) ? ls.w0 : init;
		const auto &ds = d->second;
		if (top ? !(ds.size() == 1 && ds[0] == e)
			: !(ds.size() == 2 && ((ds[0] == ie && ds[1] == e) ||
					       (ds[0] == e && ds[1] == ie))))
			continue;
		ls.wi = init;
		out.push_back(ls);
	}
	return out;
}

/* W stepped by CW beside loop LID (its iterator from LO, step 1: COUNTS)
 * from W0: its value in the body, W0 + CW*(V - LO), registered for the
 * reads in F's body.  False (failed) when W0 is not affine or reads the
 * loop's iterator. */
static bool step_beside(mp_ctx &c, Stmt *f, int lid, const mp_aff *lo, bool counts,
			const VarDecl *w, int64_t cw, const Expr *sx, const Expr *w0,
			const Expr *e, bool entry)
{
	if (!counts) {
		std::string wn = decl_name(w);   /* (decl_name's buffer is shared) */
		c.fail(e->getExprLoc(), "'%s' is stepped beside loop '%s', which does not "
		       "count up by 1 from its initial value", wn.c_str(),
		       decl_name(c.loop_iter[lid]));
		return false;
	}
	mp_aff a, d;
	std::string wn = decl_name(w);   /* (decl_name's buffer is shared) */
	bool ok = w0 && c.aff_of(w0, &a, 0);
	/* ENTRY (stepped last in the annotated loop), set before the nest to
	   a value not read as affine or not found: W's value where the nest
	   starts, a parameter (as the GCC glue reads it) */
	if (!ok && entry && !c.failed) {
		int pv = c.var_for(const_cast<VarDecl *>(w), MP_VAR_PARAM);
		if (pv >= 0) {
			mp_aff_var(&a, pv);
			ok = true;
		}
	}
	/* W0 naming the loop's iterator (`for (int o = 1, i = o - P;
	   ...)`): o there is LO, not the running iterator (a review
	   found i taken as 2V - LO - P) */
	for (int q = 0; ok && q < a.n; q++)
		for (int x : { a.t[q].v1, a.t[q].v2 })
			if (x >= 0 && x < (int)c.var_decl.size() &&
			    c.var_decl[x] == c.loop_iter[lid]) {
				std::string vn = decl_name(c.loop_iter[lid]);
				c.fail(w0->getExprLoc(), "the initial value of '%s', stepped "
				       "beside loop '%s', reads '%s'", wn.c_str(), vn.c_str(),
				       vn.c_str());
				return false;
			}
	if (!ok) {
		if (!c.failed)
			c.fail((w0 ? w0 : e)->getExprLoc(), "'%s' is stepped beside loop '%s' "
			       "from a value that is not affine", wn.c_str(),
			       decl_name(c.loop_iter[lid]));
		return false;
	}
	/* the step: CW, or CW times SX, a value the nest does not change
	   (parameters only: no iterator of the nest) */
	mp_aff st, t;
	mp_aff_const(&st, cw);
	int its[2 * MP_MAX_TERMS];
	ok = !sx || (c.aff_of(sx, &st, 0) && mp_aff_scale(&st, &st, cw) == 0 &&
		     mp_aff_iters(c.n, &st, its) == 0);
	if (!ok) {
		if (!c.failed)
			c.fail(sx->getExprLoc(), "'%s' is stepped beside loop '%s' by an amount "
			       "that is not a value the nest leaves unchanged", wn.c_str(),
			       decl_name(c.loop_iter[lid]));
		return false;
	}
	/* W0 + ST*(V - LO) */
	mp_aff_var(&t, c.n->loop[lid].iter);
	if (mp_aff_scale(&d, lo, -1) != 0 || mp_aff_add(&t, &t, &d) != 0 ||
	    mp_aff_mul(c.n, &t, &t, &st) != 0 || mp_aff_add(&a, &a, &t) != 0) {
		c.fail(e->getExprLoc(), "the value of '%s', stepped beside loop '%s', is not "
		       "affine", wn.c_str(), decl_name(c.loop_iter[lid]));
		return false;
	}
	c.stepped[w] = { f, parts_of(f).body, a };
	c.skip.insert(e);
	return true;
}

/* Registers loop F's stepped variables (stepped_var, stepped_last) with
 * their values in F's body (loop LID, its iterator from LO, step 1:
 * COUNTS), and skips their increments; their initial values must be
 * affine. */
static bool stepped_ivs(mp_ctx &c, Stmt *f, int lid, const mp_aff *lo, bool counts)
{
	loop_parts lp = parts_of(f);
	for (Expr *e : lp.inc_extra) {
		int64_t cw;
		const Expr *w0, *sx;
		const Stmt *wi;
		const VarDecl *w = stepped_var(c, cast<ForStmt>(f), e, &cw, &sx, &w0, &wi);
		if (w && !step_beside(c, f, lid, lo, counts, w, cw, sx, w0, e, false))
			return false;
	}
	std::vector<last_step> ls = stepped_last(c, f, lid == 0);
	auto pre = c.last_stepped.find(f);
	if (pre != c.last_stepped.end() && pre->second != ls.size()) {
		/* (its initial value was taken as loop control) */
		c.fail(lp.kw, "a variable stepped beside loop '%s' changed its form",
		       decl_name(c.loop_iter[lid]));
		return false;
	}
	for (const last_step &x : ls)
		if (!step_beside(c, f, lid, lo, counts, x.w, x.cw, x.sx, x.w0, x.e, lid == 0))
			return false;
	return true;
}

/* The loops of block CS stepping a variable last in their bodies
 * (stepped_last): their initial values in CS are loop control, not
 * statements of the nest. */
static void skip_last_step_inits(mp_ctx &c, CompoundStmt *cs)
{
	for (Stmt *k : cs->body()) {
		while (AttributedStmt *as = dyn_cast<AttributedStmt>(k))
			k = as->getSubStmt();
		if (!isa<ForStmt>(k) && !isa<WhileStmt>(k))
			continue;
		for (const last_step &x : stepped_last(c, k, false)) {
			const Stmt *f = k;
			c.last_stepped[f]++;
			if (isa<DeclStmt>(x.wi))
				c.skip_decl.insert(x.w);
			else
				c.skip.insert(x.wi);
		}
	}
}

static bool describe_loop(mp_ctx &c, Stmt *l, int parent, int pos, const Stmt *outer_init)
{
	ASTContext &C = c.C;
	loop_parts lp = parts_of(l);
	const Expr *cond = lp.cond;
	SourceLocation lloc = cond ? cond->getExprLoc() : lp.kw;
	if (!cond) {
		c.fail(lloc, "a loop of the nest has no exit condition");
		return false;
	}
	if (lp.is_while && cast<WhileStmt>(l)->getConditionVariable()) {
		c.fail(lloc, "the condition of a loop of the nest declares a variable");
		return false;
	}
	iter_form f;
	const VarDecl *v = find_iter(c, lp, &f);
	/* the one side effect a test may have: stepping its iterator (a
	   volatile read is one for clang: the bound's own message says more) */
	if (cond->HasSideEffects(C) && !only_volatile_reads(cond) &&
	    (!v || !f.cond_step || (f.bound && f.bound->HasSideEffects(C)))) {
		c.fail(lloc, "the condition of a loop of the nest has side effects");
		return false;
	}
	bool holds = true;
	if (!v && !cond->HasSideEffects(C) && cond->EvaluateAsBooleanCondition(holds, C) &&
	    !holds) {
		/* `while (0)`: as the GCC glue reports it (GCC removes the loop) */
		c.fail(lloc, MP_MSG_COND_FALSE);
		return false;
	}
	if (!v) {
		if (const VarDecl *e = stepped_early(c, lp)) {
			c.fail(lloc, "loop variable '%s' is stepped before the end of the loop "
			       "body; step it last", decl_name(e));
			return false;
		}
		c.fail(lloc, "cannot find the induction variable of a loop of the nest "
		       "(expected 'for (v = lo; v < hi; v++)')");
		return false;
	}
	const Expr *bound = f.bound;
	BinaryOperatorKind code = f.code;
	int64_t step = f.step;
	if (lp.inc_in_body && !f.cond_step && own_continue(lp.body)) {
		c.fail(lloc, "a 'continue' skips the increment of %s loop '%s'",
		       lp.is_while ? "while" : "for", v->getName().str().c_str());
		return false;
	}
	/* `for (k = 0; k < K;) { ...; k++; }`, and the annotated while loop
	   (skip_while_parts sees only the loops inside the nest) */
	if (lp.inc_in_body && !f.cond_step)
		c.skip.insert(lp.inc);
	if (!v->getType()->isIntegerType()) {
		c.fail(lloc, "the induction variable '%s' is not an integer", decl_name(v));
		return false;
	}
	if (c.mem_decl(v)) {
		c.fail(lloc, MP_MSG_ITER_IN_MEMORY, decl_name(v));
		return false;
	}
	/* the initial value */
	const VarDecl *clobbered = nullptr;
	const Stmt *init = lp.init ? lp.init : outer_init;
	if (!init)
		init = prior_init(c, l, v, &clobbered);
	if (lp.is_while && init && init != outer_init && !c.skip.count(init) &&
	    !c.skip_decl.count(v))
		init = nullptr;   /* not the one skip_while_parts took */
	if (lp.is_while && !init && parent < 0)
		init = prior_init(c, l, v, &clobbered);   /* the annotated loop: before the pragma */
	const Expr *lo_e = nullptr;
	if (const DeclStmt *ds = dyn_cast_or_null<DeclStmt>(init)) {
		for (const Decl *d : ds->decls())
			if (d == v)
				lo_e = v->getInit();
	} else if (const BinaryOperator *as = dyn_cast_or_null<BinaryOperator>(init)) {
		if (as->getOpcode() == BO_Assign && mp_var_of_ref(as->getLHS()) == v)
			lo_e = as->getRHS();
	}
	/* `for (; k < K; k++)` straight after a loop on k: it continues that
	   loop's iterator (the remainder of an unrolled reduction) */
	int after = -1;
	if (!lo_e && !init && !lp.is_while && parent >= 0)
		after = prev_sibling_loop(c, l, v);
	if (!lo_e && after < 0 && clobbered && !init) {
		std::string vn = decl_name(v);   /* (decl_name's buffer is shared) */
		c.fail(lloc, "the initial value of '%s' reads '%s', which is assigned after it and "
		       "before the loop (the call at the loop would read the new value); set '%s' "
		       "right before the loop", vn.c_str(), decl_name(clobbered), vn.c_str());
		return false;
	}
	if (!lo_e && after < 0) {
		c.fail(lloc, "cannot find the initial value of '%s'", decl_name(v));
		return false;
	}
	int id = (int)c.loops.size();
	VarDecl *vd = const_cast<VarDecl *>(v);
	int iv = c.var_for(vd, MP_VAR_ITER);
	if (iv < 0)
		return false;
	/* read before its loop (`acc = k; for (k = 0; ...)`): the statements
	   described so far took it for a local; it is this loop's iterator */
	if (c.n->var[iv].kind == MP_VAR_LOCAL)
		c.n->var[iv].kind = MP_VAR_ITER;
	/* the iterator of a sibling loop before this one (`int j;` reused):
	   a variable of its own, read from here on */
	else if (c.n->var[iv].kind == MP_VAR_ITER && c.n->var[iv].loop >= 0) {
		int first = c.n->var[iv].same_as >= 0 ? c.n->var[iv].same_as : iv;
		if ((iv = c.var_for(vd, MP_VAR_ITER, true)) < 0)
			return false;
		c.n->var[iv].same_as = first;
	}
	c.iter_var[vd] = iv;
	c.n->var[iv].loop = id;
	mp_aff lo, hi, one, lo2, hi2;
	unsigned clip = 0;
	bool mx;
	mp_aff_const(&lo2, 0);
	mp_aff_const(&hi2, 0);
	if (after >= 0)
		mp_aff_const(&lo, 0);   /* continues `after`: no value of its own */
	else if (!c.aff_of(lo_e, &lo, 0)) {
		/* a window's start, `MAX(0, -base)` (the core rewrites it) */
		if (step > 0 && !f.cond_step && c.minmax_of(lo_e, &lo, &lo2, &mx, 0) && mx) {
			clip |= 1;
		} else {
			c.fail(lloc, "the initial value of '%s' is not affine", decl_name(v));
			return false;
		}
	}
	/* stepped in the test: the body sees init + step first; `n--`
	   compares the value before the step (v op b <=> v_body op b + step) */
	if (f.cond_step)
		lo.cst += step;
	if (!bound)
		mp_aff_const(&hi, 0);
	else if (c.aff_of(bound, &hi, 0))
		;
	else if (step > 0 && !f.cond_step && (code == BO_LT || code == BO_LE) &&
		 c.minmax_of(bound, &hi, &hi2, &mx, 0) && !mx)
		clip |= 2;   /* a window's end, `MIN(K, W - base)` */
	else {
		/* a bound read from memory (a struct member, an array element):
		   say so, and how to get the nest transformed */
		const Expr *be = bound->IgnoreParenImpCasts();
		if (isa<MemberExpr>(be) || isa<ArraySubscriptExpr>(be) ||
		    (isa<UnaryOperator>(be) && cast<UnaryOperator>(be)->getOpcode() == UO_Deref))
			c.fail(lloc, c.opaque_call.empty() ? MP_MSG_BOUND_MEMORY : MP_MSG_BOUND_MEMORY_CALL,
			       decl_name(v), c.opaque_call.c_str());
		else
			c.fail(lloc, "the bound of loop '%s' is not affine in the parameters and outer "
			       "loop variables", decl_name(v));
		return false;
	}
	if (f.cond_step == 1)
		hi.cst += step;
	hi.cst -= f.cmp_off;   /* v + c op n  <=>  v op n - c */
	hi2.cst -= f.cmp_off;
	/* `v == c` from v = c: one iteration whatever the step (GCC's form of
	   `for (unsigned k = 0; k < 1; k += 2)`, which its glue reads so) */
	int64_t c0, c1;
	if (code == BO_EQ && step != 0 && mp_aff_is_const(&lo, &c0) && mp_aff_is_const(&hi, &c1) &&
	    c0 == c1)
		code = step > 0 ? BO_LE : BO_GE;
	bool ne = false;
	if (code == BO_NE && (step == 1 || step == -1)) {
		/* `v != n` ends where `v < n` (counting up) or `v > n` (down)
		   does when v starts on the right side of n (the core decides
		   whether that is known); against the type's maximum or
		   minimum it always does */
		Expr::EvalResult r;
		ne = true;
		if (!bound || bound->EvaluateAsInt(r, C)) {
			unsigned w = C.getIntWidth(v->getType());
			bool u = v->getType()->isUnsignedIntegerType();
			llvm::APSInt b = bound ? r.Val.getInt() : llvm::APSInt::get(0);
			llvm::APSInt ext = step > 0 ? llvm::APSInt::getMaxValue(w, u)
						    : llvm::APSInt::getMinValue(w, u);
			ne = !llvm::APSInt::isSameValue(b, ext);
		}
		code = step > 0 ? BO_LT : BO_GT;
	}
	switch (code) {
	case BO_LT: case BO_GT:
		/* the last value is the bound -1 (up) or +1 (down) */
		mp_aff_const(&one, code == BO_LT ? -1 : 1);
		mp_aff_add(&hi, &hi, &one);
		if (clip & 2)
			mp_aff_add(&hi2, &hi2, &one);
		break;
	case BO_LE: case BO_GE:
		break;
	default:
		c.fail(lloc, "the exit test of loop '%s' must be <, <=, >, >= or !=", decl_name(v));
		return false;
	}
	if ((code == BO_GT || code == BO_GE) != (step < 0)) {
		c.fail(lloc, "loop '%s' has an unusual exit test", decl_name(v));
		return false;
	}
	if (step < 0) {
		/* counting down from lo to the bound: described as the range
		   [bound, first value] with a negative step */
		std::swap(lo, hi);
	}
	if (f.step_var >= 0 && (f.cond_step || ne || (code != BO_LT && code != BO_LE))) {
		c.fail(lloc, "loop '%s' steps by a variable; only `v < n` or `v <= n` tests "
		       "are understood then", decl_name(v));
		return false;
	}
	int lid = mp_nest_add_loop(c.n, iv, parent, pos, &lo, &hi, step);
	if (lid < 0) {
		c.fail(lloc, "the nest is too deep");
		return false;
	}
	c.n->loop[lid].loc = mp_loc_cookie(lloc);
	c.n->loop[lid].ne_exit = ne;
	c.n->loop[lid].after = after;
	c.n->loop[lid].step_var = f.step_var;
	c.n->loop[lid].clip = clip;
	if (clip & 1)
		c.n->loop[lid].lo2 = lo2;
	if (clip & 2)
		c.n->loop[lid].hi2 = hi2;
	c.loops.push_back(l);
	c.loop_iter.push_back(vd);
	if (!stepped_ivs(c, l, lid, &lo, step == 1 && !f.cond_step && after < 0 &&
			 f.step_var < 0 && !clip))
		return false;
	int kpos = 0;
	bool cont = false;
	/* the body's guards are its own (the loop's own condition, if any,
	   is on the loop) */
	unsigned sg = c.g_conds, sc = c.cont_conds;
	bool sgk = c.g_known, sck = c.cont_known;
	c.g_conds = c.cont_conds = 0;
	c.g_known = c.cont_known = true;
	describe_body(c, lp.body, lid, false, &kpos, &cont);
	/* `k++, p++`: p++ runs after the body, a 'continue' included */
	cont = false;
	for (Expr *e : lp.inc_extra)
		describe_body(c, e, lid, false, &kpos, &cont);
	c.g_conds = sg, c.cont_conds = sc;
	c.g_known = sgk, c.cont_known = sck;
	return !c.failed;
}

/* ------------------------------------------------------- statements */

static int new_stmt(mp_ctx &c, mp_stmt_kind k, int lid, bool guarded, int *pos, SourceLocation l)
{
	mp_stmt s;
	memset(&s, 0, sizeof s);
	s.kind = k;
	s.loop = lid;
	s.pos = (*pos)++;
	s.guarded = guarded;
	s.conds = guarded && c.cur_known ? c.cur_conds : 0;
	s.lhs_var = s.lhs_access = s.rhs = -1;
	s.loc = mp_loc_cookie(l.isValid() ? l : c.loop_loc);
	int id = mp_nest_add_stmt(c.n, &s);
	if (id < 0)
		c.fail(c.loop_loc, "the nest has too many statements");
	return id;
}

static void opaque(mp_ctx &c, int lid, bool guarded, int *pos, SourceLocation l, const std::string &why)
{
	int id = new_stmt(c, MP_S_OPAQUE, lid, guarded, pos, l);
	if (id < 0)
		return;
	snprintf(c.n->stmt[id].why, sizeof c.n->stmt[id].why, "%s", why.c_str());
	c.has_opaque = true;
}

/* An opaque part found while translating statement ID's expressions makes
 * the whole statement opaque. */
static void settle(mp_ctx &c, int id)
{
	if (id < 0 || c.stmt_opaque.empty())
		return;
	c.n->stmt[id].kind = MP_S_OPAQUE;
	snprintf(c.n->stmt[id].why, sizeof c.n->stmt[id].why, "%s", c.stmt_opaque.c_str());
	c.has_opaque = true;
}

/* A pointer assignment  V = &ARR[OFF]  (ARR -1: a value mixprec cannot
 * follow; the core then leaves V's accesses alone). */
static void ptr_stmt(mp_ctx &c, VarDecl *v, int arr, const mp_aff *off, int lid, bool guarded,
		     int *pos, SourceLocation l)
{
	int id = new_stmt(c, MP_S_ASSIGN, lid, guarded, pos, l);
	if (id < 0)
		return;
	c.n->stmt[id].lhs_var = c.var_for(v, MP_VAR_LOCAL);
	c.n->stmt[id].ptr_assign = 1;
	c.n->stmt[id].ptr_array = arr;
	if (arr >= 0)
		c.n->stmt[id].ptr_off = *off;
}

/* The steps of walking pointers met inside the statement just described
 * (`sum += *a++ * *b++`): they run after it. */
static void flush_steps(mp_ctx &c, int lid, bool guarded, int *pos, SourceLocation l)
{
	std::vector<std::pair<VarDecl *, int64_t>> steps;
	steps.swap(c.pending_steps);
	for (auto &st : steps) {
		mp_aff off;
		mp_aff_const(&off, st.second);
		ptr_stmt(c, st.first, c.array_for(st.first, false), &off, lid, guarded, pos, l);
	}
}

/* An assignment to walking pointer V (c.walking): `p = q + i*K`, `p += ld`,
 * `p++` as a statement. */
static void walk_assign(mp_ctx &c, const Expr *whole, VarDecl *v, int lid, bool guarded, int *pos)
{
	const Expr *e = whole->IgnoreParens();
	int arr = -1;
	mp_aff off, amt;
	mp_aff_const(&off, 0);
	int64_t sz = c.pointee_size(v->getType());
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e)) {
		arr = sz > 0 ? c.array_for(v, false) : -1;
		mp_aff_const(&off, u->isIncrementOp() ? sz : -sz);
	} else if (const CompoundAssignOperator *ca = dyn_cast<CompoundAssignOperator>(e)) {
		if (sz > 0 && (ca->getOpcode() == BO_AddAssign || ca->getOpcode() == BO_SubAssign) &&
		    c.aff_of(ca->getRHS(), &amt, 0) &&
		    mp_aff_scale(&off, &amt, ca->getOpcode() == BO_AddAssign ? sz : -sz) == 0)
			arr = c.array_for(v, false);
	} else if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e)) {
		if (!c.ptr_of(bo->getRHS(), &arr, &off, 0))
			arr = -1;
	}
	ptr_stmt(c, v, arr, &off, lid, guarded, pos, whole->getExprLoc());
}

/* LHS (op)= VALUE, where VALUE is the expression id of the new value. */
static void assign(mp_ctx &c, const Expr *whole, const Expr *lhs, int lid, bool guarded, int *pos,
		   const std::function<int(int)> &value)
{
	const VarDecl *v = mp_var_of_ref(lhs);
	if (v && c.walking(v)) {
		walk_assign(c, whole, const_cast<VarDecl *>(v), lid, guarded, pos);
		return;
	}
	if (v && !c.mem_decl(v) && !v->getType().isVolatileQualified()) {
		VarDecl *vd = const_cast<VarDecl *>(v);
		if (c.iter_var.count(vd)) {
			opaque(c, lid, guarded, pos, whole->getExprLoc(),
			       std::string("loop variable '") + decl_name(v) + "' is assigned in the loop body");
			return;
		}
		int id = new_stmt(c, MP_S_ASSIGN, lid, guarded, pos, whole->getExprLoc());
		if (id < 0)
			return;
		c.stmt_opaque.clear();
		c.n->stmt[id].lhs_var = c.var_for(vd, MP_VAR_LOCAL);
		c.n->stmt[id].rhs = value(id);
		settle(c, id);
		return;
	}
	int id = new_stmt(c, MP_S_STORE, lid, guarded, pos, whole->getExprLoc());
	if (id < 0)
		return;
	c.stmt_opaque.clear();
	int a = c.access_for(lhs, true, id);
	if (a == -2) {
		c.n->stmt[id].kind = MP_S_OPAQUE;
		snprintf(c.n->stmt[id].why, sizeof c.n->stmt[id].why, "a store through an unknown address");
		c.has_opaque = true;
		return;
	}
	c.n->stmt[id].lhs_access = a;
	c.n->stmt[id].rhs = value(id);
	settle(c, id);
}

static mp_expr_kind arith_kind(BinaryOperatorKind k)
{
	switch (k) {
	case BO_AddAssign: case BO_Add: return MP_X_ADD;
	case BO_SubAssign: case BO_Sub: return MP_X_SUB;
	case BO_MulAssign: case BO_Mul: return MP_X_MUL;
	default: return MP_X_OTHER;
	}
}

/* E converted from type FROM to type TO (no node when the core would not
 * see a difference). */
static int convert(mp_ctx &c, int e, QualType from, QualType to)
{
	mp_scalar f = mp_scalar_of_type(c.C, from), t = mp_scalar_of_type(c.C, to);
	if (e < 0 || (f == t && t != MP_TY_OTHER))
		return e;
	return c.add_expr(MP_X_CAST, t, e, -1);
}

static void describe_expr_stmt(mp_ctx &c, const Expr *e, int lid, bool guarded, int *pos)
{
	e = e->IgnoreParens();
	ASTContext &C = c.C;
	if (const CompoundAssignOperator *ca = dyn_cast<CompoundAssignOperator>(e)) {
		const Expr *lhs = ca->getLHS();
		assign(c, e, lhs, lid, guarded, pos, [&](int id) {
			QualType ct = ca->getComputationLHSType(), rt = ca->getComputationResultType();
			int old = convert(c, c.rvalue_of(lhs, id, 0), lhs->getType(), ct);
			mp_expr_kind k = lhs->getType()->isPointerType() ? MP_X_OTHER : arith_kind(ca->getOpcode());
			const Expr *re = ca->getRHS();
			const UnaryOperator *neg = dyn_cast<UnaryOperator>(re->IgnoreParens());
			if (k == MP_X_SUB && neg && neg->getOpcode() == UO_Minus &&
			    neg->getType() == re->getType()) {
				k = MP_X_ADD;   /* s -= -x is s += x (GCC's front end folds it) */
				re = neg->getSubExpr();
			}
			int rhs = c.expr_of(re, id, 0);
			int r = c.add_expr(k, mp_scalar_of_type(C, rt), old, rhs);
			if (r >= 0 && k == MP_X_OTHER)
				snprintf(c.n->expr[r].op, sizeof c.n->expr[r].op, "%s",
					 BinaryOperator::getOpcodeStr(ca->getOpcode()).data());
			return convert(c, r, rt, lhs->getType());
		});
		return;
	}
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e)) {
		if (bo->getOpcode() == BO_Assign) {
			assign(c, e, bo->getLHS(), lid, guarded, pos,
			       [&](int id) { return c.expr_of(bo->getRHS(), id, 0); });
			return;
		}
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e)) {
		if (u->isIncrementDecrementOp()) {
			const Expr *lhs = u->getSubExpr();
			assign(c, e, lhs, lid, guarded, pos, [&](int id) {
				QualType t = lhs->getType();
				if (t->isPointerType()) {
					int r = c.add_expr(MP_X_OTHER, MP_TY_PTR, c.rvalue_of(lhs, id, 0), -1);
					if (r >= 0)
						snprintf(c.n->expr[r].op, sizeof c.n->expr[r].op, "++");
					return r;
				}
				QualType pt = mpc::is_promotable_int(C, t) ? C.getPromotedIntegerType(t) : t;
				int old = convert(c, c.rvalue_of(lhs, id, 0), t, pt);
				int one = c.add_expr(MP_X_CONST, mp_scalar_of_type(C, pt), -1, -1);
				if (one >= 0) {
					if (pt->isRealFloatingType())
						c.n->expr[one].fcst = 1.0;
					else
						c.n->expr[one].cst = 1;
				}
				int r = c.add_expr(u->isIncrementOp() ? MP_X_ADD : MP_X_SUB,
						   mp_scalar_of_type(C, pt), old, one);
				return convert(c, r, pt, t);
			});
			return;
		}
	}
	if (const CallExpr *call = dyn_cast<CallExpr>(e->IgnoreImpCasts())) {
		if (!mp_harmless_call(call))
			opaque(c, lid, guarded, pos, e->getExprLoc(), mp_call_effects(call));
		return;
	}
	if (e->HasSideEffects(C))
		opaque(c, lid, guarded, pos, e->getExprLoc(), "an expression statement with side effects");
}

/* Where control falls through S to what follows it in a loop body, S's
 * own continues skipping the rest: a conjunction of conditions (*BITS),
 * or *NEVER where S always continues.  `if (a) continue; else if (b)
 * continue;` falls through where !a && !b, `if (in) {} else continue;`
 * where in.  False where that is not a conjunction the core can read
 * (`if (a) { if (b) continue; }` falls through where !a || !b; a continue
 * in a switch).  The clang plugins took a guard in an else branch for an
 * unknown condition and refused the nests GCC, reading its control flow
 * graph, transformed. */
static bool fall_through(mp_ctx &c, const Stmt *s, unsigned *bits, bool *never, int depth)
{
	*bits = 0;
	*never = false;
	if (!s || !own_continue(s))
		return true;
	if (depth > 40)
		return false;
	if (isa<ContinueStmt>(s)) {
		*never = true;
		return true;
	}
	if (const LabelStmt *ls = dyn_cast<LabelStmt>(s))
		return fall_through(c, ls->getSubStmt(), bits, never, depth + 1);
	if (const AttributedStmt *as = dyn_cast<AttributedStmt>(s))
		return fall_through(c, as->getSubStmt(), bits, never, depth + 1);
	if (const StmtExpr *se = dyn_cast<StmtExpr>(s))
		return fall_through(c, se->getSubStmt(), bits, never, depth + 1);
	if (const CompoundStmt *cs = dyn_cast<CompoundStmt>(s)) {
		for (const Stmt *k : cs->body()) {
			unsigned b;
			if (!fall_through(c, k, &b, never, depth + 1))
				return false;
			*bits |= b;
			if (*never)
				return true;
		}
		return true;
	}
	const IfStmt *is = dyn_cast<IfStmt>(s);
	if (!is || is->getInit() || is->getConditionVariable() ||
	    is->getCond()->HasSideEffects(c.C))
		return false;
	if (false_by_range(c.C, is->getCond()))
		return fall_through(c, is->getElse(), bits, never, depth + 1);
	unsigned tb, eb;
	bool tn, en;
	if (!fall_through(c, is->getThen(), &tb, &tn, depth + 1) ||
	    !fall_through(c, is->getElse(), &eb, &en, depth + 1))
		return false;
	if (tn && en) {
		*never = true;
		return true;
	}
	if (!tn && !en)
		return false;   /* both branches go on, one under a condition */
	/* one branch always continues: the other's condition and its own */
	if (!c.conds_of(is->getCond(), tn, bits, 0))
		return false;
	*bits |= tn ? eb : tb;
	return true;
}

/* Does S hold a label or a switch case (a way into it from elsewhere)? */
static bool entered(const Stmt *s)
{
	if (!s)
		return false;
	if (isa<LabelStmt>(s) || isa<SwitchCase>(s))
		return true;
	for (const Stmt *k : s->children())
		if (entered(k))
			return true;
	return false;
}

static void describe_body(mp_ctx &c, Stmt *s, int lid, bool guarded, int *pos, bool *cont)
{
	if (!s || c.failed)
		return;
	bool g = guarded || *cont;
	/* the current statement's guard, as far as it could be read */
	c.cur_conds = (guarded ? c.g_conds : 0) | (*cont ? c.cont_conds : 0);
	c.cur_known = (!guarded || c.g_known) && (!*cont || c.cont_known);
	if (CompoundStmt *cs = dyn_cast<CompoundStmt>(s)) {
		skip_while_parts(c, cs);
		skip_last_step_inits(c, cs);
		/* a loop body (the continue goes to its loop's next iteration) */
		auto up = c.parent->find(cs);
		bool body = up != c.parent->end() &&
			    (isa<ForStmt>(up->second) || isa<WhileStmt>(up->second));
		ArrayRef<Stmt *> all(cs->body_begin(), cs->size());
		for (size_t q = 0; q < all.size(); q++) {
			IfStmt *is = dyn_cast<IfStmt>(all[q]);
			int zv;
			ForStmt *f;
			unsigned unused = 0;
			if (is && body && !guarded && !*cont && !c.skip.count(is) &&
			    isa<ContinueStmt>(single(is->getThen())) && !is->getElse() &&
			    !is->getCond()->HasSideEffects(c.C) &&
			    /* not padding read as affine: `if (!inside) continue;` */
			    !c.conds_of(is->getCond(), true, &unused, 0) &&
			    (f = zero_guarded(c, is, all.slice(q + 1), &zv))) {
				/* `if (t == 0) continue; for ...`: the loop as if
				   under `if (t != 0)` */
				int id = c.n->nloops;
				describe_body(c, f, lid, guarded, pos, cont);
				if (id < c.n->nloops)
					c.n->loop[id].zguard = zv;
				return;
			}
			describe_body(c, all[q], lid, guarded, pos, cont);
			/* after a continue, what no label or case enters never
			   runs (GCC's control flow graph drops it) */
			if (isa<ContinueStmt>(all[q]) &&
			    std::none_of(all.begin() + q + 1, all.end(),
					 [](const Stmt *x) { return entered(x); }))
				break;
		}
		return;
	}
	if (isa<NullStmt>(s) || c.skip.count(s))
		return;
	/* a label no goto names (find_exit refused the others) */
	if (LabelStmt *ls = dyn_cast<LabelStmt>(s)) {
		describe_body(c, ls->getSubStmt(), lid, guarded, pos, cont);
		return;
	}
	/* a loop under '#pragma GCC unroll' / '#pragma clang loop': the hint
	   is an attribute around the loop, which stays a loop of the nest */
	if (AttributedStmt *as = dyn_cast<AttributedStmt>(s)) {
		describe_body(c, as->getSubStmt(), lid, guarded, pos, cont);
		return;
	}
	if (ForStmt *f = dyn_cast<ForStmt>(s)) {
		if (c.annotated && c.annotated->count(f))   /* as the GCC glue's marker call */
			opaque(c, lid, g, pos, f->getForLoc(), "it contains another '#pragma mixprec' nest");
		/* a loop under a condition the core may take as padding (a
		   window loop after `if (...) continue;`): its condition */
		unsigned lc = c.cur_conds;
		if (g && (!c.cur_known || !lc)) {
			c.fail(f->getForLoc(), "a loop of the nest runs under a condition");
			return;
		}
		/* `for (k = 0, p = a; ...)`: p = a runs before the loop (not
		   the initial value of a variable stepped beside the iterator:
		   loop control, stepped_ivs) */
		loop_parts fp = parts_of(f);
		for (Expr *e : fp.inc_extra) {
			int64_t cw;
			const Expr *w0, *sx;
			const Stmt *wi;
			if (stepped_var(c, f, e, &cw, &sx, &w0, &wi) && wi != w0)
				c.skip.insert(wi);
		}
		for (Expr *e : fp.init_extra)
			describe_body(c, e, lid, g, pos, cont);
		int id = c.n->nloops;
		describe_loop(c, f, lid, (*pos)++, nullptr);
		if (g && id < c.n->nloops)
			c.n->loop[id].conds = lc;
		return;
	}
	if (WhileStmt *w = dyn_cast<WhileStmt>(s)) {
		if (g) {
			c.fail(w->getWhileLoc(), "a loop of the nest runs under a condition");
			return;
		}
		describe_loop(c, w, lid, (*pos)++, nullptr);
		return;
	}
	if (isa<DoStmt>(s)) {
		c.fail(s->getBeginLoc(), "cannot find the induction variable of a loop of the nest "
		       "(expected 'for (v = lo; v < hi; v++)')");
		return;
	}
	if (IfStmt *is = dyn_cast<IfStmt>(s)) {
		if (is->getInit() || is->getConditionVariable() || is->getCond()->HasSideEffects(c.C))
			opaque(c, lid, g, pos, is->getIfLoc(), "the condition of an 'if' has side effects");
		else if (false_by_range(c.C, is->getCond())) {
			/* `if (u8 == -1) continue;`: never true (GCC's front end
			   folds it away: the same nest under both) */
			if (is->getElse())
				describe_body(c, is->getElse(), lid, g, pos, cont);
			return;
		}
		/* each branch's guard: the enclosing ones and the condition
		   (negated for the else branch) */
		unsigned sg = c.g_conds, base = c.cur_conds, then_c = 0, else_c = 0;
		bool sk = c.g_known, base_k = c.cur_known;
		const Expr *ce = is->getCond();
		bool then_ok = c.conds_of(ce, false, &then_c, 0);
		bool else_ok = c.conds_of(ce, true, &else_c, 0);
		/* `if (t != 0) for (...) C[i][j] += t * b;` (netlib's and GSL's
		   zero-skip guard): the loop, described unguarded, carries the
		   variable; the core checks the loop adds products of it */
		int zv;
		/* not a condition read as affine (`if (inside)`, inside = ih >= 0
		   && ih < H: padding, TFLite's depthwise reference) */
		std::vector<Stmt *> zpre;
		std::string zsrc;
		std::set<const Stmt *> zdef;
		ForStmt *zf = then_ok || else_ok ? nullptr
						 : zero_guarded(c, is, ArrayRef<Stmt *>(), &zv, &zpre,
								&zsrc, &zdef);
		if (zf) {
			/* the assignments before the loop: under the guard's
			   condition, which is not read */
			sg = c.g_conds, sk = c.g_known;
			c.g_known = false;
			/* (the local set from an element under its guard:
			   unguarded, as the core drops the guard or refuses) */
			for (Stmt *q : zpre)
				describe_body(c, q, lid, zsrc.empty() || !zdef.count(q) ? true : guarded,
					      pos, cont);
			c.g_conds = sg, c.g_known = sk;
			int id = c.n->nloops;
			describe_body(c, zf, lid, guarded, pos, cont);
			if (id < c.n->nloops) {
				c.n->loop[id].zguard = zv;
				snprintf(c.n->loop[id].zguard_src, sizeof c.n->loop[id].zguard_src,
					 "%s", zsrc.c_str());
			}
			return;
		}
		/* the branches' own continues (BASE holds those before the if:
		   a statement in a branch runs under them through g_conds) */
		bool cont_then = false, cont_else = false;
		unsigned cc = c.cont_conds;
		bool ck = c.cont_known;
		c.g_conds = base | then_c;
		c.g_known = base_k && then_ok;
		describe_body(c, is->getThen(), lid, true, pos, &cont_then);
		/* the else branch: not under the then branch's continues */
		c.cont_conds = cc;
		c.cont_known = ck;
		c.g_conds = base | else_c;
		c.g_known = base_k && else_ok;
		describe_body(c, is->getElse(), lid, true, pos, &cont_else);
		c.g_conds = sg, c.g_known = sk;
		bool cont_in = cont_then || cont_else;
		/* `if (C) continue;`: what follows in the body runs where !C
		   (and where the guards around the if hold, or it never got
		   there: the same), and where every earlier `if (C') continue;`
		   was false: each adds its condition (the second of
		   `if (ii < 0) continue; if (ii >= N) continue;` was dropped,
		   and its terms added: found by a helper on onnx2c's
		   convolutions).  In general, where the if falls through (the
		   branches' continues made the guard unknown for the rest of
		   their own statements only).  An if inside a branch: the
		   branch's statements after it run where it falls through too
		   (`if (a) continue; else { if (b) continue; S; }`: S where !a
		   && !b; the outermost if's fall-through then covers what
		   follows it) */
		if (cont_in) {
			unsigned ft;
			bool never;
			c.cont_conds = cc;
			c.cont_known = ck;
			if (fall_through(c, is, &ft, &never, 0) && !never)
				c.cont_conds |= ft;
			else
				c.cont_known = false;
			*cont = true;
		}
		return;
	}
	if (isa<ContinueStmt>(s)) {
		/* a continue not of the `if (C) continue;` form: what follows
		   runs under a condition that was not read.  In a branch, what
		   follows it there never runs (an if restores the state for
		   its other branch and what follows it): `if (ii < 0) {
		   continue; s += ...; }` was read as an update where ii < 0,
		   a wrong result under clang (GCC drops the dead code) */
		c.cont_known = false;
		*cont = true;
		return;
	}
	if (DeclStmt *ds = dyn_cast<DeclStmt>(s)) {
		for (Decl *d : ds->decls()) {
			VarDecl *v = dyn_cast<VarDecl>(d);
			if (!v)
				continue;
			/* __attribute__((cleanup(fn))): a call at the end of each
			   iteration's scope, which the rewrite would drop (found by
			   a review helper); GCC sees the call and refuses it too */
			if (const CleanupAttr *ca = v->getAttr<CleanupAttr>()) {
				const FunctionDecl *fd = ca->getFunctionDecl();
				c.fail(v->getLocation(), "call to '%s' may have side effects "
				       "(the cleanup function of '%s')",
				       fd ? fd->getNameAsString().c_str() : "?",
				       v->getNameAsString().c_str());
				return;
			}
			/* a fixed-size array of scalars without an initializer (the
			   accumulators of an unrolled block, llm.c's matmul): memory
			   of the nest, as under GCC, whose accesses name it */
			/* (also one whose length is a constant after all,
			   `const int U = 8; float acc[U];`: llm.c's own form) */
			if (const ArrayType *at = c.C.getAsArrayType(v->getType()))
				if ((isa<ConstantArrayType>(at) || c.const_vla_length(v->getType()) > 0) &&
				    !v->getInit() && !v->isStaticLocal() &&
				    at->getElementType()->isScalarType() &&
				    !v->getType().isVolatileQualified())
					continue;
			if (v->getType()->isVariableArrayType()) {
				opaque(c, lid, g, pos, v->getLocation(),
				       std::string("'") + decl_name(v) + "' is a variable-length array "
				       "declared inside the nest (give it a constant size)");
				continue;
			}
			if (v->getType()->isArrayType() || v->getType()->isRecordType() || v->isStaticLocal()) {
				opaque(c, lid, g, pos, v->getLocation(),
				       std::string("'") + decl_name(v) + "' is declared inside the nest "
				       "as an array, a struct or a static variable");
				continue;
			}
			if (!v->getInit() || c.skip_decl.count(v))
				continue;
			if (c.walking(v)) {
				/* `const int8_t *p = lhs;` then p++: the reset */
				int arr = -1;
				mp_aff off;
				mp_aff_const(&off, 0);
				if (!c.ptr_of(v->getInit(), &arr, &off, 0))
					arr = -1;
				ptr_stmt(c, v, arr, &off, lid, g, pos, v->getLocation());
				flush_steps(c, lid, g, pos, v->getLocation());
				continue;
			}
			int id = new_stmt(c, MP_S_ASSIGN, lid, g, pos, v->getLocation());
			if (id < 0)
				return;
			c.stmt_opaque.clear();
			c.n->stmt[id].lhs_var = c.var_for(v, MP_VAR_LOCAL);
			c.n->stmt[id].rhs = c.expr_of(v->getInit(), id, 0);
			settle(c, id);
			flush_steps(c, lid, g, pos, v->getLocation());
		}
		return;
	}
	/* `({ if (ii < 0) continue; 0; });` standing as a statement: its
	   statements (its value unused), as GCC's GIMPLE has them */
	if (StmtExpr *se = dyn_cast<StmtExpr>(s)) {
		describe_body(c, se->getSubStmt(), lid, guarded, pos, cont);
		return;
	}
	if (Expr *e = dyn_cast<Expr>(s)) {
		describe_expr_stmt(c, e, lid, g, pos);
		flush_steps(c, lid, g, pos, e->getExprLoc());
		return;
	}
	if (isa<AsmStmt>(s)) {
		opaque(c, lid, g, pos, s->getBeginLoc(), "inline assembly");
		return;
	}
	if (SwitchStmt *sw = dyn_cast<SwitchStmt>(s)) {
		/* as GCC's GIMPLE_SWITCH: the cases are statements under a condition */
		if (sw->getInit() || sw->getConditionVariable() || sw->getCond()->HasSideEffects(c.C))
			opaque(c, lid, g, pos, sw->getSwitchLoc(), "the condition of a 'switch' has side effects");
		/* its cases run under conditions not read here, and a continue
		   in one leaves what follows the switch under such a condition
		   too (`switch (ii >= N) { case 1: continue; }` was read as no
		   guard, its terms added: found by a review helper) */
		unsigned sg = c.g_conds;
		bool sk = c.g_known, cont_in = false;
		c.g_conds = c.cur_conds;
		c.g_known = false;
		describe_body(c, sw->getBody(), lid, true, pos, &cont_in);
		c.g_conds = sg, c.g_known = sk;
		if (cont_in) {
			c.cont_known = false;
			*cont = true;
		}
		return;
	}
	if (SwitchCase *sc = dyn_cast<SwitchCase>(s)) {
		describe_body(c, sc->getSubStmt(), lid, true, pos, cont);
		return;
	}
	if (isa<BreakStmt>(s))
		return;   /* inside a switch (other breaks were refused before) */
	opaque(c, lid, g, pos, s->getBeginLoc(), std::string("a '") + s->getStmtClassName() + "' statement");
}

/* Reads of the nest's iterators and locals outside the nest. */
/* The variables D's private and firstprivate clauses name. */
static std::vector<const VarDecl *> omp_private_vars(const OMPExecutableDirective *d)
{
	std::vector<const VarDecl *> r;
	for (const OMPClause *cl : d->clauses()) {
		if (const OMPPrivateClause *pc = dyn_cast_or_null<OMPPrivateClause>(cl))
			for (const Expr *e : pc->varlists())
				if (const VarDecl *v = mp_var_of_ref(e))
					r.push_back(v);
		if (const OMPFirstprivateClause *pc = dyn_cast_or_null<OMPFirstprivateClause>(cl))
			for (const Expr *e : pc->varlists())
				if (const VarDecl *v = mp_var_of_ref(e))
					r.push_back(v);
	}
	return r;
}

/* The loop a collapse clause takes next: BODY through blocks of one
 * statement and attributes, or null when that is not a for loop. */
static const ForStmt *collapsed_child(const Stmt *body)
{
	while (const CompoundStmt *cs = dyn_cast_or_null<CompoundStmt>(body))
		body = cs->size() == 1 ? cs->body_front() : nullptr;
	while (const AttributedStmt *as = dyn_cast_or_null<AttributedStmt>(body))
		body = as->getSubStmt();
	return dyn_cast_or_null<ForStmt>(body);
}

static void mark_used_after(mp_ctx &c, const Stmt *s)
{
	if (!s || s == c.top || s == c.top_init)
		return;
	/* an OpenMP region: its body (the children are the captures) */
	if (const CapturedStmt *cs = dyn_cast<CapturedStmt>(s)) {
		mark_used_after(c, cs->getCapturedStmt());
		return;
	}
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(s))
		if (bo->getOpcode() == BO_Assign && mp_var_of_ref(bo->getLHS())) {
			mark_used_after(c, bo->getRHS());
			return;
		}
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(s))
		if (const VarDecl *v = dyn_cast<VarDecl>(r->getDecl())) {
			/* a variable stepped beside an iterator (stepped_ivs):
			   its value after the nest is not kept */
			if (c.stepped.count(v) && !c.failed)
				c.fail(c.loop_loc, "'%s' is stepped beside a loop of the nest and "
				       "read after the nest", decl_name(v));
			/* every variable of the decl (sibling loops sharing it) */
			for (int w = 0; w < c.n->nvars && w < (int)c.var_decl.size(); w++)
				if (c.var_decl[w] == v && c.n->var[w].kind != MP_VAR_PARAM)
					c.n->var[w].used_after = 1;
		}
	for (const Stmt *k : s->children())
		mark_used_after(c, k);
}

/* Scalars of the function whose address is taken (`&K` anywhere in it). */
static void find_addr_taken(mp_ctx &c, const Stmt *s)
{
	if (!s)
		return;
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(s))
		if (u->getOpcode() == UO_AddrOf)
			if (const VarDecl *v = mp_var_of_ref(u->getSubExpr()))
				if (!v->hasGlobalStorage())
					c.addr_taken.insert(v);
	for (const Stmt *k : s->children())
		find_addr_taken(c, k);
}

/* The iterators of the loops around the nest (for the core's hint that
 * the pragma could stand on one of them). */
static void find_outer_iters(mp_ctx &c)
{
	for (auto it = c.parent->find(c.top); it != c.parent->end(); it = c.parent->find(it->second)) {
		Stmt *p = it->second;
		if (!isa<ForStmt>(p) && !isa<WhileStmt>(p))
			continue;
		iter_form f;
		if (const VarDecl *v = find_iter(c, parts_of(p), &f))
			c.outer_iters.insert(v);
	}
}

bool mp_build_nest(mp_ctx &c)
{
	find_addr_taken(c, c.fn->getBody());
	find_outer_iters(c);
	prescan(c, c.top);
	if (const Stmt *x = find_exit(parts_of(c.top).body, 0)) {
		if (isa<LabelStmt>(x))
			c.fail(x->getBeginLoc(), "a label inside the nest (the target of a goto) "
			       "makes it irreducible");
		else if (isa<CaseStmt>(x) || isa<DefaultStmt>(x))
			c.fail(x->getBeginLoc(), "a case label inside the nest (a switch around "
			       "it jumps into the nest) makes it irreducible");
		else if (isa<ContinueStmt>(x))
			c.fail(x->getBeginLoc(), "a 'continue' inside a statement expression "
			       "('({ ... })') is not supported");
		else
			c.fail(x->getBeginLoc(), "a loop of the nest has more than one exit "
			       "(break, return or goto)");
		return false;
	}
	if (!describe_loop(c, c.top, -1, 0, c.top_init))
		return false;
	/* under an OpenMP loop directive the iterators and the private
	   variables the nest writes are the threads' own copies: the
	   construct leaves the originals as they were (and a shared scalar
	   written by every thread is a race of the program) */
	mark_used_after(c, c.fn->getBody());
	if (c.omp) {
		/* the threads' own variables: the clauses' private ones and the
		   iterators of the loops a parallel for distributes; a simd
		   loop's are linear (lastprivate when collapsed), left with
		   their final values as are the shared ones */
		std::vector<const VarDecl *> pv =
			omp_private_vars(cast<OMPExecutableDirective>(c.omp));
		std::set<const VarDecl *> own(pv.begin(), pv.end());
		if (!isa<OMPSimdDirective>(c.omp) && !isa<OMPParallelForSimdDirective>(c.omp)) {
			int nl = isa<OMPLoopDirective>(c.omp)
				 ? (int)cast<OMPLoopDirective>(c.omp)->getLoopsNumber() : 1;
			const ForStmt *l = dyn_cast<ForStmt>(c.top);
			for (int d = 0; d < nl && l; d++) {
				iter_form f;
				if (const VarDecl *v = find_iter(c, parts_of(const_cast<ForStmt *>(l)), &f))
					own.insert(v);
				l = collapsed_child(l->getBody());
			}
		}
		for (int w = 0; w < c.n->nvars && w < (int)c.var_decl.size(); w++)
			if (c.var_decl[w] && own.count(c.var_decl[w]))
				c.n->var[w].used_after = 0;
	}
	/* a variable in memory read only inside a derived value (`k < K /
	   2`, K's address taken): a parameter of its own (the rewrite marks
	   it in memory), so that the run-time checks protect its bytes as
	   they protect a bound read directly (the nest may write it through
	   a pointer: the kernels would run with its value at entry) */
	if (!c.failed)
		for (VarDecl *d : c.protected_decls)
			if (!c.var_of.count(d) && c.var_for(d, MP_VAR_PARAM) < 0)
				return false;
	return !c.failed;
}

/* ------------------------------------------------------------ driver */

static void report(const mp_pragma_rec &r, SourceLocation loop_loc, const char *reason,
		   SourceLocation at, bool is_error = false)
{
	if (is_error) {
		/* the pragma's tokens carry location cookies (plugin.cc) */
		mp_error(at.isValid() ? at : r.pragma_loc, reason);
		return;
	}
	mp_warning(loop_loc, std::string("mixprec: loop nest not transformed: ") + reason);
	SourceManager &SM = mp_sema->getSourceManager();
	if (at.isValid() && SM.getExpansionLineNumber(at) != SM.getExpansionLineNumber(loop_loc))
		mp_note(at, "the reason is here");
	mp_report_missed(loop_loc, reason, at);
}

/* Describes, plans and rewrites the nest of loop F for pragma R.  When the
 * core finds the contraction three loops deep inside loops that only index
 * the output (mp_plan.descend), returns that inner loop for the caller to
 * plan instead (NOTE then says what stays as written); else reports and
 * returns nullptr. */
static Stmt *process_nest(ASTContext &C, Sema &S, FunctionDecl *fd, parent_map &pm,
			  const std::map<const Stmt *, size_t> &annotated, mp_pragma_rec &r, Stmt *f,
			  Stmt *init, SourceLocation kw, std::string &note, Stmt *omp, Expr *omp_threads,
			  Expr *omp_if)
{
	Stmt *inner = nullptr;
	if ((r.p.target == MP_TARGET_AVXVNNI || r.p.target == MP_TARGET_AVX512BF16) &&
	    (r.p.prec == MP_PREC_INT8 || r.p.prec == MP_PREC_UINT8)) {
		/* as plugin-gcc/nest.cc: no kernels for these families yet */
		char why[160];
		snprintf(why, sizeof why, "target=%s has no 8-bit integer kernels in this version "
			 "(available: auto, scalar, avx2, avx512vnni, dotprod, i8mm)", mp_target_name(r.p.target));
		report(r, kw, why, SourceLocation());
		return nullptr;
	}
	mp_ctx c(C, S);
	c.fn = fd;
	c.top = f;
	c.top_init = init;
	c.pr = &r;
	c.loop_loc = kw;
	c.parent = &pm;
	c.annotated = &annotated;
	c.omp = omp;
	c.omp_threads = omp_threads;
	c.omp_if = omp_if;
	/* the region the rewrite's code lands in: around the nest, or around
	   the OpenMP directive on it (the call goes before the directive) */
	Stmt *from = omp ? omp : f;
	for (Stmt *p = pm.count(from) ? pm[from] : nullptr; p && !c.captured;
	     p = pm.count(p) ? pm[p] : nullptr)
		c.captured = dyn_cast<CapturedStmt>(p);
	c.n = (mp_nest *)calloc(1, sizeof(mp_nest));
	const int maxc = 4;   /* contractions planned together (rows unrolled) */
	mp_plan *plan = (mp_plan *)calloc(maxc, sizeof(mp_plan));
	int count = 0;
	mp_nest_init(c.n);

	/* rewrite.cc emits __mixprec_lp_nest for floating-point sources */
	r.p.lp_capable = 1;
	/* -fplugin-arg-mixprec-verify: the verify clause on every nest (only
	   floating-point nests have a verify mode) */
	if (mp_opt_verify)
		r.p.verify = 1;
	std::string auto_where;   /* lives until the analysis is done */
	if (r.p.prec == MP_PREC_AUTO) {
		/* the runtime profile's key: rewrite.cc's MP_ARG_LOC string */
		SourceManager &SM = C.getSourceManager();
		PresumedLoc pl = SM.getPresumedLoc(SM.getExpansionLoc(c.loop_loc));
		auto_where = pl.isInvalid() ? std::string("?")
					    : std::string(pl.getFilename()) + ":" +
						      std::to_string(pl.getLine());
		r.p.auto_where = auto_where.c_str();
		r.p.auto_profile = mp_opt_profile_use.empty() ? nullptr : mp_opt_profile_use.c_str();
	}
	bool built = mp_build_nest(c);
	if (mp_opt_dump) {
		size_t len = 1 << 16;
		char *buf = (char *)malloc(len);
		mp_nest_print(c.n, buf, len);
		PresumedLoc pl = C.getSourceManager().getPresumedLoc(c.loop_loc);
		fprintf(mp_dump_fp, "mixprec: nest at %s:%u%s%s\n%s", pl.isValid() ? pl.getFilename() : "?",
			pl.isValid() ? pl.getLine() : 0, built ? "" : " (incomplete: ",
			built ? "" : (c.fail_text + ")").c_str(), buf);
		free(buf);
	}
	if (built) {
		count = mp_analyze_all(c.n, &r.p, plan, maxc);
		/* the loops the core folded into the loop before them leave
		   our list as they left the description (decreasing ids) */
		std::vector<int> ids(c.n->absorbed, c.n->absorbed + c.n->nabsorbed);
		std::sort(ids.rbegin(), ids.rend());
		for (int id : ids)
			if (id >= 0 && id < (int)c.loops.size()) {
				c.absorbed.push_back(c.loops[id]);
				c.loops.erase(c.loops.begin() + id);
				c.loop_iter.erase(c.loop_iter.begin() + id);
			}
	}
	r.p.auto_where = nullptr;
	if (built && plan->auto_warn[0])
		mp_warning(r.pragma_loc, std::string("mixprec: ") + plan->auto_warn);
	if (!built) {
		report(r, c.loop_loc, c.fail_text.c_str(), c.fail_loc);
	} else if (!count && plan->auto_keep) {
		mp_report_passed(c.loop_loc, std::string("mixprec: ") + plan->reason);
	} else if (!count) {
		if (plan->descend >= 0 && plan->descend < (int)c.loops.size() &&
		    c.omp) {
			/* as plugin-gcc/nest.cc: whole nests only under a directive */
			report(r, c.loop_loc, MP_MSG_OMP_DESCEND, SourceLocation());
		} else if (plan->descend >= 0 && plan->descend < (int)c.loops.size()) {
			/* (twice at most: the image loop of a convolution that
			   first kept its row loop in the call, then not) */
			inner = c.loops[plan->descend];
			note = note.empty() ? std::string(plan->descend_note)
					    : note + "; then " + plan->descend_note;
		} else if (r.region && plan->no_contraction) {
			/* a region's init or element-wise loop: runs as written
			   (a missed remark, no warning) */
			mp_report_missed(c.loop_loc, plan->reason, SourceLocation());
		} else {
			report(r, c.loop_loc, plan->reason, mp_loc_of(plan->reason_loc),
			       plan->reason_is_error);
		}
	} else {
		/* planned from an inner loop: the loops kept around it (the
		   pragma stands where the user put it: no hint to move it) */
		for (int q = 0; q < count && !note.empty(); q++)
			snprintf(plan[q].hint, sizeof(plan[q].hint), "%s", note.c_str());
		for (int q = 0; q < count && c.omp; q++)
			snprintf(plan[q].hint, sizeof(plan[q].hint), "%s", MP_MSG_OMP_REMARK);
		for (int q = 0; mp_opt_dump && q < count; q++)
			fprintf(mp_dump_fp, "mixprec: plan: %s; %s\n", plan[q].what, plan[q].layout);
		/* inside an OpenMP region the rewrite reads only what the region
		   captures (the variables of the nest are; a scale named in the
		   pragma may not be) */
		const VarDecl *uncaptured = nullptr;
		if (c.captured) {
			std::vector<const VarDecl *> vs(c.var_decl.begin(), c.var_decl.end());
			vs.push_back(r.scale_decl[0]);
			vs.push_back(r.scale_decl[1]);
			for (const VarDecl *vd : vs)
				if (vd && vd->hasLocalStorage() &&
				    !c.captured->getCapturedDecl()->Encloses(vd->getDeclContext()) &&
				    !c.captured->capturesVariable(vd) && !c.omp_private.count(vd) &&
				    !uncaptured)
					uncaptured = vd;
		}
		if (uncaptured) {
			std::string why = std::string("the nest is inside an OpenMP region that does not "
						      "capture '") + uncaptured->getName().str() +
					  "'; use it in the region before the nest";
			report(r, c.loop_loc, why.c_str(), SourceLocation());
		} else if (mp_rewrite(c, plan, count)) {
			/* one remark per contraction */
			for (int q = 0; q < count; q++) {
				char text[4 * MP_REASON_LEN + 1024];
				const llvm::Triple &tt = C.getTargetInfo().getTriple();
				int arch = tt.isAArch64() ? MP_ARCH_AARCH64 : MP_ARCH_X86_64;
				mp_plan_remark(&plan[q], &r.p, arch, text, sizeof text);
				mp_report_passed(c.loop_loc, text);
			}
		} else {
			report(r, c.loop_loc, c.fail_text.c_str(), c.fail_loc);
		}
	}
	free(plan);
	free(c.n);
	return inner;
}

/* Is child K of P a statement position (not an expression operand)? */
static bool stmt_position(const Stmt *p, const Stmt *k)
{
	if (isa<CompoundStmt>(p) || isa<LabelStmt>(p) || isa<CaseStmt>(p) || isa<DefaultStmt>(p))
		return true;
	if (const IfStmt *i = dyn_cast<IfStmt>(p))
		return k == i->getThen() || k == i->getElse();
	if (const ForStmt *f = dyn_cast<ForStmt>(p))
		return k == f->getBody();
	if (const WhileStmt *w = dyn_cast<WhileStmt>(p))
		return k == w->getBody();
	if (const DoStmt *d = dyn_cast<DoStmt>(p))
		return k == d->getBody();
	/* a loop pragma of clang's own before ours (`#pragma GCC unroll 2`
	   then `#pragma mixprec`): the loop is the attributed statement's */
	if (const AttributedStmt *a = dyn_cast<AttributedStmt>(p))
		return k == a->getSubStmt();
	return false;
}

/* E without the capture clang may wrap a clause's expression in (a
 * reference to an OMPCapturedExprDecl initialised with it). */
static Expr *omp_uncaptured(Expr *e)
{
	for (int hops = 0; e && hops < 8; hops++) {
		Expr *x = e->IgnoreImpCasts();
		DeclRefExpr *r = dyn_cast<DeclRefExpr>(x);
		OMPCapturedExprDecl *cd = r ? dyn_cast<OMPCapturedExprDecl>(r->getDecl()) : nullptr;
		if (!cd || !cd->getInit())
			return e;
		e = cd->getInit();
	}
	return e;
}

/* The loop an OpenMP directive D carries, when mixprec may transform the
 * construct (`parallel for`, `parallel for simd`, `simd`, with clauses that
 * do not change what the loop computes); else null and WHY says what stops
 * it.  *THREADS, *IF_COND: the expressions of its num_threads and
 * (parallel) if clauses, or null.  As plugin-gcc/omp.cc (mp_omp_twin),
 * clause by clause (GCC also sees the nowait it adds to a combined
 * construct's loop). */
/* The first variable referenced in S for which PRED holds, or null. */
template <typename P> static const VarDecl *var_ref_in(const Stmt *s, P pred)
{
	std::vector<const Stmt *> todo(1, s);
	while (!todo.empty()) {
		const Stmt *x = todo.back();
		todo.pop_back();
		if (!x)
			continue;
		if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(x))
			if (const VarDecl *v = dyn_cast<VarDecl>(r->getDecl()))
				if (pred(v))
					return v;
		for (const Stmt *k : x->children())
			todo.push_back(k);
	}
	return nullptr;
}

static Stmt *omp_loop(ASTContext &C, OMPExecutableDirective *d, std::string &why, Expr **threads,
		      Expr **if_cond)
{
	*threads = *if_cond = nullptr;
	if (!isa<OMPParallelForDirective>(d) && !isa<OMPParallelForSimdDirective>(d) &&
	    !isa<OMPSimdDirective>(d)) {
		why = MP_MSG_OMP_LOOP;
		return nullptr;
	}
	Expr *nt = nullptr, *cond = nullptr, *sched = nullptr;
	for (OMPClause *cl : d->clauses()) {
		if (!cl)
			continue;
		switch (cl->getClauseKind()) {
		case llvm::omp::OMPC_private: case llvm::omp::OMPC_firstprivate:
			break;   /* an array among them: below */
		case llvm::omp::OMPC_default: {
			const OMPDefaultClause *dc = cast<OMPDefaultClause>(cl);
			if (dc->getDefaultKind() != llvm::omp::OMP_DEFAULT_shared &&
			    dc->getDefaultKind() != llvm::omp::OMP_DEFAULT_none) {
				why = MP_MSG_OMP_DEFAULT;
				return nullptr;
			}
			break;
		}
		case llvm::omp::OMPC_schedule:
			sched = omp_uncaptured(const_cast<Expr *>(
				cast<OMPScheduleClause>(cl)->getChunkSize()));
			break;
		case llvm::omp::OMPC_shared: case llvm::omp::OMPC_collapse:
		case llvm::omp::OMPC_proc_bind: case llvm::omp::OMPC_safelen:
		case llvm::omp::OMPC_simdlen: case llvm::omp::OMPC_aligned:
			break;
		case llvm::omp::OMPC_num_threads:
			nt = omp_uncaptured(cast<OMPNumThreadsClause>(cl)->getNumThreads());
			break;
		case llvm::omp::OMPC_if: {
			OMPIfClause *ic = cast<OMPIfClause>(cl);
			if (ic->getNameModifier() == llvm::omp::OMPD_unknown ||
			    ic->getNameModifier() == llvm::omp::OMPD_parallel)
				cond = omp_uncaptured(ic->getCondition());
			break;
		}
		default:
			why = std::string("the OpenMP directive on the loop has a '") +
			      getOpenMPClauseName(cl->getClauseKind()).str() +
			      "' clause, which mixprec does not model: " MP_MSG_OMP_CLAUSE;
			return nullptr;
		}
	}
	for (Expr *e : { nt, cond, sched })
		if (e && e->HasSideEffects(C)) {
			why = "an expression of the OpenMP directive's clauses has side effects (the "
			      "call that replaces the loop would evaluate it a second time)";
			return nullptr;
		}
	*threads = nt;
	*if_cond = cond;
	Stmt *s = d->getInnermostCapturedStmt() ? d->getInnermostCapturedStmt()->getCapturedStmt()
						 : nullptr;
	while (AttributedStmt *as = dyn_cast_or_null<AttributedStmt>(s))
		s = as->getSubStmt();
	if (!isa_and_nonnull<ForStmt>(s)) {
		why = MP_MSG_OMP_LOOP;
		return nullptr;
	}
	/* a private array: each thread writes its own copy, the call would
	   write the original */
	for (const VarDecl *v : omp_private_vars(d))
		if (v->getType()->isArrayType()) {
			char b[256];
			snprintf(b, sizeof b, MP_MSG_OMP_PRIVATE_ARRAY, v->getName().str().c_str());
			why = b;
			return nullptr;
		}
	/* collapsed loops whose bounds name an outer one's iterator (a
	   triangle): as plugin-gcc/omp.cc */
	if (OMPLoopDirective *ld = dyn_cast<OMPLoopDirective>(d)) {
		std::set<const VarDecl *> outer;
		const ForStmt *f = cast<ForStmt>(s);
		auto names = [&](const Stmt *e) {
			return var_ref_in(e, [&](const VarDecl *v) { return outer.count(v) > 0; });
		};
		for (unsigned lv = 0; lv < ld->getLoopsNumber() && f; lv++) {
			if (lv > 0 && (names(f->getInit()) || names(f->getCond()))) {
				why = MP_MSG_OMP_NONRECT;
				return nullptr;
			}
			if (const DeclStmt *ds = dyn_cast_or_null<DeclStmt>(f->getInit()))
				for (const Decl *dd : ds->decls())
					if (const VarDecl *v = dyn_cast<VarDecl>(dd))
						outer.insert(v);
			if (const BinaryOperator *bo = dyn_cast_or_null<BinaryOperator>(f->getInit()))
				if (const VarDecl *v = mp_var_of_ref(bo->getLHS()))
					outer.insert(v);
			f = collapsed_child(f->getBody());
		}
	}
	/* a threadprivate variable: each thread reads its own copy, the call
	   only the calling thread's */
	if (const VarDecl *v = var_ref_in(s, [](const VarDecl *x) {
		    return x->getTLSKind() != VarDecl::TLS_None || x->hasAttr<OMPThreadPrivateDeclAttr>();
	    })) {
		char b[256];
		snprintf(b, sizeof b, MP_MSG_OMP_TLS, v->getName().str().c_str());
		why = b;
		return nullptr;
	}
	return s;
}

/* The variable NAME denotes at the annotated statement AT, when the
 * pragma's lookup found a block-scope one: that lookup ran while the parser
 * had not yet left a block or a for loop ending right before the pragma, so
 * it may have found a variable out of scope at the loop (GCC: undeclared)
 * or one hiding the visible one.  Walks out from AT: the declarations
 * before it in each enclosing block, a for loop's own, the parameters, the
 * file scope.  FOUND when it is not a block-scope variable or AT is
 * unknown; null when nothing of that name is visible. */
static const NamedDecl *scale_visible(ASTContext &C, FunctionDecl *fd, parent_map &pm,
				      const NamedDecl *found, const char *name, const Stmt *at)
{
	const VarDecl *fv = dyn_cast_or_null<VarDecl>(found);
	if (!fv || !fv->isLocalVarDecl() || !at)
		return found;
	auto named = [&](const Stmt *st) -> const NamedDecl * {
		const NamedDecl *r = nullptr;
		if (const DeclStmt *ds = dyn_cast_or_null<DeclStmt>(st))
			for (const Decl *d : ds->decls())
				if (const NamedDecl *nd = dyn_cast<NamedDecl>(d))
					if (nd->getName() == name)
						r = nd;
		return r;
	};
	for (const Stmt *p = at; pm.count(p); p = pm[p]) {
		const Stmt *up = pm[p];
		if (const CompoundStmt *cs = dyn_cast<CompoundStmt>(up)) {
			const NamedDecl *r = nullptr;
			for (const Stmt *k : cs->body()) {
				if (k == p)
					break;
				if (const NamedDecl *nd = named(k))
					r = nd;
			}
			if (r)
				return r;
		} else if (const ForStmt *fs = dyn_cast<ForStmt>(up)) {
			if (p != fs->getInit())
				if (const NamedDecl *nd = named(fs->getInit()))
					return nd;
		}
	}
	for (const ParmVarDecl *pv : fd->parameters())
		if (pv->getName() == name)
			return pv;
	for (const NamedDecl *nd : C.getTranslationUnitDecl()->lookup(&C.Idents.get(name)))
		return nd;
	return nullptr;
}

void mp_process_function(ASTContext &C, Sema &S, FunctionDecl *fd)
{
	Stmt *body = fd->getBody();
	if (!body)
		return;
	SourceManager &SM = C.getSourceManager();
	SourceRange range = body->getSourceRange();
	std::vector<int> mine;
	for (size_t i = 0; i < mp_pragmas.size(); i++) {
		mp_pragma_rec &r = mp_pragmas[i];
		if (r.bad || r.done || r.next_loc.isInvalid())
			continue;
		SourceLocation e = SM.getExpansionLoc(r.next_loc);
		if (SM.isBeforeInTranslationUnit(e, SM.getExpansionLoc(range.getBegin())) ||
		    SM.isBeforeInTranslationUnit(SM.getExpansionLoc(range.getEnd()), e))
			continue;
		mine.push_back((int)i);
	}
	if (mine.empty())
		return;
	parent_map pm;
	build_parents(body, pm);
	/* statement positions by their first token */
	std::map<SourceLocation, Stmt *> at;
	for (auto &e : pm)
		if (stmt_position(e.second, e.first) && !at.count(e.first->getBeginLoc()))
			at[e.first->getBeginLoc()] = const_cast<Stmt *>(e.first);

	std::vector<std::pair<int, std::pair<Stmt *, Stmt *>>> nests;
	/* the annotated loops, each with its pragma (an index into mine) */
	std::map<const Stmt *, size_t> annotated;
	/* Annotate loop L with pragma M.  A loop that two pragmas reach
	   (`#pragma mixprec` before a block holding the loop and its own
	   pragma, or before `#pragma omp parallel for` and the pragma after
	   it): an error, as under the GCC glue, at the outer pragma, or at the
	   inner one where the outer marks a region; the loop keeps the pragma
	   not blamed.  True when M is blamed. */
	auto annotate = [&](const Stmt *l, size_t m) {
		auto it = annotated.find(l);
		if (it == annotated.end()) {
			annotated[l] = m;
			return false;
		}
		mp_pragma_rec &o = mp_pragmas[mine[it->second]];
		mp_pragma_rec &blame = o.region ? mp_pragmas[mine[m]] : o;
		if (!blame.bad)
			mp_error(blame.pragma_loc, "'#pragma mixprec' appears twice before the same loop");
		blame.bad = true;
		if (&blame == &o)
			it->second = m;
		return &blame != &o;
	};
	/* loop -> its OpenMP directive, num_threads and if expressions */
	std::map<const Stmt *, std::pair<Stmt *, std::pair<Expr *, Expr *>>> omp_of;
	bool lp64 = C.getTargetInfo().getLongWidth() == 64 && C.getTypeSize(C.VoidPtrTy) == 64;
	for (size_t m = 0; m < mine.size(); m++) {
		mp_pragma_rec &r = mp_pragmas[mine[m]];
		r.done = true;
		if (!lp64) {
			mp_warning(r.next_loc, std::string("mixprec: loop nest not transformed: ") +
				   MP_MSG_NOT_LP64);
			r.bad = true;
			continue;
		}
		if (m + 1 < mine.size() && mp_pragmas[mine[m + 1]].next_loc == r.next_loc) {
			mp_error(r.pragma_loc, "'#pragma mixprec' appears twice before the same loop");
			r.bad = true;
			continue;
		}
		bool visible = true;
		const Stmt *first = nullptr;
		if (at.count(r.next_loc))
			first = at[r.next_loc];
		for (auto &e : pm)
			if (!first && e.first->getBeginLoc() == r.next_loc)
				first = e.first;
		for (int k = 0; k < r.p.nsspec && k < 2 && visible; k++) {
			mp_scale_spec &sp = r.p.sspec[k];
			if (!r.scale_nd[k])
				continue;
			const NamedDecl *nd = scale_visible(C, fd, pm, r.scale_nd[k], sp.name, first);
			if (nd == r.scale_nd[k])
				continue;
			if (!nd) {
				int t = sp.tok;
				mp_error(t >= 0 && t < (int)r.tok_locs.size() ? r.tok_locs[t]
									      : r.pragma_loc,
					 std::string("'") + sp.name + "' undeclared in '#pragma mixprec'");
				visible = false;
				continue;
			}
			r.scale_nd[k] = nd;
			sp.elem = mp_scale_elem(nd, sp.kind);
			r.scale_decl[k] = sp.elem == MP_TY_OTHER ? nullptr
					  : const_cast<VarDecl *>(dyn_cast<VarDecl>(nd));
		}
		if (!visible) {
			r.bad = true;
			continue;
		}
		auto it = at.find(r.next_loc);
		Stmt *s = it == at.end() ? nullptr : it->second;
		/* a loop pragma of clang's own between ours and the loop
		   (#pragma clang loop / GCC unroll): an attribute around it */
		while (AttributedStmt *as = dyn_cast_or_null<AttributedStmt>(s))
			s = as->getSubStmt();
		/* an OpenMP directive on the loop, after the pragma (the
		   directive) or before it (the loop is the directive's) */
		Stmt *omp = isa_and_nonnull<OMPExecutableDirective>(s) ? s : nullptr;
		if (!s)
			for (auto &e : pm) {
				if (!(isa<ForStmt>(e.first) || isa<WhileStmt>(e.first)) ||
				    e.first->getBeginLoc() != r.next_loc)
					continue;
				/* combined directives nest their captured statements */
				Stmt *p = e.second;
				while (isa_and_nonnull<CapturedStmt>(p) && pm.count(p))
					p = pm[p];
				if (!isa_and_nonnull<OMPExecutableDirective>(p))
					continue;
				if (isa<OMPLoopBasedDirective>(p)) {
					if (e.second != p)
						omp = p;
				} else {
					/* the block of a construct that is not a
					   loop (single, master, critical, task,
					   parallel): a nest inside it, as the GCC
					   glue reads it */
					s = const_cast<Stmt *>(e.first);
				}
			}
		if (omp) {
			std::string why;
			Expr *nt = nullptr, *ic = nullptr;
			Stmt *lf = omp_loop(C, cast<OMPExecutableDirective>(omp), why, &nt, &ic);
			if (!lf) {
				mp_warning(omp->getBeginLoc(),
					   std::string("mixprec: loop nest not transformed: ") + why);
				r.bad = true;
				continue;
			}
			if (annotate(lf, m))
				continue;
			omp_of[lf] = { omp, { nt, ic } };
			nests.push_back({ mine[m], { lf, nullptr } });
			continue;
		}
		/* a block of several loops (a region, as `#pragma scop` marks
		   one): each loop of the block is a nest of its own */
		if (CompoundStmt *cs = dyn_cast_or_null<CompoundStmt>(s)) {
			std::vector<Stmt *> loops;
			for (Stmt *k : cs->body()) {
				Stmt *u = k;
				while (AttributedStmt *as = dyn_cast<AttributedStmt>(u))
					u = as->getSubStmt();
				if (isa<ForStmt>(u) || isa<WhileStmt>(u))
					loops.push_back(u);
			}
			if (loops.size() > 1) {
				r.region = true;
				for (Stmt *l : loops) {
					if (annotate(l, m))
						continue;
					nests.push_back({ mine[m], { l, nullptr } });
				}
				continue;
			}
		}
		/* as the GCC glue: a block whose first statement (after
		   declarations) is the loop, `#pragma mixprec { for ... }` */
		while (CompoundStmt *cs = dyn_cast_or_null<CompoundStmt>(s)) {
			Stmt *first = nullptr;
			for (Stmt *k : cs->body())
				if (!isa<DeclStmt>(k) && !isa<NullStmt>(k)) {
					first = k;
					break;
				}
			s = first;
			if (!isa_and_nonnull<CompoundStmt>(s) && !isa_and_nonnull<ForStmt>(s) &&
			    !isa_and_nonnull<WhileStmt>(s) && !isa_and_nonnull<DoStmt>(s))
				s = nullptr;
		}
		if (DoStmt *dw = dyn_cast_or_null<DoStmt>(s)) {
			/* a loop, not one mixprec reads: refused, compiled as
			   written (CMSIS-DSP's and XNNPACK's loops are do-while) */
			mp_warning(dw->getDoLoc(),
				   std::string("mixprec: loop nest not transformed: ") +
					   MP_DO_WHILE_REASON);
			r.bad = true;
			continue;
		}
		Stmt *f = dyn_cast_or_null<ForStmt>(s);
		if (!f && isa_and_nonnull<WhileStmt>(s))
			f = s;   /* `while (cnt--)`, `while (rows) { ...; rows--; }` */
		Stmt *init = nullptr;
		if (!f && s && isa<BinaryOperator>(s) &&
		    cast<BinaryOperator>(s)->getOpcode() == BO_Assign &&
		    mp_var_of_ref(cast<BinaryOperator>(s)->getLHS())) {
			/* `i = 0;` right before `for (; i < n; i++)` */
			if (CompoundStmt *cs = dyn_cast<CompoundStmt>(pm[s])) {
				for (auto k = cs->body_begin(); k != cs->body_end(); ++k)
					if (*k == s && k + 1 != cs->body_end()) {
						ForStmt *nf = dyn_cast<ForStmt>(k[1]);
						if (nf && !nf->getInit()) {
							f = nf;
							init = s;
						}
					}
			}
		}
		if (!f) {
			mp_error(r.pragma_loc, "'#pragma mixprec' must be followed by a 'for' or 'while' loop");
			r.bad = true;
			continue;
		}
		if (annotate(f, m))
			continue;
		nests.push_back({ mine[m], { f, init } });
	}
	for (auto &x : nests) {
		std::string note;   /* the batch loops kept around the call */
		if (mp_pragmas[x.first].bad)
			continue;   /* appears twice */
		Stmt *f = x.second.first, *init = x.second.second;
		SourceLocation kw = parts_of(f).kw;
		std::pair<Stmt *, std::pair<Expr *, Expr *>> od = {};
		if (omp_of.count(f))
			od = omp_of[f];
		for (int attempt = 0; attempt < 3 && f; attempt++, init = nullptr, od = {})
			f = process_nest(C, S, fd, pm, annotated, mp_pragmas[x.first], f, init, kw,
					 note, od.first, od.second.first, od.second.second);
	}
}

void mp_finish_unit(void)
{
	for (mp_pragma_rec &r : mp_pragmas)
		if (!r.bad && !r.done) {
			mp_error(r.pragma_loc, "'#pragma mixprec' must be followed by a 'for' or 'while' loop");
			r.bad = true;
		}
}
