/* translate.cc -- clang AST expressions of a nest into the core's mp_nest
 * description: variables, affine forms, array accesses, expression trees.
 *
 * For   for (k = 0; k < K; k++) s += x[i*K + k] * w[j*K + k];
 * the AST body is
 *   CompoundAssignOperator '+=' (DeclRefExpr s,
 *     BinaryOperator '*' (ImplicitCast IntegralCast (ImplicitCast LValueToRValue
 *                          (ArraySubscriptExpr (ImplicitCast LValueToRValue x) (i*K + k))), ...))
 * which becomes the statement  s = s + (int)load(x, i*K + k) * (int)load(w, ...).
 * User scalars are variables (ITER, PARAM, LOCAL); memory reads and writes
 * are accesses with an affine BYTE offset from an array (a pointer variable
 * or a declared object); a local set once in the nest from an affine value
 * (`int row = i*ld`, `const int8_t *xr = x + i*K`) is followed to its value
 * in subscripts and pointers, as the GCC glue does.
 */
#include <stdarg.h>
#include <cmath>
#include "mp-clang.h"

using namespace clang;

/* ----------------------------------------------------------- helpers */

mp_scalar mp_scalar_of_type(ASTContext &C, QualType t)
{
	if (t.isNull())
		return MP_TY_OTHER;
	t = t.getCanonicalType();
	/* a named address space (__seg_fs, address_space(N)): the runtime
	   reads generic memory only */
	if (t.getAddressSpace() != LangAS::Default)
		return MP_TY_OTHER;
	if (t->isPointerType())
		return MP_TY_PTR;
	/* _Bool; _BitInt(N) wraps at N bits whatever its storage */
	if (t->isBooleanType() || t->isBitIntType())
		return MP_TY_OTHER;
	if (t->isIntegerType()) {   /* includes enums and char types */
		uint64_t bits = C.getTypeSize(t);
		bool u = t->isUnsignedIntegerOrEnumerationType();
		if (bits == 8) return u ? MP_TY_U8 : MP_TY_S8;
		if (bits == 16) return u ? MP_TY_U16 : MP_TY_S16;
		if (bits == 32) return u ? MP_TY_U32 : MP_TY_S32;
		if (bits == 64) return u ? MP_TY_U64 : MP_TY_S64;
		return MP_TY_OTHER;
	}
	if (t->isRealFloatingType()) {
		uint64_t bits = C.getTypeSize(t);
		if (bits == 32) return MP_TY_F32;
		if (bits == 64 && t->isSpecificBuiltinType(BuiltinType::Double)) return MP_TY_F64;
	}
	return MP_TY_OTHER;
}

/* The variable an lvalue names (through parentheses), or null. */
const VarDecl *mp_var_of_ref(const Expr *e)
{
	if (!e)
		return nullptr;
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(e->IgnoreParens()))
		return dyn_cast<VarDecl>(r->getDecl());
	return nullptr;
}

void mp_ctx::fail(SourceLocation loc, const char *fmt, ...)
{
	if (failed)
		return;
	char buf[MP_REASON_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	failed = true;
	fail_text = buf;
	fail_loc = loc;
}

/* A variable of the description for D; FRESH: a new one even if D has
 * one (a loop reusing the iterator of a sibling loop gets a variable of its
 * own: its own ITER, name suffixed). */
int mp_ctx::var_for(VarDecl *d, mp_var_kind kind, bool fresh)
{
	auto it = var_of.find(d);
	if (it != var_of.end() && !fresh)
		return it->second;
	char name[MP_NAME_LEN];
	snprintf(name, sizeof name, "%s", d->getName().empty() ? "anon" : d->getName().str().c_str());
	/* a volatile variable (`for (volatile int k ...)`): each access is
	   one of its own, which the rewrite would not make (found by a
	   review helper; GCC refuses it too) */
	if (d->getType().isVolatileQualified()) {
		fail(loop_loc, "the volatile access '%s' must stay as written", name);
		return -1;
	}
	/* `register T x asm("reg")`: refused as the GCC glue refuses it
	   (GCC cannot take its address; the same nests under both) */
	if (d->getStorageClass() == SC_Register && d->hasAttr<AsmLabelAttr>()) {
		fail(loop_loc, "'%s' is a hardware register variable (asm(\"...\")); "
		     "mixprec cannot read it as the nest's value", name);
		return -1;
	}
	if (mp_nest_find_var(n, name) >= 0) {
		char b2[MP_NAME_LEN];
		snprintf(b2, sizeof b2, "%.30s.%d", name, n->nvars);
		snprintf(name, sizeof name, "%s", b2);
	}
	int v = mp_nest_add_var(n, name, kind, mp_scalar_of_type(C, d->getType()));
	if (v < 0) {
		fail(loop_loc, "the nest has too many variables");
		return -1;
	}
	var_of[d] = v;
	if ((int)var_decl.size() <= v)
		var_decl.resize(v + 1);
	var_decl[v] = d;
	if (kind == MP_VAR_PARAM && outer_iters.count(d))
		n->var[v].outer_iter = 1;
	return v;
}

int mp_ctx::add_expr(mp_expr_kind k, mp_scalar ty, int a, int b)
{
	mp_expr e;
	memset(&e, 0, sizeof e);
	e.kind = k;
	e.type = ty;
	e.a = a;
	e.b = b;
	e.var = -1;
	e.access = -1;
	int id = mp_nest_add_expr(n, &e);
	if (id < 0)
		fail(loop_loc, "the nest has too many operations");
	return id;
}

int mp_ctx::var_expr(int v, mp_scalar ty)
{
	if (v < 0)
		return -1;
	int e = add_expr(MP_X_VAR, ty, -1, -1);
	if (e >= 0)
		n->expr[e].var = v;
	return e;
}

/* The value of a local declared in the nest and never assigned after its
 * initialization (so the initializer reaches every use in its scope), or
 * null. */
const Expr *mp_ctx::single_def(const VarDecl *d, const Expr *use)
{
	auto it = defs.find(d);
	if (it == defs.end() || it->second.size() != 1)
		return nullptr;
	if (declared_in.count(d))
		return d->getInit() == it->second[0] ? it->second[0] : nullptr;
	/* `v = e;` of a variable declared before the nest (C89 style: `int
	   in_row;` at the top, `in_row = stride*j + m - pad;` in the window
	   loop): a statement of a block that also holds USE after it, so
	   every read of USE sees it (as the GCC glue's dominating_def) */
	const BinaryOperator *bo = dyn_cast<BinaryOperator>(it->second[0]);
	if (!use || !parent || mem_decl(d) || !bo || bo->getOpcode() != BO_Assign)
		return nullptr;
	auto pit = parent->find(bo);
	const CompoundStmt *cs = pit != parent->end() ? dyn_cast<CompoundStmt>(pit->second) : nullptr;
	if (!cs)
		return nullptr;
	const Stmt *x = child_toward(cs, use);
	if (!x)
		return nullptr;
	/* what the value reads does not change between the two: iterators,
	   values the nest does not write, locals it declares with one
	   initialiser, and locals whose one assignment in the nest is a
	   statement of the same block before this one (`n3 = N; off = i *
	   n3;` under a zero-skip guard: GCC's SSA reads both) */
	auto earlier = [&](const Stmt *def) {
		for (const Stmt *k : cs->body())
			if (k == bo)
				return false;
			else if (k == def)
				return true;
		return false;
	};
	std::vector<const Stmt *> work(1, bo->getRHS());
	while (!work.empty()) {
		const Stmt *t = work.back();
		work.pop_back();
		if (!t)
			continue;
		if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(t))
			if (const VarDecl *v = dyn_cast<VarDecl>(r->getDecl())) {
				auto dv = defs.find(v);
				if (dv != defs.end() && !iter_var.count(v) &&
				    !(declared_in.count(v) && dv->second.size() == 1 &&
				      v->getInit() == dv->second[0]) &&
				    !(dv->second.size() == 1 && !mem_decl(v) &&
				      earlier(dv->second[0])))
					return nullptr;
			}
		for (const Stmt *k : t->children())
			work.push_back(k);
	}
	bool before = false;
	for (const Stmt *k : cs->body()) {
		if (k == bo)
			before = true;
		else if (k == x)
			return before ? bo->getRHS() : nullptr;
	}
	return nullptr;
}

