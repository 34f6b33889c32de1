/* rewrite.cc -- the core's plan back into the function's AST, built
 * through Sema before code generation.  Nothing is duplicated: both paths
 * live in the one copy of the nest (as plugin-gcc/rewrite.cc, the
 * reference for the runtime's argument list, documented in runtime/nest.c).
 *
 *   DIRECT / FUSED:                       TILE:
 *   {                                     {
 *     long __mixprec_M = .., __mixprec_N = ..;   (same three declarations)
 *     void *__mixprec_tile =                    for i ... {
 *         __mixprec_i8_nest(ABI, nargs, ...);      init;
 *     if (__mixprec_tile == 0)                     if (__mixprec_tile != 0)
 *       <the original nest>                          s += ((int *)__mixprec_tile)[(i-lo_i)*N + (j-lo_j)];
 *     else { <final values of iterators read     else
 *             after the nest, each inner one         <the original loop k>
 *             under "its outer loops ran"> }
 *   }                                              epi; }
 *                                               __mixprec_release(__mixprec_tile);
 *                                             }
 * When loop k encloses the rest of the chain (ikj order), the tile read is
 * one call __mixprec_tile_add(...) adding the tile's slice to the output
 * (its last argument dt: 0 int32, 1 float, 2 double tile and output;
 * plus 4 where the source subtracts the sum, `C -= a*b`).
 *
 * A floating-point source (plan.src_float) calls __mixprec_lp_nest instead
 * (same shape, its own argument list from the same recipes) and its TILE
 * holds float or double (plan.src_type): T[i][j] is read with that element
 * type and converted to the accumulator's type, or added by
 * __mixprec_tile_add with dt 1 / 2 in ikj order.  Its recipes also hold
 * the scalar factor and the explicit scales as a double's 64 bits
 * (MP_ARG_EXPR_F64, MP_ARG_SCALE_F64: `double d = x; long u;
 * memcpy(&u, &d, 8)` before the call), the per-channel scale arrays
 * (MP_ARG_SCALE_PTR: the variable the pragma's name resolved to, plus the
 * loop's lower bound) and the nest's "FILE:LINE" (MP_ARG_LOC, a string
 * literal) for the run-time verify report.
 */
#include <cfloat>
#include "mp-clang.h"

using namespace clang;

namespace {
struct mp_build {
	mp_ctx &c;
	ASTContext &C;
	Sema &S;
	SourceLocation L;
	bool bad = false;
	/* when set, only the ITERs marked here are taken at their lower bound */
	const std::vector<char> *lo_only = nullptr;
	/* the plan whose boxes stand for loop bounds: a triangular nest's
	   loops i and j take their tile box's (plan.tri), written ranges the
	   nest-wide ranges (plan.range_lo/hi); null: the loops' own bounds */
	const mp_plan *bx = nullptr;

	/* 0 / 1 when loop L is the loop i / j of a triangular plan, else -1 */
	int role(int l)
	{
		return bx && bx->tri ? (l == bx->loop_i ? 0 : l == bx->loop_j ? 1 : -1) : -1;
	}
	const mp_aff *lo_of(int l) { return role(l) >= 0 ? &bx->box_lo[role(l)] : &c.n->loop[l].lo; }
	const mp_aff *hi_of(int l) { return role(l) >= 0 ? &bx->box_hi[role(l)] : &c.n->loop[l].hi; }

	/* code for outside the OpenMP directive on the nest (c.omp): the
	   expressions taken as written (x->q, n / 32) come from inside its
	   region, where their references are marked as captures; they are
	   copied with references for the outside (as_written) */
	bool outside_omp = false;

	explicit mp_build(mp_ctx &cc) : c(cc), C(cc.C), S(cc.S), L(cc.loop_loc) {}

	static bool has_capture_ref(const Stmt *s)
	{
		if (!s)
			return false;
		if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(s))
			if (r->refersToEnclosingVariableOrCapture())
				return true;
		for (const Stmt *k : s->children())
			if (has_capture_ref(k))
				return true;
		return false;
	}

	/* E as written, for where the code being built goes: itself, or
	   outside an OpenMP directive a copy whose variable references are
	   built anew (the forms operands' bases and derived values take;
	   anything else sets bad) */
	Expr *as_written(const Expr *e)
	{
		if (!outside_omp || !has_capture_ref(e))
			return const_cast<Expr *>(e);
		return copy_out(e);
	}
	Expr *copy_out(const Expr *e)
	{
		if (const DeclRefExpr *r = dyn_cast<DeclRefExpr>(e))
			return ref(const_cast<ValueDecl *>(r->getDecl()));
		if (const ParenExpr *p = dyn_cast<ParenExpr>(e))
			return paren(copy_out(p->getSubExpr()));
		if (const ImplicitCastExpr *ic = dyn_cast<ImplicitCastExpr>(e)) {
			if (ic->getCastKind() == CK_LValueToRValue ||
			    ic->getCastKind() == CK_ArrayToPointerDecay ||
			    ic->getCastKind() == CK_FunctionToPointerDecay)
				return ImplicitCastExpr::Create(C, ic->getType(), ic->getCastKind(),
								copy_out(ic->getSubExpr()), nullptr,
								ic->getValueKind(), FPOptionsOverride());
			return cast(ic->getType(), copy_out(ic->getSubExpr()));
		}
		if (const CStyleCastExpr *cc = dyn_cast<CStyleCastExpr>(e))
			return cast(cc->getType(), copy_out(cc->getSubExpr()));
		if (const MemberExpr *me = dyn_cast<MemberExpr>(e))
			return MemberExpr::Create(C, copy_out(me->getBase()), me->isArrow(), L,
						  NestedNameSpecifierLoc(), SourceLocation(),
						  me->getMemberDecl(), me->getFoundDecl(),
						  me->getMemberNameInfo(), nullptr, me->getType(),
						  me->getValueKind(), me->getObjectKind(), NOUR_None);
		if (const UnaryOperator *u = dyn_cast<UnaryOperator>(e))
			return un(u->getOpcode(), copy_out(u->getSubExpr()));
		if (const BinaryOperator *b = dyn_cast<BinaryOperator>(e))
			return bin(b->getOpcode(), copy_out(b->getLHS()), copy_out(b->getRHS()));
		if (const ArraySubscriptExpr *a = dyn_cast<ArraySubscriptExpr>(e))
			return ok(S.CreateBuiltinArraySubscriptExpr(copy_out(a->getBase()), L,
								    copy_out(a->getIdx()), L));
		if (const ConditionalOperator *co = dyn_cast<ConditionalOperator>(e))
			return cond(copy_out(co->getCond()), copy_out(co->getTrueExpr()),
				    copy_out(co->getFalseExpr()));
		if (!has_capture_ref(e))
			return const_cast<Expr *>(e);
		bad = true;
		return lit(0);
	}

	Expr *ok(ExprResult r)
	{
		if (r.isInvalid() || !r.get()) {
			bad = true;
			return IntegerLiteral::Create(C, llvm::APInt(64, 0), C.LongTy, L);
		}
		return r.get();
	}
	Expr *lit(int64_t v) { return IntegerLiteral::Create(C, llvm::APInt(64, (uint64_t)v, true), C.LongTy, L); }
	Expr *ref(ValueDecl *d)
	{
		/* inside an OpenMP region, a local of the enclosing function is
		   reached through the region's capture (Sema, past the region,
		   would not mark the reference so) */
		VarDecl *vd = dyn_cast<VarDecl>(d);
		if (c.captured && vd && vd->hasLocalStorage() &&
		    !c.captured->getCapturedDecl()->Encloses(vd->getDeclContext()))
			return DeclRefExpr::Create(C, NestedNameSpecifierLoc(), SourceLocation(), vd,
						   /*RefersToEnclosingVariableOrCapture=*/true, L,
						   vd->getType().getNonReferenceType(), VK_LValue);
		return ok(S.BuildDeclarationNameExpr(CXXScopeSpec(), DeclarationNameInfo(d->getDeclName(), L), d));
	}
	Expr *cast(QualType t, Expr *e)
	{
		return ok(S.BuildCStyleCastExpr(L, C.getTrivialTypeSourceInfo(t, L), L, e));
	}
	Expr *lng(Expr *e) { return cast(C.LongTy, e); }
	Expr *bin(BinaryOperatorKind k, Expr *a, Expr *b) { return ok(S.BuildBinOp(nullptr, L, k, a, b)); }
	Expr *un(UnaryOperatorKind k, Expr *a) { return ok(S.BuildUnaryOp(nullptr, L, k, a)); }
	Expr *paren(Expr *e) { return new (C) ParenExpr(L, L, e); }
	Expr *cond(Expr *x, Expr *a, Expr *b) { return ok(S.ActOnConditionalOp(L, L, x, a, b)); }
	/* max(a, b) of two freshly built expressions (each is built twice) */
	template <typename F, typename G> Expr *max(F a, G b)
	{
		return paren(cond(bin(BO_GT, paren(a()), paren(b())), a(), b()));
	}
	template <typename F, typename G> Expr *min(F a, G b)
	{
		return paren(cond(bin(BO_LT, paren(a()), paren(b())), a(), b()));
	}