/* Global or static D read as if it were a parameter: only when nothing in
 * the nest can write it directly.  Stores through pointers are covered at
 * run time (its bytes join the ranges that written ranges must not
 * overlap), as in the GCC glue. */
bool mp_ctx::invariant_memory_decl(VarDecl *d, SourceLocation at)
{
	if (stored_decls.count(d) || defs.count(d)) {
		fail(at.isValid() ? at : loop_loc, "'%s' is read as a loop-invariant value "
		     "but the nest writes it", d->getName().str().c_str());
		return false;
	}
	if (has_opaque || d->getType()->isIncompleteType() || !d->getType()->isConstantSizeType())
		return false;
	for (VarDecl *x : protected_decls)
		if (x == d)
			return true;
	protected_decls.push_back(d);
	return true;
}

/* ------------------------------------------------------ affine forms */

static bool value_preserving_int_conv(QualType to, QualType from, ASTContext &C)
{
	if (!(to->isIntegerType() || to->isPointerType()) ||
	    !(from->isIntegerType() || from->isPointerType()))
		return false;
	if (to->isBooleanType())
		return false;
	uint64_t bt = C.getTypeSize(to), bf = C.getTypeSize(from);
	/* index arithmetic: int -> long, long <-> unsigned long are fine (no
	   overflow is assumed, as the C standard does for signed index
	   expressions); a conversion to a narrower type is not (`(int) linc`
	   with linc a long: as plugin-gcc) */
	if (bt >= 32 && bt >= bf)
		return true;
	/* below 32 bits, a change of sign wraps (as plugin-gcc) */
	bool ut = to->isUnsignedIntegerType() || to->isPointerType();
	bool uf = from->isUnsignedIntegerType() || from->isPointerType();
	if (ut == uf)
		return bt >= bf;
	return uf && bt > bf;
}

/* ------------------------------------------------ derived parameters */

/* Is E (an rvalue) the same value before the nest as anywhere in it, and
 * can it be evaluated there as written: no iterator, no variable the nest
 * writes or declares, no side effect, no call; memory read through
 * invariant addresses only (each such read becomes a variable in memory
 * whose bytes the run-time checks protect, derived_var). */
bool mp_ctx::invariant(const Expr *e, int depth)
{
	if (!e || depth > 30 || has_opaque || e->HasSideEffects(C))
		return false;
	e = e->IgnoreParens();
	if (isa<CallExpr>(e) || isa<StmtExpr>(e))
		return false;
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(e)) {
		const VarDecl *d = dyn_cast<VarDecl>(r->getDecl());
		if (!d)
			return isa<EnumConstantDecl>(r->getDecl());
		if (iter_var.count(d) || defs.count(d) || declared_in.count(d) ||
		    d->getType().isVolatileQualified())
			return false;
		return !mem_decl(d) || invariant_memory_decl(const_cast<VarDecl *>(d), e->getExprLoc());
	}
	if (const ImplicitCastExpr *ic = dyn_cast<ImplicitCastExpr>(e))
		if (ic->getCastKind() == CK_LValueToRValue) {
			const Expr *lv = ic->getSubExpr()->IgnoreParens();
			if (isa<DeclRefExpr>(lv))
				return invariant(lv, depth + 1);
			/* a read of memory: x->n, p[3], *q */
			if (!isa<MemberExpr>(lv) && !isa<ArraySubscriptExpr>(lv) &&
			    !(isa<UnaryOperator>(lv) && cast<UnaryOperator>(lv)->getOpcode() == UO_Deref))
				return false;
			if (lv->getType().isVolatileQualified() || lv->getType()->isIncompleteType() ||
			    !lv->getType()->isConstantSizeType())
				return false;
			if (const MemberExpr *m = dyn_cast<MemberExpr>(lv)) {
				const FieldDecl *f = dyn_cast<FieldDecl>(m->getMemberDecl());
				if (!f || f->isBitField())
					return false;
			}
			for (const Stmt *k : lv->children())
				if (k && !invariant(cast<Expr>(k), depth + 1))
					return false;
			if (derived_var(e) < 0)   /* its bytes are protected */
				return false;
			return true;
		}
	for (const Stmt *k : e->children())
		if (!k || !isa<Expr>(k) || !invariant(cast<Expr>(k), depth + 1))
			return false;
	return true;
}

/* A new PARAM var named NAME (made unique) whose value, evaluated before
 * the nest, is E; -1 when the nest is full. */
int mp_ctx::value_var(const std::string &name_in, const Expr *e)
{
	char name[MP_NAME_LEN];
	snprintf(name, sizeof name, "%s", name_in.c_str());
	if (mp_nest_find_var(n, name) >= 0) {
		char b2[MP_NAME_LEN];
		snprintf(b2, sizeof b2, "%.30s.%d", name, n->nvars);
		snprintf(name, sizeof name, "%s", b2);
	}
	int v = mp_nest_add_var(n, name, MP_VAR_PARAM, mp_scalar_of_type(C, e->getType()));
	if (v < 0) {
		fail(loop_loc, "the nest has too many variables");
		return -1;
	}
	if ((int)var_decl.size() <= v)
		var_decl.resize(v + 1);
	var_decl[v] = nullptr;
	var_value[v] = e;
	return v;
}

/* The PARAM var standing for invariant value E (one per rendering); a
 * read of memory is a variable in memory (its lvalue's bytes protected). */
int mp_ctx::derived_var(const Expr *e)
{
	std::string key;
	llvm::raw_string_ostream os(key);
	e->printPretty(os, nullptr, C.getPrintingPolicy());
	os.flush();
	auto it = derived.find(key);
	if (it != derived.end())
		return it->second;
	int v = value_var(key, e);
	if (v < 0)
		return -1;
	derived[key] = v;
	const ImplicitCastExpr *ic = dyn_cast<ImplicitCastExpr>(e->IgnoreParens());
	if (ic && ic->getCastKind() == CK_LValueToRValue &&
	    !isa<DeclRefExpr>(ic->getSubExpr()->IgnoreParens())) {
		const Expr *lv = ic->getSubExpr();
		var_lvalue[v] = lv;
		n->var[v].in_memory = 1;
		n->var[v].mem_size = C.getTypeSizeInChars(lv->getType()).getQuantity();
	}
	return v;
}

bool mp_ctx::aff_of(const Expr *e, mp_aff *r, int depth)
{
	if (aff_of_(e, r, depth))
		return true;
	/* not affine but loop-invariant: a derived parameter */
	if (failed || !e->getType()->isIntegerType() || !invariant(e, 0))
		return false;
	int v = derived_var(e);
	if (v < 0)
		return false;
	mp_aff_var(r, v);
	return true;
}

bool mp_ctx::aff_of_(const Expr *e, mp_aff *r, int depth)
{
	mp_aff a, b;
	if (depth > 40 || failed)
		return false;
	e = e->IgnoreParens();
	if (e->getType()->isIntegerType() && !e->HasSideEffects(C)) {
		Expr::EvalResult res;
		/* an enumerator is a constant (GCC's front end folds it); a
		   variable's reference stays a variable */
		bool ref = isa<DeclRefExpr>(e) &&
			   !isa<EnumConstantDecl>(cast<DeclRefExpr>(e)->getDecl());
		if (!ref && e->EvaluateAsInt(res, C) && mpc::min_signed_bits(res.Val.getInt()) <= 64) {
			mp_aff_const(r, res.Val.getInt().getSExtValue());
			return true;
		}
	}
	if (const CastExpr *c = dyn_cast<CastExpr>(e)) {
		switch (c->getCastKind()) {
		case CK_LValueToRValue:
			return aff_of_lvalue(c->getSubExpr(), r, depth + 1);
		case CK_NoOp:
			return aff_of(c->getSubExpr(), r, depth + 1);
		case CK_IntegralCast: {
			QualType to = c->getType(), from = c->getSubExpr()->getType();
			if (value_preserving_int_conv(to, from, C))
				return aff_of(c->getSubExpr(), r, depth + 1);
			/* narrowed to a smaller signed type (`const int16_t base
			   = i * S - P;`): exact while its values fit, which the
			   call checks first (mp_narrow); as plugin-gcc */
			if (!to->isIntegerType() || to->isBooleanType() || to->isEnumeralType() ||
			    to->isUnsignedIntegerType() ||
			    !from->isIntegerType() || from->isUnsignedIntegerType() ||
			    !aff_of(c->getSubExpr(), r, depth + 1))
				return false;
			return mp_nest_add_narrow(n, r, (int)C.getTypeSize(to),
						  to->isUnsignedIntegerType()) == 0;
		}
		default:
			return false;
		}
	}
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e)) {
		BinaryOperatorKind k = bo->getOpcode();
		if (k != BO_Add && k != BO_Sub && k != BO_Mul)
			return false;
		if (!aff_of(bo->getLHS(), &a, depth + 1) || !aff_of(bo->getRHS(), &b, depth + 1))
			return false;
		if (k == BO_Mul)
			return mp_aff_mul(n, r, &a, &b) == 0;
		if (k == BO_Sub && mp_aff_scale(&b, &b, -1) != 0)
			return false;
		return mp_aff_add(r, &a, &b) == 0;
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e)) {
		if (u->getOpcode() == UO_Plus)
			return aff_of(u->getSubExpr(), r, depth + 1);
		if (u->getOpcode() == UO_Minus)
			return aff_of(u->getSubExpr(), &a, depth + 1) && mp_aff_scale(r, &a, -1) == 0;
		return false;
	}
	return false;
}

/* See mp-clang.h.  `a < b` is b - a - 1 >= 0; `&&` a conjunction, `||`
 * one when negated (`if (ih < 0 || ih >= H) continue;`); a local with one
 * definition in the nest (`const int inside = ...; if (!inside)`) stands
 * for it.  Comparisons of signed integers only: unsigned ones wrap. */