	/* Whether E divides (or takes a remainder) by an integer that is
	   not a constant. */
	bool var_div(const Expr *e)
	{
		if (const BinaryOperator *bo = dyn_cast<BinaryOperator>(e))
			if ((bo->getOpcode() == BO_Div || bo->getOpcode() == BO_Rem) &&
			    bo->getType()->isIntegerType() && !bo->getRHS()->isIntegerConstantExpr(C))
				return true;
		for (const Stmt *k : e->children())
			if (const Expr *ke = dyn_cast_or_null<Expr>(k))
				if (var_div(ke))
					return true;
		return false;
	}

	/* E (a derived value: evaluated before the nest, also where the loop
	   as written never evaluates it, `k < K / d` inside a loop without
	   iterations with d == 0) with each division and remainder by a
	   divisor that is not a constant made unable to trap: divisor 0
	   gives 0, -1 the negated dividend (remainder 0), in the operation's
	   own type; where the loop does evaluate it, the values that change
	   are the ones C leaves undefined.  Rebuilt through parentheses,
	   casts and arithmetic; a division elsewhere (inside a subscript) is
	   left as written. */
	Expr *no_trap(Expr *e)
	{
		if (!var_div(e))
			return e;
		if (ParenExpr *p = dyn_cast<ParenExpr>(e))
			return paren(no_trap(p->getSubExpr()));
		if (ImplicitCastExpr *ic = dyn_cast<ImplicitCastExpr>(e)) {
			if (ic->getCastKind() != CK_IntegralCast && ic->getCastKind() != CK_NoOp)
				return e;
			return cast(ic->getType(), no_trap(ic->getSubExpr()));
		}
		if (CStyleCastExpr *cc = dyn_cast<CStyleCastExpr>(e))
			return cc->getType()->isIntegerType() ? cast(cc->getType(), no_trap(cc->getSubExpr()))
							      : e;
		if (UnaryOperator *u = dyn_cast<UnaryOperator>(e)) {
			UnaryOperatorKind k = u->getOpcode();
			return k == UO_Minus || k == UO_Plus || k == UO_Not || k == UO_LNot
			       ? un(k, no_trap(u->getSubExpr())) : e;
		}
		if (ConditionalOperator *co = dyn_cast<ConditionalOperator>(e))
			return cond(no_trap(co->getCond()), no_trap(co->getTrueExpr()),
				    no_trap(co->getFalseExpr()));
		BinaryOperator *bo = dyn_cast<BinaryOperator>(e);
		if (!bo || bo->isAssignmentOp() || bo->getOpcode() == BO_Comma)
			return e;
		BinaryOperatorKind k = bo->getOpcode();
		Expr *a = no_trap(bo->getLHS()), *b = no_trap(bo->getRHS());
		QualType t = bo->getType();
		if ((k != BO_Div && k != BO_Rem) || !t->isIntegerType() ||
		    bo->getRHS()->isIntegerConstantExpr(C))
			return bin(k, a, b);
		Expr *zero = cast(t, lit(0));
		Expr *bad = bin(BO_EQ, paren(b), lit(0));
		Expr *q = bin(k, a, b), *v;
		if (t->isSignedIntegerType()) {
			Expr *m1 = bin(BO_EQ, paren(b), lit(-1));
			v = k == BO_Rem ? cond(bin(BO_LOr, bad, m1), zero, q)
					: cond(bad, zero, cond(m1, cast(t, un(UO_Minus, paren(a))), q));
		} else {
			v = cond(bad, zero, q);
		}
		return paren(cast(t, v));
	}

	/* The value of variable V: its declaration, or the expression a
	   derived parameter stands for (n / 32, x->n), as written
	   (no_trap). */
	Expr *value(int v)
	{
		const mp_var &mv = c.n->var[v];
		if (mv.prod[0] >= 0 && mv.prod[1] >= 0)   /* a product variable */
			return paren(bin(BO_Mul, lng(value(mv.prod[0])), lng(value(mv.prod[1]))));
		auto it = c.var_value.find(v);
		if (it != c.var_value.end())
			return paren(no_trap(as_written(it->second)));
		return ref(c.var_decl[v]);
	}

	/* Value of variable V as a long; ITERs at their lower bound if AT_LO. */
	Expr *var(int v, bool at_lo)
	{
		const mp_var &mv = c.n->var[v];
		if (mv.kind == MP_VAR_ITER && at_lo && (!lo_only || (*lo_only)[v]))
			return paren(aff(lo_of(mv.loop), true));
		return lng(value(v));
	}

	Expr *aff(const mp_aff *a, bool at_lo)
	{
		Expr *r = lit(a->cst);
		for (int i = 0; i < a->n; i++) {
			Expr *t = bin(BO_Mul, lit(a->t[i].coef), var(a->t[i].v1, at_lo));
			if (a->t[i].v2 >= 0)
				t = bin(BO_Mul, t, var(a->t[i].v2, at_lo));
			r = bin(BO_Add, r, t);
		}
		return r;
	}

	/* The step of the loop iterator IT drives when it is larger than 1
	   (the kernels count iterations, the description values), else 1. */
	int64_t step_of(int it)
	{
		const mp_var &v = c.n->var[it];
		return v.kind == MP_VAR_ITER && v.loop >= 0 && c.n->loop[v.loop].step > 1
		       ? c.n->loop[v.loop].step : 1;
	}

	/* The PARAM a loop steps by (`j += GS`), or -1 */
	int step_var_of(int it)
	{
		const mp_var &v = c.n->var[it];
		return v.kind == MP_VAR_ITER && v.loop >= 0 ? c.n->loop[v.loop].step_var : -1;
	}

	/* Bytes between two iterations of the loop iterator IT drives in A. */
	Expr *coef(const mp_aff *a, int it)
	{
		mp_aff k;
		mp_aff_coef_of(a, it, &k);
		int sv = step_var_of(it);
		if (sv >= 0)
			return bin(BO_Mul, paren(aff(&k, true)), var(sv, false));
		mp_aff_scale(&k, &k, step_of(it));
		return aff(&k, true);
	}

	/* max(hi - lo + s, 0) / s: the iterations of loop L (s its step); a
	   step by a variable: that, or -1 when it is not positive (the call
	   falls back) */
	Expr *extent(int l)
	{
		if (l < 0)
			return lit(1);
		int64_t s = c.n->loop[l].step > 1 ? c.n->loop[l].step : 1;
		int sv = c.n->loop[l].step_var;
		if (sv >= 0) {
			Expr *e = max([&] { return bin(BO_Add, bin(BO_Sub, aff(hi_of(l), true),
								    paren(aff(lo_of(l), true))),
						       var(sv, false)); },
				      [&] { return lit(0); });
			return paren(cond(bin(BO_GT, var(sv, false), lit(0)),
					  paren(bin(BO_Div, e, var(sv, false))), lit(-1)));
		}
		Expr *e = max([&] { return bin(BO_Add, bin(BO_Sub, aff(hi_of(l), true),
							    paren(aff(lo_of(l), true))), lit(s)); },
			      [&] { return lit(0); });
		return s > 1 ? paren(bin(BO_Div, e, lit(s))) : e;
	}

	/* The iteration number of iterator IT's loop: (it - lo) / step. */
	/* RSTEP, where given, a local holding (1 + 2^-52) / step for a step
	   set at run time: the quotient of an exact multiple as a product
	   truncated, no division per read; exact while the quotient, an
	   index into an allocated tile, is below 2^50 (the GCC glue's
	   mp_mat::iteration says why). */
	Expr *iteration(int it, VarDecl *rstep = nullptr)
	{
		Expr *d = bin(BO_Sub, var(it, false), paren(var(it, true)));
		int sv = step_var_of(it);
		if (sv >= 0 && rstep)
			return paren(lng(paren(bin(BO_Mul, cast(C.DoubleTy, paren(d)), ref(rstep)))));
		if (sv >= 0)   /* positive on the fast path (extent) */
			return paren(bin(BO_Div, paren(d),
					 max([&] { return var(sv, false); }, [&] { return lit(1); })));
		int64_t s = step_of(it);
		return s > 1 ? paren(bin(BO_Div, paren(d), lit(s))) : d;
	}

	/* Base address of array A as a `char *`. */
	Expr *base(int a)
	{
		VarDecl *b = c.array_base[a];
		QualType cp = C.getPointerType(C.CharTy);
		if (!b && a < (int)c.array_value.size() && c.array_value[a])
			return cast(cp, paren(as_written(c.array_value[a])));
		if (c.n->array[a].is_decl)
			return cast(cp, un(UO_AddrOf, ref(b)));
		return cast(cp, ref(b));
	}

	Expr *addr(int acc, bool at_lo)
	{
		const mp_access &x = c.n->access[acc];
		return bin(BO_Add, base(x.array), paren(aff(&x.off, at_lo)));
	}

	/* Byte range [lo, hi] (as longs) that access ACC touches over the
	   box of the loops (each iterator over its range in the nest). */
	void range(int acc, Expr **lo, Expr **hi)
	{
		const mp_access &x = c.n->access[acc];
		std::function<Expr *(void)> l = [this, acc] {
			const mp_access &y = c.n->access[acc];
			return bin(BO_Add, lng(base(y.array)), lit(y.off.cst));
		};
		std::function<Expr *(void)> h = l;
		for (int i = 0; i < x.off.n; i++) {
			const mp_term t = x.off.t[i];
			int it = c.n->var[t.v1].kind == MP_VAR_ITER ? t.v1
			       : t.v2 >= 0 && c.n->var[t.v2].kind == MP_VAR_ITER ? t.v2 : -1;
			auto f = [this, t, it] {
				Expr *e = lit(t.coef);
				if (t.v1 != it)
					e = bin(BO_Mul, e, var(t.v1, false));
				if (t.v2 >= 0 && t.v2 != it)
					e = bin(BO_Mul, e, var(t.v2, false));
				return e;
			};
			if (it < 0) {
				auto l0 = l, h0 = h;
				l = [this, l0, f] { return bin(BO_Add, l0(), f()); };
				h = [this, h0, f] { return bin(BO_Add, h0(), f()); };
				continue;
			}
			int lid = c.n->var[it].loop;
			const mp_aff *rl = bx ? &bx->range_lo[lid] : &c.n->loop[lid].lo;
			const mp_aff *rh = bx ? &bx->range_hi[lid] : &c.n->loop[lid].hi;
			auto x1 = [this, f, rl] { return bin(BO_Mul, f(), paren(aff(rl, true))); };
			auto x2 = [this, f, rh] { return bin(BO_Mul, f(), paren(aff(rh, true))); };
			auto l0 = l, h0 = h;
			l = [this, l0, x1, x2] { return bin(BO_Add, l0(), min(x1, x2)); };
			h = [this, h0, x1, x2] { return bin(BO_Add, h0(), max(x1, x2)); };
		}
		*lo = l();
		*hi = bin(BO_Add, h(), lit(x.elem_size - 1));
	}

	QualType type_of(mp_scalar s)
	{
		switch (s) {
		case MP_TY_S8: return C.SignedCharTy;
		case MP_TY_U8: return C.UnsignedCharTy;
		case MP_TY_S16: return C.ShortTy;
		case MP_TY_U16: return C.UnsignedShortTy;
		case MP_TY_S32: return C.IntTy;
		case MP_TY_U32: return C.UnsignedIntTy;
		case MP_TY_S64: return C.LongTy;
		case MP_TY_U64: return C.UnsignedLongTy;
		case MP_TY_F32: return C.FloatTy;
		case MP_TY_F64: return C.DoubleTy;
		default: return C.LongTy;
		}
	}

	/* The value of load E of invariant memory (mp_invariant_load: the
	   core puts such loads only in invariant expressions), read before
	   the nest from its address: *(T *)(base + off). */
	Expr *load(int e)
	{
		const mp_expr &x = c.n->expr[e];
		QualType ty = type_of(x.type);
		if (x.access < 0)
			return cast(ty, lit(0));
		return paren(un(UO_Deref, cast(C.getPointerType(ty.withConst()),
					       addr(x.access, true))));
	}

	/* A loop-invariant scalar expression in its own C type (floats stay
	   floats), for arguments of fused epilogue helpers. */
	Expr *typed(int e)
	{
		const mp_expr &x = c.n->expr[e];
		QualType ty = type_of(x.type);
		switch (x.kind) {
		case MP_X_CONST:
			if (x.type == MP_TY_F32 || x.type == MP_TY_F64) {
				llvm::APFloat f(x.fcst);
				bool loses;
				if (x.type == MP_TY_F32)
					f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
						  &loses);
				return FloatingLiteral::Create(C, f, true, ty, L);
			}
			return cast(ty, lit(x.cst));
		case MP_X_VAR:
			return cast(ty, value(x.var));
		case MP_X_LOAD:   /* invariant memory (mp_invariant_load) */
			return cast(ty, load(e));
		case MP_X_CAST:
			return cast(ty, typed(x.a));
		case MP_X_NEG:
			return un(UO_Minus, cast(ty, typed(x.a)));
		case MP_X_ADD: case MP_X_SUB: case MP_X_MUL:
			return cast(ty, bin(x.kind == MP_X_ADD ? BO_Add : x.kind == MP_X_SUB ? BO_Sub : BO_Mul,
					    cast(ty, typed(x.a)), cast(ty, typed(x.b))));
		default:
			return cast(ty, lit(0));
		}
	}

	/* A loop-invariant scalar expression of the description, as a long. */
	Expr *expr(int e)
	{
		const mp_expr &x = c.n->expr[e];
		switch (x.kind) {
		case MP_X_CONST:
			return lit(x.cst);
		case MP_X_VAR:
			return lng(value(x.var));
		case MP_X_LOAD:
			return lng(load(e));
		case MP_X_CAST:
			return lng(cast(type_of(x.type), expr(x.a)));
		case MP_X_NEG:
			return un(UO_Minus, paren(expr(x.a)));
		case MP_X_ADD: case MP_X_SUB: case MP_X_MUL:
			return paren(bin(x.kind == MP_X_ADD ? BO_Add : x.kind == MP_X_SUB ? BO_Sub : BO_Mul,
					 paren(expr(x.a)), paren(expr(x.b))));
		default:
			return lit(0);
		}
	}

	VarDecl *local(const char *name, QualType t, Expr *init)
	{
		VarDecl *v = VarDecl::Create(C, c.fn, L, L, &C.Idents.get(name), t,
					     C.getTrivialTypeSourceInfo(t, L), SC_None);
		v->setImplicit();
		v->setReferenced();
		v->setInit(cast(t, init));
		return v;
	}

	Stmt *decl_stmt(VarDecl *v) { return new (C) DeclStmt(DeclGroupRef(v), L, L); }

	/* The runtime entry point NAME: the user's declaration (mixprec.h) when
	   there is one, else an implicit extern declaration. */
	FunctionDecl *runtime_fn(const char *name, QualType ret, ArrayRef<QualType> params, bool variadic)
	{
		TranslationUnitDecl *tu = C.getTranslationUnitDecl();
		DeclarationName dn(&C.Idents.get(name));
		for (NamedDecl *d : tu->lookup(dn))
			if (FunctionDecl *fd = dyn_cast<FunctionDecl>(d))
				return fd;
		FunctionProtoType::ExtProtoInfo epi;
		epi.Variadic = variadic;
		QualType ft = C.getFunctionType(ret, params, epi);
		FunctionDecl *fd = mpc::extern_fn(C, tu, L, name, ft);
		std::vector<ParmVarDecl *> parms;
		for (QualType p : params)
			parms.push_back(ParmVarDecl::Create(C, fd, L, L, nullptr, p,
							    C.getTrivialTypeSourceInfo(p, L), SC_None, nullptr));
		fd->setParams(parms);
		fd->setImplicit();
		tu->addDecl(fd);
		return fd;
	}

	/* The runtime's array NAME (long NAME[LEN]): the TU's declaration when
	   there is one, else an implicit extern declaration. */
	VarDecl *runtime_array(const char *name, unsigned len)
	{
		TranslationUnitDecl *tu = C.getTranslationUnitDecl();
		DeclarationName dn(&C.Idents.get(name));
		for (NamedDecl *d : tu->lookup(dn))
			if (VarDecl *vd = dyn_cast<VarDecl>(d))
				return vd;
		QualType t = mpc::array_type(C, C.LongTy, len);
		VarDecl *v = VarDecl::Create(C, tu, L, L, &C.Idents.get(name), t,
					     C.getTrivialTypeSourceInfo(t, L), SC_Extern);
		v->setImplicit();
		tu->addDecl(v);
		return v;
	}

	Expr *call(FunctionDecl *fd, std::vector<Expr *> &args)
	{
		return ok(S.ActOnCallExpr(nullptr, ref(fd), L, args, L));
	}
};