bool mp_ctx::conds_of(const Expr *e, bool neg, unsigned *set, int depth)
{
	if (depth > 20 || failed)
		return false;
	e = e->IgnoreParens();
	if (const CastExpr *c = dyn_cast<CastExpr>(e)) {
		switch (c->getCastKind()) {
		case CK_LValueToRValue: {
			const VarDecl *d = mp_var_of_ref(c->getSubExpr());
			const Expr *init = d && defs.count(d) && !mem_decl(d) ? single_def(d, c) : nullptr;
			return init && conds_of(init, neg, set, depth + 1);
		}
		case CK_IntegralCast: case CK_IntegralToBoolean: case CK_NoOp:
			return conds_of(c->getSubExpr(), neg, set, depth + 1);
		default:
			return false;
		}
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
		return u->getOpcode() == UO_LNot && conds_of(u->getSubExpr(), !neg, set, depth + 1);
	/* `c ? t : 0` is c && t, `c ? t : 1` is !c || t, `c ? 0 : f` is !c
	   && f, `c ? 1 : f` is c || f (a padding flag `int ok = ii >= 0 ?
	   ii < M : 0;`; GCC reads it from the branches) */
	if (const ConditionalOperator *co = dyn_cast<ConditionalOperator>(e)) {
		if (co->HasSideEffects(C))
			return false;
		Expr::EvalResult r;
		for (int side = 0; side < 2; side++) {
			const Expr *kx = side ? co->getTrueExpr() : co->getFalseExpr();
			const Expr *ox = side ? co->getFalseExpr() : co->getTrueExpr();
			if (!kx->EvaluateAsInt(r, C) || !ox->getType()->isIntegerType())
				continue;
			/* 0 or 1 only: a narrowing conversion above the `?:`
			   (`int8_t skip = c ? t : 256;`) would change another
			   constant's truth (a review found 256 read as true) */
			if (r.Val.getInt() != 0 && r.Val.getInt() != 1)
				return false;
			bool one = r.Val.getInt().getBoolValue();
			/* side 0 (false value K): a conjunction unless negated when K
			   is 0, a disjunction (negated: c && !t) when K is 1; side 1
			   (true value K) likewise with !c */
			if (one != neg)
				return false;   /* a disjunction */
			return conds_of(co->getCond(), side == 1, set, depth + 1) &&
			       conds_of(ox, neg, set, depth + 1);
		}
		return false;
	}
	const BinaryOperator *bo = dyn_cast<BinaryOperator>(e);
	if (!bo)
		return false;
	BinaryOperatorKind k = bo->getOpcode();
	if (k == BO_LAnd || k == BO_LOr) {
		if ((k == BO_LAnd) == neg)
			return false;   /* a disjunction */
		return conds_of(bo->getLHS(), neg, set, depth + 1) &&
		       conds_of(bo->getRHS(), neg, set, depth + 1);
	}
	if (!bo->isComparisonOp() || bo->HasSideEffects(C))
		return false;
	QualType t = bo->getLHS()->getType();
	if (!t->isIntegerType() || !t->isSignedIntegerType() ||
	    !bo->getRHS()->getType()->isSignedIntegerType())
		return false;
	mp_aff a, b, d, nd;
	if (!aff_of(bo->getLHS(), &a, depth + 1) || !aff_of(bo->getRHS(), &b, depth + 1) ||
	    mp_aff_scale(&b, &b, -1) != 0 || mp_aff_add(&d, &a, &b) != 0 ||
	    mp_aff_scale(&nd, &d, -1) != 0)
		return false;
	if (neg)
		k = k == BO_LT ? BO_GE : k == BO_GE ? BO_LT : k == BO_LE ? BO_GT :
		    k == BO_GT ? BO_LE : k == BO_EQ ? BO_NE : BO_EQ;
	/* d = lhs - rhs */
	int cookie = mp_loc_cookie(bo->getExprLoc());
	auto add = [&](mp_aff x, int64_t c) {
		x.cst -= c;
		int id = mp_nest_add_cond(n, &x, cookie);
		if (id < 0)
			return false;
		*set |= 1u << id;
		return true;
	};
	switch (k) {
	case BO_GE: return add(d, 0);
	case BO_GT: return add(d, 1);
	case BO_LE: return add(nd, 0);
	case BO_LT: return add(nd, 1);
	case BO_EQ: return add(d, 0) && add(nd, 0);
	default: return false;
	}
}

/* A loop bound clipped to a window (mp_loop.clip): `MAX(0, -base)` as C
 * code writes it, `(a) > (b) ? (a) : (b)`, or a local with one definition
 * in the nest holding it.  The test compares the two arms' values (either
 * way round; `>=` or `>`: where they are equal either arm is the value),
 * all of signed integer type. */
bool mp_ctx::minmax_of(const Expr *e, mp_aff *a, mp_aff *b, bool *is_max, int depth)
{
	if (depth > 20 || failed)
		return false;
	e = e->IgnoreParens();
	if (const CastExpr *c = dyn_cast<CastExpr>(e)) {
		switch (c->getCastKind()) {
		case CK_LValueToRValue: {
			const VarDecl *d = mp_var_of_ref(c->getSubExpr());
			const Expr *init = d && defs.count(d) && !mem_decl(d) &&
					   !iter_var.count(const_cast<VarDecl *>(d)) ? single_def(d, c) : nullptr;
			return init && minmax_of(init, a, b, is_max, depth + 1);
		}
		case CK_NoOp:
			return minmax_of(c->getSubExpr(), a, b, is_max, depth + 1);
		case CK_IntegralCast:
			return value_preserving_int_conv(c->getType(), c->getSubExpr()->getType(), C) &&
			       minmax_of(c->getSubExpr(), a, b, is_max, depth + 1);
		default:
			return false;
		}
	}
	/* `MIN(K, W - base) - 1`: the bound moved by an affine value (as
	   GCC folds it into both of its operands) */
	if (const BinaryOperator *ab = dyn_cast<BinaryOperator>(e)) {
		BinaryOperatorKind k = ab->getOpcode();
		if ((k != BO_Add && k != BO_Sub) || ab->HasSideEffects(C) ||
		    !ab->getType()->isSignedIntegerType())
			return false;
		mp_aff o;
		const Expr *mm = ab->getLHS(), *of = ab->getRHS();
		if (k == BO_Add && !isa<ConditionalOperator>(mm->IgnoreParenImpCasts()))
			std::swap(mm, of);
		if (!aff_of(of, &o, depth + 1) || !minmax_of(mm, a, b, is_max, depth + 1) ||
		    (k == BO_Sub && mp_aff_scale(&o, &o, -1) != 0))
			return false;
		return mp_aff_add(a, a, &o) == 0 && mp_aff_add(b, b, &o) == 0;
	}
	const ConditionalOperator *co = dyn_cast<ConditionalOperator>(e);
	if (!co || co->HasSideEffects(C) || !co->getType()->isSignedIntegerType())
		return false;
	const BinaryOperator *bo = dyn_cast<BinaryOperator>(co->getCond()->IgnoreParenImpCasts());
	if (!bo || !bo->getLHS()->getType()->isSignedIntegerType() ||
	    !bo->getRHS()->getType()->isSignedIntegerType())
		return false;
	BinaryOperatorKind k = bo->getOpcode();
	if (k != BO_LT && k != BO_LE && k != BO_GT && k != BO_GE)
		return false;
	mp_aff l, r, t, f;
	if (!aff_of(bo->getLHS(), &l, depth + 1) || !aff_of(bo->getRHS(), &r, depth + 1) ||
	    !aff_of(co->getTrueExpr(), &t, depth + 1) || !aff_of(co->getFalseExpr(), &f, depth + 1))
		return false;
	/* the test as E >= 0 or E > 0: E = lhs - rhs for > and >=, rhs - lhs
	   for < and <= (`base <= 0 ? -base : 0` is MAX(-base, 0) too) */
	bool up = k == BO_GT || k == BO_GE;
	mp_aff nr, te;
	int mx;
	if (mp_aff_scale(&nr, &r, -1) != 0 || mp_aff_add(&te, &l, &nr) != 0 ||
	    (!up && mp_aff_scale(&te, &te, -1) != 0) || !mp_aff_minmax(&te, &t, &f, &mx))
		return false;
	*is_max = mx;
	*a = t;
	*b = f;
	return true;
}

/* The child of ANC whose subtree holds X (X itself when ANC is its
 * parent), or null when ANC is not above X. */
const Stmt *mp_ctx::child_toward(const Stmt *anc, const Stmt *x) const
{
	if (!parent)
		return nullptr;
	for (;;) {
		auto q = parent->find(x);
		if (q == parent->end())
			return nullptr;
		if (q->second == anc)
			return x;
		x = q->second;
	}
}

/* The value of D at USE when D steps beside a loop's iterator
 * (stepped_ivs): USE inside the loop's body.  False elsewhere (its test,
 * its increment, after it). */
bool mp_ctx::stepped_at(const VarDecl *d, const Expr *use, mp_aff *r)
{
	auto it = stepped.find(d);
	if (it == stepped.end() || child_toward(it->second.loop, use) != it->second.body)
		return false;
	*r = it->second.val;
	return true;
}

/* The value of the scalar variable lvalue E as an affine form. */
bool mp_ctx::aff_of_lvalue(const Expr *e, mp_aff *r, int depth)
{
	const VarDecl *cd = mp_var_of_ref(e);
	if (!cd)
		return false;
	VarDecl *d = const_cast<VarDecl *>(cd);
	auto it = iter_var.find(d);
	if (it != iter_var.end()) {
		mp_aff_var(r, it->second);
		return true;
	}
	if (stepped.count(d))
		return stepped_at(d, e, r);
	if (defs.count(d)) {
		const Expr *init = single_def(d, e);
		return init && aff_of(init, r, depth + 1);   /* else: changes in the nest */
	}
	if (d->getType().isVolatileQualified())
		return false;
	if (mem_decl(d) && !invariant_memory_decl(d, e->getExprLoc()))
		return false;
	int v = var_for(d, MP_VAR_PARAM);
	if (v < 0)
		return false;
	mp_aff_var(r, v);
	return true;
}

int64_t mp_ctx::pointee_size(QualType t) const
{
	if (!t->isPointerType())
		return 0;
	QualType e = t->getPointeeType();
	if (e->isIncompleteType() || !e->isConstantSizeType())
		return 0;
	return C.getTypeSizeInChars(e).getQuantity();
}

/* sizeof(T) as an affine form.  A variable-length array type's size is
 * the one computed when the type was formed (at its declaration; for a
 * parameter, when the function starts), whatever its length expression's
 * variables hold later (`int8_t B[][ld]`, then `ld--`): the description
 * reads `sizeof (T)` of the very same type object, which evaluates to that
 * saved size (as GCC's description reads the temporary the gimplifier saved
 * it in), never the length expression again. */
bool mp_ctx::size_of(QualType t, mp_aff *r, int depth)
{
	if (depth > 40)
		return false;
	if (const VariableArrayType *v = C.getAsVariableArrayType(t)) {
		auto it = vla_size.find(v);
		int sv = it != vla_size.end() ? it->second : -1;
		if (sv < 0) {
			SourceLocation l = v->getSizeExpr() ? v->getSizeExpr()->getExprLoc() : loop_loc;
			Expr *size = new (C) UnaryExprOrTypeTraitExpr(
				UETT_SizeOf, C.getTrivialTypeSourceInfo(t, l), C.getSizeType(), l, l);
			if ((sv = value_var("sizeof(" + t.getAsString(C.getPrintingPolicy()) + ")",
					    size)) < 0)
				return false;
			vla_size[v] = sv;
		}
		mp_aff_var(r, sv);
		return true;
	}
	if (t->isIncompleteType() || t->isFunctionType() || t->isVoidType())
		return false;
	mp_aff_const(r, C.getTypeSizeInChars(t).getQuantity());
	return true;
}

/* The length of variable-length array type T when its length folds to a
 * constant after all (`const int U = 8; float acc[U];`, llm.c's
 * matmul_forward: a VLA in C, as `const int` is no constant expression;
 * a write to U is undefined), with an element type of constant size;
 * else -1.  As the GCC glue, which gives such an array its constant type
 * (hoist.cc, const_vla_r). */
int64_t mp_ctx::const_vla_length(QualType t)
{
	const VariableArrayType *v = C.getAsVariableArrayType(t);
	if (!v || !v->getSizeExpr() || !v->getElementType()->isConstantSizeType() ||
	    v->getElementType()->isIncompleteType())
		return -1;
	Expr::EvalResult r;
	if (!v->getSizeExpr()->EvaluateAsInt(r, C) || r.HasSideEffects)
		return -1;
	llvm::APSInt n = r.Val.getInt();
	if (n.isSigned() ? n.getSExtValue() < 1 : n.getZExtValue() < 1)
		return -1;
	if (n.getActiveBits() > 20)
		return -1;
	return (int64_t)n.getZExtValue();
}

/* ---------------------------------------------------------- addresses */

int mp_ctx::array_for(VarDecl *base, bool is_decl)
{
	auto it = array_of.find(base);
	if (it != array_of.end())
		return it->second;
	int bv = -1;
	int64_t size = -1;
	if (!is_decl) {
		/* a walking pointer (assigned in the nest) is a local */
		bv = var_for(base, defs.count(base) ? MP_VAR_LOCAL : MP_VAR_PARAM);
		if (bv < 0)
			return -1;
	} else if (const ConstantArrayType *ca = C.getAsConstantArrayType(base->getType())) {
		size = C.getTypeSizeInChars(ca).getQuantity();
	} else if (int64_t len = std::max<int64_t>(const_vla_length(base->getType()), 0)) {
		size = len * C.getTypeSizeInChars(C.getAsVariableArrayType(base->getType())
							  ->getElementType()).getQuantity();
	} else if (!base->getType()->isIncompleteType() && base->getType()->isConstantSizeType()) {
		size = C.getTypeSizeInChars(base->getType()).getQuantity();
	}
	int a = mp_nest_add_array(n, base->getName().str().c_str(), bv, is_decl, size);
	if (a < 0) {
		fail(loop_loc, "the nest accesses too many arrays");
		return -1;
	}
	array_of[base] = a;
	if ((int)array_base.size() <= a)
		array_base.resize(a + 1);
	array_base[a] = base;
	return a;
}

/* Pointer value P as  array base + affine byte offset. */
bool mp_ctx::ptr_of(const Expr *p, int *arr, mp_aff *off, int depth)
{
	if (depth > 40 || failed)
		return false;
	p = p->IgnoreParens();
	if (const CastExpr *c = dyn_cast<CastExpr>(p)) {
		switch (c->getCastKind()) {
		case CK_ArrayToPointerDecay:
			return addr_of(c->getSubExpr(), arr, off, depth + 1);
		case CK_NoOp:
		case CK_BitCast:
			return ptr_of(c->getSubExpr(), arr, off, depth + 1);
		case CK_LValueToRValue: {
			const VarDecl *cd = mp_var_of_ref(c->getSubExpr());
			if (!cd && invariant(c, 0)) {
				/* a pointer read from memory the nest does not
				   write (x->q, layer->weights): the base of an
				   array of its own */
				int v = derived_var(c);
				if (v < 0)
					return false;
				auto it = derived_array.find(v);
				if (it == derived_array.end()) {
					int a = mp_nest_add_array(n, n->var[v].name, v, 0, -1);
					if (a < 0) {
						fail(loop_loc, "the nest accesses too many arrays");
						return false;
					}
					if ((int)array_base.size() <= a)
						array_base.resize(a + 1);
					array_base[a] = nullptr;
					if ((int)array_value.size() <= a)
						array_value.resize(a + 1);
					array_value[a] = c;
					it = derived_array.insert({ v, a }).first;
				}
				*arr = it->second;
				mp_aff_const(off, 0);
				return true;
			}
			if (!cd || cd->getType().isVolatileQualified())
				return false;
			VarDecl *d = const_cast<VarDecl *>(cd);
			if (defs.count(d)) {
				const Expr *init = single_def(d, p);
				if (init)
					return ptr_of(init, arr, off, depth + 1);
				if (!walking(d))
					return false;
				/* its value where it is read: the core follows it */
				*arr = array_for(d, false);
				mp_aff_const(off, 0);
				return *arr >= 0;
			}
			/* a pointer in memory (a global, or its address is
			   taken): an invariant like a parameter when the nest
			   never writes it (its bytes protected at run time) */
			if (mem_decl(d) && !invariant_memory_decl(d, c->getExprLoc()))
				return false;
			*arr = array_for(d, false);
			mp_aff_const(off, 0);
			return *arr >= 0;
		}
		default:
			return false;
		}
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(p))
		if (u->getOpcode() == UO_AddrOf)   /* &lhs[0], &x->q[j] */
			return addr_of(u->getSubExpr(), arr, off, depth + 1);
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(p)) {
		/* `*p++`, `*++p`: p's value (plus the step for ++p); the step
		   itself becomes a pointer assignment after the statement */
		const VarDecl *cd = u->isIncrementDecrementOp() ? mp_var_of_ref(u->getSubExpr())
								 : nullptr;
		int64_t sz = cd ? pointee_size(cd->getType()) : 0;
		if (!cd || !walking(cd) || sz <= 0)
			return false;
		VarDecl *d = const_cast<VarDecl *>(cd);
		int64_t step = u->isIncrementOp() ? sz : -sz;
		*arr = array_for(d, false);
		mp_aff_const(off, u->isPrefix() ? step : 0);
		if (!pending_seen.count(u)) {
			pending_seen.insert(u);
			pending_steps.push_back({ d, step });
		}
		return *arr >= 0;
	}
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(p)) {
		if (bo->getOpcode() != BO_Add && bo->getOpcode() != BO_Sub)
			return false;
		const Expr *pe = bo->getLHS(), *ie = bo->getRHS();
		if (!pe->getType()->isPointerType())
			std::swap(pe, ie);
		if (!pe->getType()->isPointerType() || !ie->getType()->isIntegerType())
			return false;
		mp_aff idx, sz;
		if (!ptr_of(pe, arr, off, depth + 1) || !aff_of(ie, &idx, depth + 1) ||
		    !size_of(pe->getType()->getPointeeType(), &sz, depth + 1) ||
		    mp_aff_mul(n, &idx, &idx, &sz))
			return false;
		if (bo->getOpcode() == BO_Sub && mp_aff_scale(&idx, &idx, -1))
			return false;
		return mp_aff_add(off, off, &idx) == 0;
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(p))
		if (u->getOpcode() == UO_AddrOf)
			return addr_of(u->getSubExpr(), arr, off, depth + 1);
	return false;
}

/* Address of lvalue LV as array + affine byte offset. */
bool mp_ctx::addr_of(const Expr *lv, int *arr, mp_aff *off, int depth)
{
	if (depth > 40 || failed)
		return false;
	lv = lv->IgnoreParens();
	if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(lv)) {
		VarDecl *d = dyn_cast<VarDecl>(const_cast<ValueDecl *>(r->getDecl()));
		if (!d)
			return false;
		*arr = array_for(d, true);
		mp_aff_const(off, 0);
		return *arr >= 0;
	}
	if (const ArraySubscriptExpr *s = dyn_cast<ArraySubscriptExpr>(lv)) {
		mp_aff idx, sz;
		if (!ptr_of(s->getBase(), arr, off, depth + 1) || !aff_of(s->getIdx(), &idx, depth + 1))
			return false;
		/* an index of a declared array type stays inside it (C) */
		const Expr *b = s->getBase()->IgnoreParens();
		if (const ImplicitCastExpr *ic = dyn_cast<ImplicitCastExpr>(b))
			if (ic->getCastKind() == CK_ArrayToPointerDecay)
				if (const ConstantArrayType *ca =
					C.getAsConstantArrayType(ic->getSubExpr()->getType()))
					cur_bounds.push_back({ idx, (int64_t)ca->getSize().getZExtValue() });
		if (!size_of(s->getType(), &sz, depth + 1) || mp_aff_mul(n, &idx, &idx, &sz))
			return false;
		return mp_aff_add(off, off, &idx) == 0;
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(lv)) {
		if (u->getOpcode() == UO_Deref)
			return ptr_of(u->getSubExpr(), arr, off, depth + 1);
		return false;
	}
	if (const MemberExpr *m = dyn_cast<MemberExpr>(lv)) {
		const FieldDecl *f = dyn_cast<FieldDecl>(m->getMemberDecl());
		if (!f || f->isBitField())
			return false;
		bool ok = m->isArrow() ? ptr_of(m->getBase(), arr, off, depth + 1)
				       : addr_of(m->getBase(), arr, off, depth + 1);
		if (!ok)
			return false;
		const ASTRecordLayout &L = C.getASTRecordLayout(f->getParent());
		mp_aff fo;
		mp_aff_const(&fo, (int64_t)C.toCharUnitsFromBits(L.getFieldOffset(f->getFieldIndex()))
					  .getQuantity());
		return mp_aff_add(off, off, &fo) == 0;
	}
	return false;
}

/* The declared object or pointer an lvalue finally goes through, or null. */
static VarDecl *base_decl(const Expr *e, bool *is_decl)
{
	for (int depth = 0; e && depth < 60; depth++) {
		e = e->IgnoreParenCasts();
		if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(e)) {
			VarDecl *d = dyn_cast<VarDecl>(const_cast<ValueDecl *>(r->getDecl()));
			*is_decl = d && !d->getType()->isPointerType();
			return d;
		}
		if (const ArraySubscriptExpr *s = dyn_cast<ArraySubscriptExpr>(e))
			e = s->getBase();
		else if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
			e = u->getSubExpr();
		else if (const MemberExpr *m = dyn_cast<MemberExpr>(e))
			e = m->getBase();
		else if (const BinaryOperator *b = dyn_cast<BinaryOperator>(e))
			e = b->getLHS()->getType()->isPointerType() ? b->getLHS() : b->getRHS();
		else
			return nullptr;
	}
	return nullptr;
}