/* Final value of loop L's iterator, max(lo, hi + 1), as a long. */
/* The value loop L leaves in its iterator: max(lo, hi + 1) counting up;
 * counting down from hi, lo - 1 when it ran and hi when it did not:
 * min(hi, lo - 1) = -max(-hi, 1 - lo). */
Expr *final_iter(mp_build &b, int l)
{
	const mp_loop *lp = &b.c.n->loop[l];
	if (lp->step > 1)   /* lo + step * iterations */
		return b.bin(BO_Add, b.paren(b.aff(&lp->lo, true)),
			     b.bin(BO_Mul, b.extent(l), b.lit(lp->step)));
	if (lp->step < 0)
		return b.un(UO_Minus, b.paren(b.max(
			[&] { return b.un(UO_Minus, b.paren(b.aff(&lp->hi, true))); },
			[&] { return b.bin(BO_Sub, b.lit(1), b.paren(b.aff(&lp->lo, true))); })));
	return b.max([&] { return b.aff(&lp->lo, true); },
		     [&] { return b.bin(BO_Add, b.aff(&lp->hi, true), b.lit(1)); });
}

/* Replace child OLD of P by NEW. */
bool replace_child(Stmt *p, Stmt *old, Stmt *nw)
{
	if (!p)
		return false;
	/* the body of an OpenMP construct's captured region is not among
	   its children (those are the capture initialisers); it is stored
	   right after them (CapturedStmt::getStoredStmts, whose setter is
	   private): that slot, checked to hold the body */
	if (CapturedStmt *cs = dyn_cast<CapturedStmt>(p)) {
		Stmt **slot = reinterpret_cast<Stmt **>(cs->capture_init_end());
		if (cs->getCapturedStmt() != old || *slot != old)
			return false;
		*slot = nw;
		return cs->getCapturedStmt() == nw;
	}
	for (Stmt *&k : p->children())
		if (k == old) {
			k = nw;
			return true;
		}
	return false;
}
} // namespace