/* Register an access to lvalue LV in statement STMT: its id, -1 on
 * overflow, -2 when the object is unknown. */
int mp_ctx::access_for(const Expr *lv, bool is_write, int stmt)
{
	int arr = -1;
	mp_aff off;
	mp_aff_const(&off, 0);
	cur_bounds.clear();
	/* an _Atomic element: its loads and stores are atomic operations
	   the kernels do not make (GCC sees __atomic_* calls and refuses;
	   found by a review helper) */
	if (lv->getType()->isAtomicType()) {
		bool dd = false;
		VarDecl *bd = base_decl(lv, &dd);
		fail(lv->getExprLoc(), "the atomic access to '%s' must stay as written",
		     bd ? bd->getNameAsString().c_str() : "?");
		return -1;
	}
	bool ok = !lv->getType().isVolatileQualified() && addr_of(lv, &arr, &off, 0);
	if (failed)
		return -1;
	if (!ok) {
		bool is_decl = false;
		VarDecl *b = base_decl(lv, &is_decl);
		if (!b)
			return -2;
		arr = array_for(b, is_decl);
		if (arr < 0)
			return -1;
		mp_aff_const(&off, 0);
	}
	QualType ty = lv->getType();
	int esz = ty->isIncompleteType() || !ty->isConstantSizeType() ? 0
		: (int)C.getTypeSizeInChars(ty).getQuantity();
	int id = mp_nest_add_access(n, arr, &off, ok ? 1 : 0, mp_scalar_of_type(C, ty), esz,
				    is_write ? 1 : 0, stmt);
	if (id < 0) {
		fail(loop_loc, "the nest has too many memory accesses");
		return -1;
	}
	n->access[id].loc = mp_loc_cookie(lv->getExprLoc());
	for (size_t b = 0; ok && b < cur_bounds.size() && b < 3; b++) {
		n->access[id].bidx[b] = cur_bounds[b].first;
		n->access[id].bext[b] = cur_bounds[b].second;
		n->access[id].nbound++;
	}
	if ((int)access_ref.size() <= id)
		access_ref.resize(id + 1);
	access_ref[id] = lv;
	return id;
}

/* -------------------------------------------------------- expressions */

/* Library functions whose only side effect is errno (as the GCC glue). */
static bool harmless_builtin(const FunctionDecl *fd)
{
	if (!fd->getBuiltinID())
		return false;
	static const char *const names[] = {
		"lrint", "llrint", "lround", "llround", "rint", "nearbyint", "round", "floor",
		"ceil", "trunc", "fabs", "fmin", "fmax", "exp", "sqrt", "tanh", NULL
	};
	StringRef nm = fd->getName();
	if (mpc::starts_with(nm, "__builtin_"))
		nm = nm.drop_front(10);
	if (nm == "abs" || nm == "labs" || nm == "llabs")
		return true;
	for (int i = 0; names[i]; i++)
		if (nm == names[i] || nm == std::string(names[i]) + "f" || nm == std::string(names[i]) + "l")
			return true;
	return false;
}

static bool callee_ok(const FunctionDecl *fd, int depth);

/* Is lvalue LV an automatic variable of function FN (or a part of one:
 * an element of a local array, a member of a local struct)? */
static bool local_lvalue(const Expr *lv, const FunctionDecl *fn)
{
	for (;;) {
		lv = lv->IgnoreParenImpCasts();
		if (const ArraySubscriptExpr *a = dyn_cast<ArraySubscriptExpr>(lv)) {
			const Expr *b = a->getBase()->IgnoreParenImpCasts();
			if (!b->getType()->isArrayType() && !isa<DeclRefExpr>(b))
				return false;
			/* through a pointer, not a local array */
			if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(b))
				if (!r->getDecl()->getType()->isArrayType())
					return false;
			lv = b;
			continue;
		}
		if (const MemberExpr *m = dyn_cast<MemberExpr>(lv)) {
			if (m->isArrow())
				return false;
			lv = m->getBase();
			continue;
		}
		break;
	}
	const DeclRefExpr *r = dyn_cast<DeclRefExpr>(lv);
	const VarDecl *v = r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
	return v && v->getDeclContext() == fn && !v->isStaticLocal() && !v->hasGlobalStorage() &&
	       !v->getType().isVolatileQualified();
}

/* memcpy, memmove or memset (or their _chk forms) into a whole automatic
 * variable of FN, of a constant size within it: `memcpy(&s, &f, 2)`, the
 * type pun of ggml's fp16 lookup.  The GCC glue's local_mem_call. */
static bool local_mem_call(const CallExpr *c, const FunctionDecl *fn)
{
	const FunctionDecl *cd = c->getDirectCallee();
	if (!cd || c->getNumArgs() < 3)
		return false;
	switch (cd->getBuiltinID()) {
	case Builtin::BImemcpy: case Builtin::BI__builtin_memcpy:
	case Builtin::BImemmove: case Builtin::BI__builtin_memmove:
	case Builtin::BImemset: case Builtin::BI__builtin_memset:
	case Builtin::BI__builtin___memcpy_chk: case Builtin::BI__builtin___memmove_chk:
	case Builtin::BI__builtin___memset_chk:
		break;
	default:
		return false;
	}
	const Expr *d = c->getArg(0)->IgnoreParenCasts();
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(d))
		if (u->getOpcode() == UO_AddrOf)
			d = u->getSubExpr()->IgnoreParens();
	const DeclRefExpr *r = dyn_cast<DeclRefExpr>(d);
	const ASTContext &C = fn->getASTContext();
	Expr::EvalResult size;
	if (!r || !local_lvalue(r, fn) || r->getType()->isIncompleteType() ||
	    !c->getArg(2)->EvaluateAsInt(size, C))
		return false;
	return size.Val.getInt().getZExtValue() <=
	       (uint64_t)C.getTypeSizeInChars(r->getType()).getQuantity();
}

/* The body of FN stores only to its own automatic variables and calls
 * only functions that pass callee_ok (the GCC glue's rule, call_ok). */
static bool body_ok(const Stmt *s, const FunctionDecl *fn, int depth)
{
	if (!s)
		return true;
	if (isa<AsmStmt>(s))
		return false;
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(s))
		if (bo->isAssignmentOp() && !local_lvalue(bo->getLHS(), fn))
			return false;
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(s))
		if (u->isIncrementDecrementOp() && !local_lvalue(u->getSubExpr(), fn))
			return false;
	if (const CallExpr *c = dyn_cast<CallExpr>(s)) {
		const FunctionDecl *cd = c->getDirectCallee();
		if (!cd || (!local_mem_call(c, fn) && !callee_ok(cd, depth + 1)))
			return false;
	}
	for (const Stmt *k : s->children())
		if (!body_ok(k, fn, depth))
			return false;
	return true;
}

/* Can a call to FD write memory the nest reads?  Attributes answer first,
 * then the math functions whose only side effect is errno; otherwise FD's
 * body, when this translation unit defines it before the nest, is read: it
 * may only store to its own automatic variables and call functions that
 * pass the same test (4 levels deep).  The rule of the GCC glue. */
static bool callee_ok(const FunctionDecl *fd, int depth)
{
	if (fd->hasAttr<ConstAttr>() || fd->hasAttr<PureAttr>())
		return true;
	if (harmless_builtin(fd))
		return true;
	const FunctionDecl *def = nullptr;
	if (depth > 4 || !fd->hasBody(def) || !def || def->isVariadic())
		return false;
	return body_ok(def->getBody(), def, depth);
}

std::string mp_call_effects(const CallExpr *c)
{
	char buf[MP_REASON_LEN];
	snprintf(buf, sizeof buf, MP_MSG_CALL_EFFECTS, mp_callee_name(c).c_str());
	return buf;
}

bool mp_harmless_call(const CallExpr *c)
{
	const FunctionDecl *fd = c->getDirectCallee();
	return fd && callee_ok(fd, 0);
}

std::string mp_callee_name(const CallExpr *c)
{
	const FunctionDecl *fd = c->getDirectCallee();
	return fd ? fd->getName().str() : std::string("<indirect>");
}