bool mp_rewrite(mp_ctx &c, const mp_plan *plans, int count)
{
	const mp_plan &p = plans[0];
	mp_build m(c);
	m.bx = &p;
	m.outside_omp = c.omp != nullptr;
	ASTContext &C = c.C;
	Sema &S = c.S;
	mp_nest *n = c.n;
	if (p.src_float && p.mode == MP_OUT_FUSED) {
		c.fail(c.loop_loc, "a floating-point source has no fused epilogue");
		return false;
	}
	if (p.src_float && p.mode == MP_OUT_TILE) {
		bool k_outer = false;   /* ikj order: __mixprec_tile_add */
		for (int l = 0; l < n->nloops; l++)
			if (n->loop[l].parent == p.loop_k)
				k_outer = true;
		if (k_outer && (p.acc_mem < 0 ||
				mp_scalar_of_type(C, c.access_ref[p.acc_mem]->getType()) != p.src_type)) {
			/* __mixprec_tile_add adds a tile of the source type into an
			   output of that same type (as plugin-gcc/rewrite.cc) */
			c.fail(c.loop_loc, "the output of the contraction is not of the operands' "
			       "type (%s)", p.src_type == MP_TY_F64 ? "double" : "float");
			return false;
		}
	}
	/* tile mode under an OpenMP directive: the construct stays, its body
	   reads the tile registered by the calling thread (one contraction,
	   the loops not collapsed, loop k inside the directive's loop) */
	if (c.omp && p.mode == MP_OUT_TILE &&
	    (count > 1 || c.loops[p.red_loop] == c.top || c.omp_threads ||
	     (isa<OMPLoopDirective>(c.omp) && cast<OMPLoopDirective>(c.omp)->getLoopsNumber() > 1))) {
		c.fail(c.loop_loc, MP_MSG_OMP_TILE, p.what);
		return false;
	}
	if (c.omp && ((c.top_init != nullptr) ||
		      (isa<ForStmt>(c.top) && !mp_for_init_extra(cast<ForStmt>(c.top)).extra.empty()))) {
		c.fail(c.loop_loc, "the loop under the OpenMP directive initialises more than its "
		       "iterator");
		return false;
	}
	DiagnosticsEngine &D = S.getDiagnostics();
	bool suppressed = D.getSuppressAllDiagnostics();
	D.setSuppressAllDiagnostics(true);   /* nothing the user wrote is checked here */
	Sema::ContextRAII ctx(S, c.fn);
	S.PushFunctionScope();

	QualType vp = C.VoidPtrTy, lt = C.LongTy;
	/* a floating-point source calls __mixprec_lp_nest (its own argument
	   list, from the same recipes); the shape is the same */
	FunctionDecl *nest_fn = m.runtime_fn(p.src_float ? "__mixprec_lp_nest" : "__mixprec_i8_nest",
					     vp, { lt, lt }, true);
	FunctionDecl *rel_fn = m.runtime_fn("__mixprec_release", C.VoidTy, { vp }, false);

	/* lk: the loop the tile read replaces (TILE): k, or the outermost of
	   the reduction loops summed around it (plan.loop_sum) */
	int li = p.loop_i, lj = p.loop_j,
	    lk = p.mode == MP_OUT_TILE && p.red_loop >= 0 ? p.red_loop : p.loop_k;
	int vi = n->loop[li].iter, vj = lj >= 0 ? n->loop[lj].iter : -1;

	/* 1. the runtime call */
	std::vector<Expr *> args;
	auto Lg = [&](Expr *e) { args.push_back(m.lng(e)); };
	auto P = [&](Expr *e) { args.push_back(m.cast(vp, e)); };
	auto zero = [&] { return m.lit(0); };
	auto nullp = [&] { return m.cast(vp, m.lit(0)); };

	/* the extents of the loops around the contraction, outer to inner,
	   each read only when the ones outside it are positive, as the loop
	   as written reads them; any other: no call, the loop as written
	   (mp_plan_live_loops: `k < l->n` with l == NULL and M == 0) */
	int live[MP_MAX_LOOPS];
	int nlive = mp_plan_live_loops(n, &p, live, MP_MAX_LOOPS);
	Expr *lv = nullptr;
	for (int q = 0; q < nlive; q++) {
		Expr *x = m.bin(BO_GT, m.extent(live[q]), m.lit(0));
		auto cv = x->getIntegerConstantExpr(C);
		if (cv && cv->getBoolValue())
			continue;
		lv = lv ? m.bin(BO_LAnd, lv, x) : x;
	}
	VarDecl *livev = lv ? m.local("__mixprec_live", C.IntTy, lv) : nullptr;
	auto if_live = [&](Expr *e) { return livev ? m.cond(m.ref(livev), e, m.lit(0)) : e; };
	VarDecl *mvar = m.local("__mixprec_M", lt, if_live(m.extent(li)));
	VarDecl *nvar = m.local("__mixprec_N", lt, if_live(m.extent(lj)));
	/* a group loop: its trip count, and where its step is set at run time
	   (1 + 2^-52) / step, for the tile reads' group index
	   (mp_mat::iteration), computed once (under an OpenMP construct in
	   tile mode, once per row in the construct's body, which reads its
	   own locals: group_vars is called again there) */
	VarDecl *rstep = nullptr, *gvar = nullptr;
	auto group_vars = [&](bool live) {
		if (p.loop_g < 0)
			return;
		auto guard = [&](Expr *e, Expr *dflt) {
			return live && livev ? m.cond(m.ref(livev), e, dflt) : e;
		};
		gvar = m.local("__mixprec_G", lt, guard(m.extent(p.loop_g), m.lit(0)));
		int sv = m.step_var_of(n->loop[p.loop_g].iter);
		if (sv < 0)
			return;
		Expr *up = FloatingLiteral::Create(C, llvm::APFloat(1.0 + DBL_EPSILON), true,
						   C.DoubleTy, m.L);   /* 1 + 2^-52 */
		Expr *r = m.bin(BO_Div, up,
				m.cast(C.DoubleTy, m.max([&] { return m.lng(m.var(sv, false)); },
							 [&] { return m.lit(1); })));
		rstep = m.local("__mixprec_rstep", C.DoubleTy,
				guard(r, FloatingLiteral::Create(C, llvm::APFloat(1.0), true,
								 C.DoubleTy, m.L)));
	};
	if (!(c.omp && p.mode == MP_OUT_TILE))
		group_vars(true);
	std::vector<Stmt *> pre;   /* statements before the call */
	/* The bits of X converted to floating type FT, as integer type UT:
	   FT f = X; UT u = 0; memcpy(&u, &f, sizeof f); (declared before the
	   call) and returns a reference to u. */
	int nbits = 0;
	auto bits = [&](QualType ft, QualType ut, Expr *x) -> Expr * {
		char fname[40], uname[40];
		snprintf(fname, sizeof fname, "__mixprec_bits_f%d", nbits);
		snprintf(uname, sizeof uname, "__mixprec_bits_u%d", nbits);
		nbits++;
		VarDecl *f = m.local(fname, ft, x);
		VarDecl *u = m.local(uname, ut, m.lit(0));
		pre.push_back(m.decl_stmt(f));
		pre.push_back(m.decl_stmt(u));
		FunctionDecl *mc = m.runtime_fn("memcpy", vp, { vp, C.getPointerType(C.getConstType(C.VoidTy)), C.getSizeType() }, false);
		std::vector<Expr *> ma = { m.cast(vp, m.un(UO_AddrOf, m.ref(u))),
					   m.cast(vp, m.un(UO_AddrOf, m.ref(f))),
					   m.cast(C.getSizeType(), m.lit(C.getTypeSizeInChars(ft).getQuantity())) };
		pre.push_back(m.call(mc, ma));
		return m.ref(u);
	};
	/* the globals read as invariants are protected at run time */
	for (VarDecl *d : c.protected_decls) {
		auto it = c.var_of.find(d);
		if (it == c.var_of.end())
			continue;
		n->var[it->second].in_memory = 1;
		n->var[it->second].mem_size = C.getTypeSizeInChars(d->getType()).getQuantity();
	}
	/* one call per contraction (rows unrolled into accumulators: several,
	   all in tile mode); the fast path needs every tile */
	static mp_arg recipe[MP_MAX_CALL_ARGS];
	std::vector<VarDecl *> tiles;
	VarDecl *go = nullptr;
	for (int q = 0; q < count; q++) {
	args.clear();
	int na = mp_plan_call_args(n, &plans[q], &c.pr->p, recipe, MP_MAX_CALL_ARGS);
	if (na < 0) {
		S.PopFunctionScopeInfo();
		D.setSuppressAllDiagnostics(suppressed);
		c.fail(c.loop_loc, "the run-time call would have too many arguments");
		return false;
	}
	m.bx = &plans[q];
	if (q == 0) {
		/* the inline guard (polyhedral/mp_nest.h, mp_plan_work): out
		   and work, each product capped, and the layout, against
		   __mixprec_small */
		mp_work w;
		mp_plan_work(n, &p, recipe, na, &w);
		auto local = [&](const char *what, int i, Expr *init) {
			char name[40];
			snprintf(name, sizeof name, "__mixprec_%s%d", what, i);
			VarDecl *v = m.local(name, lt, init);
			pre.push_back(m.decl_stmt(v));
			return v;
		};
		auto capped = [&](VarDecl *v) {
			return m.cond(m.bin(BO_LT, m.ref(v), m.lit(MP_SMALL_CAP)), m.ref(v),
				      m.lit(MP_SMALL_CAP));
		};
		Expr *prod = m.lit(1), *rows = m.lit(1);
		VarDecl *out = nullptr;
		for (int i = 0; i <= w.nloops; i++) {
			if (i == w.nout) {
				out = local("out", 0, prod);
				prod = m.ref(out);
			}
			if (i == w.nloops)
				break;
			/* an extent below 0 (a variable step <= 0) counts as 0:
			   the call is still made when the guard is off */
			int l = w.loops[i];
			VarDecl *e0 = local("raw", i, l == li ? m.ref(mvar) : l == lj ? m.ref(nvar)
								      : m.extent(l));
			VarDecl *e = local("ext", i, m.cond(m.bin(BO_LT, m.ref(e0), m.lit(0)), m.lit(0),
							    m.ref(e0)));
			prod = capped(local("prod", i, m.bin(BO_Mul, m.paren(prod), m.paren(capped(e)))));
			if (i < w.nout && (w.row_loops >> i & 1))
				rows = capped(local("rowp", i, m.bin(BO_Mul, m.paren(rows),
								     m.paren(capped(e)))));
		}
		VarDecl *work = local("work", 0, prod);
		VarDecl *nrows = w.rows_entry ? local("rows", 0, rows) : nullptr;
		VarDecl *tbl = m.runtime_array("__mixprec_small", MP_SMALL_GUARD_LEN);
		int g0 = w.slot;
		auto g = [&](int i) {
			return m.ok(S.CreateBuiltinArraySubscriptExpr(m.ref(tbl), m.L, m.lit(g0 + i), m.L));
		};
		/* the least the kernels cost: g[0], + rows * the padded copy's
		   cost per row (as plugin-gcc/rewrite.cc) */
		auto least = [&]() {
			if (!w.rows_entry)
				return g(0);
			Expr *r = m.cond(m.bin(BO_LT, m.ref(work), m.lit(MP_SMALL_CAP)),
					 m.bin(BO_Mul, m.ref(nrows), g(w.rows_entry - g0)), m.lit(0));
			return m.bin(BO_Add, g(0), m.paren(r));
		};
		auto form = [&](int f) {
			Expr *cost = m.bin(BO_Add, m.bin(BO_Mul, m.ref(out), g(1 + 2 * f)),
					   m.bin(BO_Mul, m.ref(work), g(2 + 2 * f)));
			return m.bin(BO_GE, cost, least());
		};
		Expr *cond;
		if (w.stride[0] >= 0) {
			/* the layout the model sees: contiguous in k, or strided */
			VarDecl *st[4];
			for (int s = 0; s < 4; s++) {
				const mp_arg &a = recipe[w.stride[s]];
				st[s] = local("stride", s, a.var < 0 ? m.lit(0)
								    : m.coef(&n->access[a.access].off, a.var));
			}
			auto is = [&](int s, BinaryOperatorKind k) {
				return m.bin(k, m.ref(st[s]), m.lit(w.esz));
			};
			Expr *kc = m.bin(BO_LAnd, m.bin(BO_LAnd, is(1, BO_EQ), is(2, BO_EQ)),
					 m.bin(BO_LAnd, is(0, BO_NE), is(3, BO_NE)));
			cond = m.cond(m.paren(kc), form(0), form(1));
		} else {
			/* the larger of the two estimates (as
			   plugin-gcc/rewrite.cc) */
			auto est = [&](int f) {
				return m.paren(m.bin(BO_Add, m.bin(BO_Mul, m.ref(out), g(1 + 2 * f)),
						     m.bin(BO_Mul, m.ref(work), g(2 + 2 * f))));
			};
			Expr *cost = m.cond(m.bin(BO_GT, est(0), est(1)), est(0), est(1));
			cond = m.bin(BO_GE, m.paren(cost), least());
		}
		/* and the values the nest narrows to a smaller type fit
		   (mp_narrow): each at every corner of the box of its
		   iterators' ranges (as plugin-gcc/rewrite.cc) */
		for (int i = 0; i < n->nnarrow; i++) {
			const mp_narrow &w = n->narrow[i];
			int it[2 * MP_MAX_TERMS], ni = mp_aff_iters(n, &w.e, it);
			auto find = [&](int v) {
				int k = 0;
				while (k < ni && it[k] != v)
					k++;
				return k;
			};
			for (unsigned corner = 0; corner < (1u << ni); corner++) {
				Expr *r = m.lit(w.e.cst);
				for (int t = 0; t < w.e.n; t++) {
					Expr *f = m.lit(w.e.t[t].coef);
					for (int v : { w.e.t[t].v1, w.e.t[t].v2 }) {
						if (v < 0)
							continue;
						int k = find(v), l = n->var[v].loop;
						Expr *x = k == ni ? m.var(v, false)
							  : m.paren(m.aff(corner >> k & 1 ? &p.range_hi[l]
										   : &p.range_lo[l], false));
						f = m.bin(BO_Mul, f, x);
					}
					r = m.bin(BO_Add, r, f);
				}
				char name[40];
				snprintf(name, sizeof name, "__mixprec_narrow%d_%u", i, corner);
				VarDecl *rv = m.local(name, lt, r);
				pre.push_back(m.decl_stmt(rv));
				cond = m.bin(BO_LAnd, m.paren(cond),
					     m.bin(BO_LAnd, m.bin(BO_GE, m.ref(rv), m.lit(w.lo)),
						   m.bin(BO_LE, m.ref(rv), m.lit(w.hi))));
			}
		}
		go = m.local("__mixprec_go", C.IntTy, cond);
		pre.push_back(m.decl_stmt(go));
	}
	for (int i = 0; i < na; i++) {
		const mp_arg &a = recipe[i];
		switch (a.kind) {
		case MP_ARG_CONST: Lg(m.lit(a.cst)); break;
		case MP_ARG_NULL: P(nullp()); break;
		case MP_ARG_EXTENT:
			Lg(a.loop == li ? m.ref(mvar) : a.loop == lj ? m.ref(nvar) : m.extent(a.loop));
			break;
		case MP_ARG_ADDR: P(m.addr(a.access, true)); break;
		case MP_ARG_COND_LO: Lg(m.aff(&n->cond[a.access].e, true)); break;
		case MP_ARG_COND_COEF:
			Lg(a.var < 0 ? zero() : m.coef(&n->cond[a.access].e, a.var));
			break;
		case MP_ARG_COEF:
			Lg(a.var < 0 ? zero() : m.coef(&n->access[a.access].off, a.var));
			break;
		case MP_ARG_EXPR:
			Lg(m.bin(BO_Mul, m.paren(m.expr(a.expr)), m.lit(a.cst)));
			break;
		case MP_ARG_EXPR_I32: Lg(m.cast(C.IntTy, m.typed(a.expr))); break;
		case MP_ARG_EXPR_F32:
			/* the float's 32 bits: float f = x; unsigned u; memcpy(&u, &f, 4) */
			Lg(bits(C.FloatTy, C.UnsignedIntTy, m.typed(a.expr)));
			break;
		case MP_ARG_EXPR_F64:
			/* the double's 64 bits: double d = x; long u; memcpy(&u, &d, 8) */
			Lg(bits(C.DoubleTy, lt, m.typed(a.expr)));
			break;
		case MP_ARG_SCALE_F64: {
			/* the variable scale=(SA, SB) names, read when the nest starts */
			VarDecl *sv = a.cst >= 0 && a.cst < 2 ? c.pr->scale_decl[a.cst] : nullptr;
			if (!sv) {
				m.bad = true;
				Lg(zero());
				break;
			}
			Lg(bits(C.DoubleTy, lt, m.ref(sv)));
			break;
		}
		case MP_ARG_SCALE_PTR: {
			/* &name[lo]: the scale of the loop's first iteration */
			VarDecl *sv = a.cst >= 0 && a.cst < 2 ? c.pr->scale_decl[a.cst] : nullptr;
			if (!sv || a.loop < 0 || a.loop >= n->nloops) {
				m.bad = true;
				P(nullp());
				break;
			}
			P(m.bin(BO_Add, m.ref(sv), m.paren(m.aff(m.lo_of(a.loop), true))));
			break;
		}
		case MP_ARG_LOC: {
			/* "FILE:LINE" of the nest's loop (where GCC's expand_location
			   puts it: the expansion point of a macro) */
			SourceManager &SM = C.getSourceManager();
			PresumedLoc pl = SM.getPresumedLoc(SM.getExpansionLoc(c.loop_loc));
			if (pl.isInvalid()) {
				P(nullp());
				break;
			}
			std::string text = std::string(pl.getFilename()) + ":" + std::to_string(pl.getLine());
			P(mpc::string_lit(C, text, m.L));
			break;
		}
		case MP_ARG_RANGE_LO: case MP_ARG_RANGE_HI: {
			Expr *lo, *hi;
			m.range(a.access, &lo, &hi);
			Lg(a.kind == MP_ARG_RANGE_LO ? lo : hi);
			break;
		}
		case MP_ARG_VAR_LO: case MP_ARG_VAR_HI: {
			/* a variable in memory, or a value read from memory
			   (x->n): the lvalue's address */
			auto lvit = c.var_lvalue.find(a.var);
			Expr *lv = lvit != c.var_lvalue.end() ? m.paren(m.as_written(lvit->second))
							      : m.ref(c.var_decl[a.var]);
			Expr *lo = m.cast(lt, m.un(UO_AddrOf, lv));
			Lg(a.kind == MP_ARG_VAR_LO ? lo : m.bin(BO_Add, lo, m.lit(n->var[a.var].mem_size - 1)));
			break;
		}
		default:
			Lg(zero());
			break;
		}
	}
	if (livev) {   /* computed under `if (live)` below */
		tiles.push_back(m.local("__mixprec_tile", vp, nullp()));
		pre.push_back(m.bin(BO_Assign, m.ref(tiles.back()),
				    m.cond(m.ref(go), m.call(nest_fn, args), nullp())));
	} else {
		tiles.push_back(m.local("__mixprec_tile", vp,
					m.cond(m.ref(go), m.call(nest_fn, args), nullp())));
	}
	m.bx = &p;
	}
	VarDecl *tile = tiles[0];

	std::vector<Stmt *> outer = { m.decl_stmt(mvar), m.decl_stmt(nvar) };
	if (gvar)
		outer.push_back(m.decl_stmt(gvar));
	if (rstep)
		outer.push_back(m.decl_stmt(rstep));
	if (livev) {
		outer.insert(outer.begin(), m.decl_stmt(livev));
		for (VarDecl *t : tiles)
			outer.push_back(m.decl_stmt(t));
	} else {
		outer.insert(outer.end(), pre.begin(), pre.end());
	}
	/* the thread count of the OpenMP directive the call replaces:
	   __mixprec_omp_threads(if ? num_threads : 1) around the call */
	FunctionDecl *thr_fn = nullptr;
	if (c.omp && (c.omp_threads || c.omp_if || p.mode == MP_OUT_TILE)) {
		/* tile mode: -1, the loops left run on the calling thread (the
		   runtime declines when the construct's team would be wide) */
		thr_fn = m.runtime_fn("__mixprec_omp_threads", C.VoidTy, { lt }, false);
		Expr *n = c.omp_threads ? m.lng(m.paren(m.as_written(c.omp_threads))) : m.lit(0);
		if (c.omp_if)
			n = m.cond(m.paren(m.as_written(c.omp_if)), n, m.lit(1));
		if (p.mode == MP_OUT_TILE)
			n = m.lit(-1);
		std::vector<Expr *> ta = { n };
		outer.push_back(m.call(thr_fn, ta));
	}
	if (livev)
		outer.push_back(mpc::if_stmt(C, m.L, m.ref(livev), mpc::compound(C, pre, m.L, m.L),
					     nullptr));
	else
		for (VarDecl *t : tiles)
			outer.push_back(m.decl_stmt(t));
	if (thr_fn) {
		std::vector<Expr *> ta = { m.lit(0) };
		outer.push_back(m.call(thr_fn, ta));
	}
	/* tile mode under an OpenMP directive: the construct's body reads
	   the tile through __mixprec_tile_get(key, id), key the function's
	   address, into a local of the body (otile); what it reads from
	   outside the construct is recomputed from what the region captures */
	static long omp_tile_ids;
	bool omp_tile = c.omp && p.mode == MP_OUT_TILE;
	long oid = 0;
	VarDecl *otile = nullptr;
	CapturedStmt *outer_cap = c.captured;
	FunctionDecl *enter_fn = nullptr, *get_fn = nullptr, *leave_fn = nullptr;
	auto key = [&] { return m.cast(vp, m.un(UO_AddrOf, m.ref(c.fn))); };
	if (omp_tile) {
		oid = ++omp_tile_ids;
		enter_fn = m.runtime_fn("__mixprec_tile_enter", C.VoidTy, { vp, lt, vp }, false);
		get_fn = m.runtime_fn("__mixprec_tile_get", vp, { vp, lt }, false);
		leave_fn = m.runtime_fn("__mixprec_tile_leave", C.VoidTy, { vp, lt }, false);
		std::vector<Expr *> ea = { key(), m.lit(oid), m.cast(vp, m.ref(tiles[0])) };
		outer.push_back(m.call(enter_fn, ea));
		/* from here on, code for inside the directive's region */
		c.captured = cast<OMPExecutableDirective>(c.omp)->getInnermostCapturedStmt();
		m.outside_omp = false;
		std::vector<Expr *> ga = { key(), m.lit(oid) };
		otile = m.local("__mixprec_otile", vp, m.call(get_fn, ga));
		tiles[0] = otile;
		group_vars(false);
	}
	/* all or nothing: every tile non-null */
	Expr *all = m.bin(BO_NE, m.ref(tiles[0]), m.lit(0));
	for (size_t q = 1; q < tiles.size(); q++)
		all = m.bin(BO_LAnd, all, m.bin(BO_NE, m.ref(tiles[q]), m.lit(0)));
	/* under an OpenMP directive, the directive is what the call replaces */
	Stmt *top = c.omp ? c.omp : c.top;
	Stmt *top_parent = (*c.parent)[top];
	Stmt *k_parent = nullptr, *k_new = nullptr;

	if (p.mode == MP_OUT_DIRECT || p.mode == MP_OUT_FUSED) {
		/* 2a. the whole nest is the fallback */
		std::vector<Stmt *> fin;
		for (size_t l = 0; l < c.loops.size(); l++) {
			VarDecl *v = c.loop_iter[l];
			int var = n->loop[l].iter;
			if (!n->var[var].used_after)
				continue;
			Expr *set = m.bin(BO_Assign, m.ref(v), m.cast(v->getType(), final_iter(m, (int)l)));
			if (l == 0) {
				fin.push_back(set);
				continue;
			}
			/* an inner iterator changes only if every outer loop ran:
			   assign it under that condition (reading its old value
			   could be a read of an uninitialized variable) */
			Expr *ne = nullptr;
			for (int o = n->loop[l].parent; o >= 0; o = n->loop[o].parent) {
				Expr *x = m.bin(BO_GT, m.extent(o), m.lit(0));
				ne = ne ? m.bin(BO_LAnd, ne, x) : x;
			}
			fin.push_back(mpc::if_stmt(C, m.L, ne, set, nullptr));
		}
		Stmt *els = fin.empty() ? nullptr : mpc::compound(C, fin, m.L, m.L);
		outer.push_back(mpc::if_stmt(C, m.L, m.bin(BO_EQ, m.ref(tile), m.lit(0)), top, els));
	} else {
		/* 2b. TILE: tile read in place of loop k, release after the nest */
		Stmt *kl = c.loops[lk];
		bool k_outer = false;   /* k encloses other loops (ikj order) */
		for (int l = 0; l < n->nloops; l++)
			if (n->loop[l].parent == lk && p.nsum == 0)
				k_outer = true;
		std::vector<Stmt *> fs;
		/* `for (k = 0, p = row; ...)`: p = row is a statement before the
		   loop (the description's), which the fast path must run too */
		if (ForStmt *kf = dyn_cast<ForStmt>(kl)) {
			mp_for_extra kx = mp_for_init_extra(kf);
			fs.insert(fs.end(), kx.extra.begin(), kx.extra.end());
		}
		if (k_outer) {
			std::vector<char> below(n->nvars, 0);
			for (int l = 0; l < n->nloops; l++)
				for (int q = n->loop[l].parent; q >= 0; q = n->loop[q].parent)
					if (q == lk)
						below[n->loop[l].iter] = 1;
			mp_build ms(c);
			ms.lo_only = &below;
			FunctionDecl *add_fn = m.runtime_fn("__mixprec_tile_add", vp, { lt, lt }, true);
			const mp_access &Co = n->access[p.acc_mem];
			std::vector<Expr *> a2;
			auto L2 = [&](Expr *e) { a2.push_back(m.lng(e)); };
			Expr *ti = m.bin(BO_Sub, ms.var(vi, true), m.paren(m.var(vi, true)));
			Expr *tj = vj >= 0 ? m.bin(BO_Sub, ms.var(vj, true), m.paren(m.var(vj, true))) : m.lit(0);
			L2(m.lit(MP_NEST_ABI_VERSION));
			L2(m.lit(10));
			/* tiles[0]: under an OpenMP directive the body's own
			   local (otile), as the other reads; `tile` lives outside
			   the construct's captured region */
			a2.push_back(m.cast(vp, m.ref(tiles[0])));
			auto NV = [&] { return omp_tile ? m.paren(m.extent(lj)) : m.ref(nvar); };
			auto MV = [&] { return omp_tile ? m.paren(m.extent(li)) : m.ref(mvar); };
			L2(m.bin(BO_Add, m.bin(BO_Mul, m.paren(ti), NV()), m.paren(tj)));
			L2(NV());
			L2(m.lit(1));
			a2.push_back(m.cast(vp, ms.addr(p.acc_mem, true)));
			L2(m.coef(&Co.off, vi));
			L2(vj >= 0 ? m.coef(&Co.off, vj) : m.lit(0));
			/* a triangular nest: the loop below k runs over its own
			   range for the current outer iterators (ms: its own
			   bounds), a row or column of the tile's box */
			L2(below[vi] ? (p.tri ? ms.extent(li) : MV()) : m.lit(1));
			L2(vj >= 0 && below[vj] ? (p.tri ? ms.extent(lj) : NV()) : m.lit(1));
			/* dt: the tile's (and the output's) element type, plus 4
			   where the source subtracts the sum (`C -= a*b`) */
			L2(m.lit((!p.src_float ? 0 : p.src_type == MP_TY_F64 ? 2 : 1) +
				 (p.neg ? 4 : 0)));
			fs.push_back(m.call(add_fn, a2));
		} else for (int q = 0; q < count; q++) {
			/* each contraction's accumulator reads its tile */
			const mp_plan &pq = plans[q];
			Expr *idx = m.iteration(vi);
			if (pq.loop_i2 >= 0)   /* a second row loop: T[(i2*M + i)*N + j] */
				idx = m.bin(BO_Add,
					    m.bin(BO_Mul, m.paren(m.iteration(n->loop[pq.loop_i2].iter)),
						  omp_tile ? m.paren(m.extent(li)) : m.ref(mvar)),
					    m.paren(idx));
			if (pq.loop_g >= 0)   /* groups: T[(i*G + g)*N + j] */
				idx = m.bin(BO_Add, m.bin(BO_Mul, m.paren(idx),
							  gvar && pq.loop_g == p.loop_g
							  ? m.ref(gvar) : m.paren(m.extent(pq.loop_g))),
					    m.paren(m.iteration(n->loop[pq.loop_g].iter,
								pq.loop_g == p.loop_g ? rstep
										      : nullptr)));
			if (vj >= 0)
				idx = m.bin(BO_Add, m.bin(BO_Mul, m.paren(idx),
							   omp_tile ? m.paren(m.extent(lj)) : m.ref(nvar)),
					    m.paren(m.iteration(vj)));
			/* int32 tile; float sources: float or double (the source type),
			   converted to the accumulator's type below */
			QualType tet = pq.src_float ? m.type_of(pq.src_type) : C.IntTy;
			Expr *tv = m.un(UO_Deref, m.bin(BO_Add, m.cast(C.getPointerType(tet),
									 m.ref(tiles[q])),
							 m.paren(idx)));
			if (pq.acc_var >= 0) {
				VarDecl *s = c.var_decl[pq.acc_var];
				/* `s -= a*b`: the sum subtracted (plan.neg) */
				fs.push_back(m.bin(pq.neg ? BO_SubAssign : BO_AddAssign, m.ref(s),
						   m.cast(s->getType(), tv)));
			} else {
				QualType et = c.access_ref[pq.acc_mem]->getType().getUnqualifiedType();
				Expr *cp = m.cast(C.getPointerType(et), m.addr(pq.acc_mem, false));
				fs.push_back(m.bin(pq.neg ? BO_SubAssign : BO_AddAssign,
						   m.un(UO_Deref, cp), m.cast(et, tv)));
			}
		}
		if (p.red_iter_final)
			fs.push_back(m.bin(BO_Assign, m.ref(c.loop_iter[lk]),
					   m.cast(c.loop_iter[lk]->getType(), final_iter(m, lk))));
		/* walking pointers the replaced loop would have advanced:
		   p = (T *)((char *)p + iterations * by) (0 for an empty loop) */
		for (int a = 0; a < p.nadvance; a++) {
			VarDecl *v = c.var_decl[p.advance_var[a]];
			QualType cp = C.getPointerType(C.CharTy);
			Expr *sum = m.bin(BO_Add, m.cast(cp, m.ref(v)),
					  m.bin(BO_Mul, m.paren(m.extent(p.red_loop)),
						m.paren(m.aff(&p.advance_by[a], false))));
			fs.push_back(m.bin(BO_Assign, m.ref(v), m.cast(v->getType(), sum)));
		}
		k_parent = (*c.parent)[kl];
		k_new = mpc::if_stmt(C, m.L, all, mpc::compound(C, fs, m.L, m.L), kl);
		if (kl == c.top) {
			/* k is the outermost loop (kij order): the guarded loop is
			   the nest itself, nothing to splice inside it */
			outer.push_back(k_new);
			k_new = nullptr;
		} else {
			outer.push_back(top);
		}
		if (omp_tile) {
			c.captured = outer_cap;
			m.outside_omp = true;
			tiles[0] = tile;
			std::vector<Expr *> la = { key(), m.lit(oid) };
			outer.push_back(m.call(leave_fn, la));
		}
		for (VarDecl *t : tiles) {
			std::vector<Expr *> ra = { m.ref(t) };
			outer.push_back(m.call(rel_fn, ra));
		}
	}
	/* `for (i = 0, p = a, q = y; ...)` as the nest: p = a and q = y run
	   before the call, which reads them (the glue checked that they do
	   not mention i, nor i's init what they set); the loop keeps i = 0 */
	/* remainder loops folded into loop k (mp_reroll): run only when a
	   tile is missing */
	std::vector<std::pair<Stmt *, Stmt *>> guards;   /* (loop, if) */
	if (omp_tile) {   /* the remainder loops are inside the construct */
		c.captured = cast<OMPExecutableDirective>(c.omp)->getInnermostCapturedStmt();
		m.outside_omp = false;
	}
	if (p.mode == MP_OUT_TILE)
		for (Stmt *a : c.absorbed) {
			Expr *none = m.bin(BO_EQ, m.ref(omp_tile ? otile : tiles[0]), m.lit(0));
			for (size_t q = 1; q < tiles.size(); q++)
				none = m.bin(BO_LOr, none, m.bin(BO_EQ, m.ref(tiles[q]), m.lit(0)));
			guards.push_back({ a, mpc::if_stmt(C, m.L, none, a, nullptr) });
		}
	c.captured = outer_cap;
	m.outside_omp = c.omp != nullptr;
	ForStmt *top_for = dyn_cast<ForStmt>(c.top);
	mp_for_extra top_ex;
	if (top_for) {
		top_ex = mp_for_init_extra(top_for);
		outer.insert(outer.begin(), top_ex.extra.begin(), top_ex.extra.end());
	}
	Stmt *block = mpc::compound(C, outer, m.L, m.L);

	S.PopFunctionScopeInfo();
	D.setSuppressAllDiagnostics(suppressed);
	if (m.bad) {
		c.fail(c.loop_loc, "internal error: the runtime call could not be built");
		return false;
	}
	/* 3. splice: nothing above changed the function */
	for (size_t q = 0; q < guards.size(); q++)
		if (!replace_child((*c.parent)[guards[q].first], guards[q].first, guards[q].second)) {
			while (q-- > 0)
				replace_child((*c.parent)[guards[q].first], guards[q].second,
					      guards[q].first);
			c.fail(c.loop_loc, "internal error: a remainder loop has no parent statement");
			return false;
		}
	auto unguard = [&] {
		for (auto &gq : guards)
			replace_child((*c.parent)[gq.first], gq.second, gq.first);
	};
	if (k_new && !replace_child(k_parent, c.loops[lk], k_new)) {
		unguard();
		c.fail(c.loop_loc, "internal error: the reduction loop has no parent statement");
		return false;
	}
	if (!replace_child(top_parent, top, block)) {
		unguard();
		if (k_new)
			replace_child(k_parent, k_new, c.loops[lk]);
		c.fail(c.loop_loc, "internal error: the nest has no parent statement");
		return false;
	}
	if (!top_ex.extra.empty())
		top_for->setInit(top_ex.own);
	if (omp_tile) {
		/* the tile's local first in the body of the directive's loop
		   (code generation takes the body from the loop, as it is now) */
		ForStmt *tf = cast<ForStmt>(c.top);
		std::vector<Stmt *> items = { m.decl_stmt(otile) };
		if (gvar)
			items.push_back(m.decl_stmt(gvar));
		if (rstep)
			items.push_back(m.decl_stmt(rstep));
		if (CompoundStmt *cs = dyn_cast<CompoundStmt>(tf->getBody()))
			items.insert(items.end(), cs->body_begin(), cs->body_end());
		else
			items.push_back(tf->getBody());
		tf->setBody(mpc::compound(C, items, m.L, m.L));
	}
	return true;
}