static const char *binop_name(BinaryOperatorKind k)
{
	return BinaryOperator::getOpcodeStr(k).data();
}

/* The value read from lvalue LV. */
int mp_ctx::rvalue_of(const Expr *lv, int stmt, int depth)
{
	mp_scalar ty = mp_scalar_of_type(C, lv->getType());
	const VarDecl *cd = mp_var_of_ref(lv);
	if (cd && !cd->getType().isVolatileQualified()) {
		VarDecl *d = const_cast<VarDecl *>(cd);
		auto it = iter_var.find(d);
		if (it != iter_var.end())
			return var_expr(it->second, ty);
		if (stepped.count(d)) {
			/* W0 - C*LO + C*V, as the sum of its terms */
			mp_aff a;
			if (!stepped_at(d, lv, &a)) {
				fail(lv->getExprLoc(), "'%s' is stepped beside a loop of the nest and "
				     "read outside it", d->getNameAsString().c_str());
				return -1;
			}
			int e = mp_nest_add_aff_expr(n, &a, ty);
			if (e < 0)
				fail(lv->getExprLoc(), "%s", n->error[0] ? n->error
				     : "the nest has too many operations");
			return e;
		}
		if (!mem_decl(d))
			return var_expr(var_for(d, defs.count(d) ? MP_VAR_LOCAL : MP_VAR_PARAM), ty);
		/* a scalar global or static read and never written in the nest is
		   an invariant like a parameter */
		if (!stored_decls.count(d) && !defs.count(d) && !has_opaque &&
		    invariant_memory_decl(d, lv->getExprLoc()))
			return var_expr(var_for(d, MP_VAR_PARAM), ty);
	}
	int acc = access_for(lv, false, stmt);
	if (acc == -1)
		return -1;
	int e = add_expr(MP_X_LOAD, ty, -1, -1);
	if (e >= 0)
		n->expr[e].access = acc < 0 ? -1 : acc;
	if (acc < 0 && e >= 0) {
		n->expr[e].kind = MP_X_OTHER;
		snprintf(n->expr[e].op, sizeof n->expr[e].op, "load");
	}
	return e;
}

static int other(mp_ctx &c, mp_scalar ty, const char *op, int a, int b)
{
	int e = c.add_expr(MP_X_OTHER, ty, a, b);
	if (e >= 0)
		snprintf(c.n->expr[e].op, sizeof c.n->expr[e].op, "%s", op);
	return e;
}

/* An arithmetic expression of literals only (casts, unary +/-, + - * /):
 * GCC's C front end folds it to one constant (-2.0, 1.0f/127, (float)2),
 * so the description holds one constant for it too. */
static bool literal_arith(const Expr *e, int depth)
{
	if (!e || depth > 20)
		return false;
	e = e->IgnoreParens();
	if (isa<FloatingLiteral>(e) || isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e))
		return true;
	if (const CastExpr *c = dyn_cast<CastExpr>(e)) {
		switch (c->getCastKind()) {
		case CK_NoOp: case CK_IntegralCast: case CK_IntegralToFloating:
		case CK_FloatingCast: case CK_FloatingToIntegral:
			return literal_arith(c->getSubExpr(), depth + 1);
		default:
			return false;
		}
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
		return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus) &&
		       literal_arith(u->getSubExpr(), depth + 1);
	if (const BinaryOperator *b = dyn_cast<BinaryOperator>(e)) {
		BinaryOperatorKind k = b->getOpcode();
		return (k == BO_Add || k == BO_Sub || k == BO_Mul || k == BO_Div) &&
		       literal_arith(b->getLHS(), depth + 1) && literal_arith(b->getRHS(), depth + 1);
	}
	return false;
}

int mp_ctx::expr_of(const Expr *e, int stmt, int depth)
{
	if (failed || depth > 60)
		return -1;
	e = e->IgnoreParens();
	mp_scalar ty = mp_scalar_of_type(C, e->getType());
	if (const IntegerLiteral *il = dyn_cast<IntegerLiteral>(e)) {
		int x = add_expr(MP_X_CONST, ty, -1, -1);
		if (x >= 0)
			n->expr[x].cst = il->getValue().getLimitedValue() > (uint64_t)INT64_MAX
				? (int64_t)il->getValue().getZExtValue() : (int64_t)il->getValue().getSExtValue();
		return x;
	}
	if (const CharacterLiteral *cl = dyn_cast<CharacterLiteral>(e)) {
		int x = add_expr(MP_X_CONST, ty, -1, -1);
		if (x >= 0)
			n->expr[x].cst = (int64_t)cl->getValue();
		return x;
	}
	if (const FloatingLiteral *fl = dyn_cast<FloatingLiteral>(e)) {
		int x = add_expr(MP_X_CONST, ty, -1, -1);
		if (x >= 0)
			n->expr[x].fcst = fl->getValueAsApproximateDouble();
		return x;
	}
	if ((ty == MP_TY_F32 || ty == MP_TY_F64) && literal_arith(e, 0)) {
		llvm::APFloat f(0.0);
		if (e->EvaluateAsFloat(f, C)) {
			bool loses;
			f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &loses);
			int x = add_expr(MP_X_CONST, ty, -1, -1);
			if (x >= 0)
				n->expr[x].fcst = f.convertToDouble();
			return x;
		}
	}
	if (e->getType()->isIntegerType() && !e->HasSideEffects(C) && !isa<DeclRefExpr>(e) &&
	    !isa<CastExpr>(e)) {
		Expr::EvalResult res;
		if (e->EvaluateAsInt(res, C) && mpc::min_signed_bits(res.Val.getInt()) <= 64) {
			int x = add_expr(MP_X_CONST, ty, -1, -1);
			if (x >= 0)
				n->expr[x].cst = res.Val.getInt().getSExtValue();
			return x;
		}
	}
	if (const CastExpr *c = dyn_cast<CastExpr>(e)) {
		const Expr *sub = c->getSubExpr();
		switch (c->getCastKind()) {
		case CK_LValueToRValue:
			return rvalue_of(sub, stmt, depth + 1);
		case CK_NoOp:
		case CK_ToVoid:
			return expr_of(sub, stmt, depth + 1);
		case CK_ArrayToPointerDecay:
		case CK_FunctionToPointerDecay:
			return other(*this, ty, "addr", -1, -1);
		default: {
			int na0 = n->naccesses;
			int a = expr_of(sub, stmt, depth + 1);
			if (a < 0)
				return a;
			/* `(int8_t)(inside ? in[...] : 300)`, `int8_t v = inside ?
			   in[...] : 300;`: the select's other value converted as
			   the whole select is (44), as GCC's front end folds it */
			if (c->getCastKind() == CK_IntegralCast &&
			    isa<ConditionalOperator>(sub->IgnoreParens()) &&
			    e->getType()->isIntegerType()) {
				unsigned w = C.getIntWidth(e->getType());
				bool sg = e->getType()->isSignedIntegerType();
				for (int q = na0; q < n->naccesses && w < 64; q++) {
					if (!n->access[q].conds)
						continue;
					llvm::APSInt v(llvm::APInt(64, (uint64_t)n->access[q].padv,
								   true), false);
					v = v.extOrTrunc(w);
					v.setIsSigned(sg);
					n->access[q].padv = sg ? v.getSExtValue()
							       : (int64_t)v.getZExtValue();
				}
			}
			if (mp_scalar_of_type(C, sub->getType()) == ty && ty != MP_TY_OTHER &&
			    !e->getType()->isBooleanType())
				return a;   /* int -> int32_t and the like: no conversion */
			return add_expr(MP_X_CAST, ty, a, -1);
		}
		}
	}
	if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e)) {
		BinaryOperatorKind k = bo->getOpcode();
		if (bo->isAssignmentOp()) {
			stmt_opaque = "an assignment inside an expression";
			return other(*this, ty, "=", -1, -1);
		}
		/* x - -y is x + y (the C front ends of GCC fold it too) */
		const UnaryOperator *neg = dyn_cast<UnaryOperator>(bo->getRHS()->IgnoreParens());
		if (k == BO_Sub && neg && neg->getOpcode() == UO_Minus &&
		    neg->getType() == bo->getRHS()->getType()) {
			int a = expr_of(bo->getLHS(), stmt, depth + 1);
			return add_expr(MP_X_ADD, ty, a, expr_of(neg->getSubExpr(), stmt, depth + 1));
		}
		/* x / c with c a literal power of two is x * (1/c), exactly: GCC's
		   front end folds it so, and the core then sees a scalar factor
		   (s += A*B / 2 transforms under both compilers) */
		if (k == BO_Div && (ty == MP_TY_F32 || ty == MP_TY_F64) &&
		    literal_arith(bo->getRHS(), 0)) {
			llvm::APFloat f(0.0);
			if (bo->getRHS()->EvaluateAsFloat(f, C)) {
				bool loses;
				f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
					  &loses);
				double v = f.convertToDouble();
				int ex;
				if (!loses && std::isfinite(v) && v != 0 &&
				    std::frexp(std::fabs(v), &ex) == 0.5 &&
				    std::isfinite(1.0 / v) && (ty == MP_TY_F64 || (double)(float)(1.0 / v) == 1.0 / v)) {
					int a = expr_of(bo->getLHS(), stmt, depth + 1);
					int r = add_expr(MP_X_CONST, ty, -1, -1);
					if (r >= 0)
						n->expr[r].fcst = 1.0 / v;
					return add_expr(MP_X_MUL, ty, a, r);
				}
			}
		}
		int a = expr_of(bo->getLHS(), stmt, depth + 1);
		int b = expr_of(bo->getRHS(), stmt, depth + 1);
		bool ptr = bo->getLHS()->getType()->isPointerType() || bo->getRHS()->getType()->isPointerType();
		if (!ptr && (k == BO_Add || k == BO_Sub || k == BO_Mul))
			return add_expr(k == BO_Add ? MP_X_ADD : k == BO_Sub ? MP_X_SUB : MP_X_MUL, ty, a, b);
		return other(*this, ty, binop_name(k), a, b);
	}
	if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e)) {
		switch (u->getOpcode()) {
		case UO_Plus:
			return expr_of(u->getSubExpr(), stmt, depth + 1);
		case UO_Minus:
			return add_expr(MP_X_NEG, ty, expr_of(u->getSubExpr(), stmt, depth + 1), -1);
		case UO_Not:
			if (mp_scalar_is_int(ty)) {
				/* ~x: -(x + 1), exact in wrapping arithmetic (as
				   GCC's glue reads its folding of `-(x + 1)`) */
				int x = expr_of(u->getSubExpr(), stmt, depth + 1);
				int one = add_expr(MP_X_CONST, ty, -1, -1);
				if (one >= 0) {
					n->expr[one].cst = 1;
					n->expr[one].fcst = 1.0;
				}
				return add_expr(MP_X_NEG, ty, add_expr(MP_X_ADD, ty, x, one), -1);
			}
			return other(*this, ty, "~", expr_of(u->getSubExpr(), stmt, depth + 1), -1);
		case UO_Deref:
			return rvalue_of(u, stmt, depth + 1);
		case UO_PreInc: case UO_PreDec: case UO_PostInc: case UO_PostDec:
			stmt_opaque = "an increment inside an expression";
			return other(*this, ty, "++", -1, -1);
		default:
			return other(*this, ty, UnaryOperator::getOpcodeStr(u->getOpcode()).data(),
				     expr_of(u->getSubExpr(), stmt, depth + 1), -1);
		}
	}
	if (const ConditionalOperator *co = dyn_cast<ConditionalOperator>(e)) {
		/* `inside ? in[...] : 0`: a load under conditions, the constant
		   elsewhere (padding written as a select) */
		for (int arm = 0; arm < 2 && !co->getCond()->HasSideEffects(C); arm++) {
			const Expr *ld = arm ? co->getFalseExpr() : co->getTrueExpr();
			const Expr *k = arm ? co->getTrueExpr() : co->getFalseExpr();
			int64_t kv;
			Expr::EvalResult er;
			llvm::APFloat kf(0.0);
			if (k->getType()->isIntegerType() && k->EvaluateAsInt(er, C) &&
			    mpc::min_signed_bits(er.Val.getInt()) <= 64)
				kv = er.Val.getInt().getSExtValue();
			else if (k->getType()->isRealFloatingType() && k->EvaluateAsFloat(kf, C) &&
				 kf.isZero())
				kv = 0;
			else
				continue;
			/* a trial: a condition that is not affine in the
			   iterators (`c[i] > 0 ? c[i] : 0`, a ReLU over the
			   output) is translated below as any ?:, its loads as
			   accesses; what the trial refused (an element read as
			   a loop-invariant value) does not refuse the nest */
			unsigned set = 0;
			bool was_failed = failed;
			if (!conds_of(co->getCond(), arm != 0, &set, 0) || !set) {
				if (!was_failed && failed) {
					failed = false;
					fail_text.clear();
					fail_loc = SourceLocation();
				}
				continue;
			}
			int na0 = n->naccesses, ne0 = n->nexprs;
			int x = expr_of(ld, stmt, depth + 1);
			int y = x;
			while (y >= 0 && n->expr[y].kind == MP_X_CAST)
				y = n->expr[y].a;
			int bv = y >= 0 && n->expr[y].kind == MP_X_LOAD && n->expr[y].access >= 0
				 ? n->array[n->access[n->expr[y].access].array].base_var : -1;
			if (y < 0 || n->expr[y].kind != MP_X_LOAD || n->expr[y].access < 0 ||
			    (bv >= 0 && n->var[bv].kind == MP_VAR_LOCAL)) {
				/* not a load, or one through a walking pointer: as
				   any ?: (the description made here undone) */
				n->naccesses = na0, n->nexprs = ne0;
				break;
			}
			n->access[n->expr[y].access].conds |= set;
			n->access[n->expr[y].access].padv = kv;
			return x;
		}
		int cnd = expr_of(co->getCond(), stmt, depth + 1);
		int t = expr_of(co->getTrueExpr(), stmt, depth + 1);
		int f = expr_of(co->getFalseExpr(), stmt, depth + 1);
		return other(*this, ty, "?:", cnd, other(*this, ty, "?:", t, f));
	}
	if (const CallExpr *call = dyn_cast<CallExpr>(e)) {
		std::string name = mp_callee_name(call);
		if (!mp_harmless_call(call)) {
			stmt_opaque = mp_call_effects(call);
			return other(*this, ty, name.c_str(), -1, -1);
		}
		unsigned na = call->getNumArgs();
		int x = add_expr(na <= MP_MAX_ARGS ? MP_X_CALL : MP_X_OTHER, ty, -1, -1);
		if (x < 0)
			return -1;
		snprintf(n->expr[x].op, sizeof n->expr[x].op, "%s", name.c_str());
		/* mixprec.h's helpers are fused for what they compute: a function
		   of another origin with one of their names is the user's own */
		if (const FunctionDecl *fd = call->getDirectCallee()) {
			const SourceManager &SM = C.getSourceManager();
			StringRef file = SM.getFilename(SM.getSpellingLoc(fd->getLocation()));
			if (name.compare(0, 3, "mp_") == 0 &&
			    llvm::sys::path::filename(file) != "mixprec.h")
				snprintf(n->expr[x].op, sizeof n->expr[x].op, "%.30s (user)",
					 name.c_str());
		}
		for (unsigned i = 0; i < na; i++) {
			int a = expr_of(call->getArg(i), stmt, depth + 1);
			if (i < MP_MAX_ARGS && na <= MP_MAX_ARGS)
				n->expr[x].args[i] = a;
			if (i == 0) n->expr[x].a = a;
			if (i == 1) n->expr[x].b = a;
		}
		if (na <= MP_MAX_ARGS)
			n->expr[x].nargs = (int)na;
		return x;
	}
	if (isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) || isa<DeclRefExpr>(e))
		return rvalue_of(e, stmt, depth + 1);
	if (e->HasSideEffects(C))
		stmt_opaque = std::string("a '") + e->getStmtClassName() + "' expression with side effects";
	return other(*this, ty, e->getStmtClassName(), -1, -1);
}
