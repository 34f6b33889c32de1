/* plugin.cc -- registration of mixprec's clang plugin.
 *
 *   clang -fplugin=.../mixprec-clang.so [-Rpass=mixprec] ...
 *
 * 1. At load time the plugin checks that the clang loading it has the major
 *    version it was built for, and refuses (exit status 1) otherwise.
 * 2. `#pragma mixprec(...)` (also `_Pragma`, macros expanded) is a
 *    PragmaHandler: the clauses go to the core's parser
 *    (polyhedral/mp_pragma.c), errors point at the token; a pragma outside
 *    a function is an error.  scale=(SA, SB) is read by mp_pragma_scales
 *    and its names are looked up where the pragma stands (the VarDecls are
 *    kept for the rewrite).  The first token the parser receives after the
 *    pragma is recorded: the statement starting there is the annotated loop.
 *    Under -E the pragma is replayed as `_Pragma(...)` so that the
 *    preprocessed output keeps it.
 * 3. An AddBeforeMainAction's consumer sees each function before code
 *    generation (HandleTopLevelDecl) and rewrites the annotated nests
 *    through Sema (nest.cc, translate.cc, rewrite.cc).
 *
 * Diagnostics: refusals are warnings of -Wbackend-plugin (silenced by -w,
 * promoted by -Werror), transformed nests are remarks shown with
 * -Rpass=mixprec or -Rremark-backend-plugin; build.cc adds
 * -Rpass-missed=mixprec, -Rpass-analysis=mixprec, the optimisation record,
 * __MIXPREC__ and the dependency file.
 * Plugin arguments: -fplugin-arg-mixprec-dump (print each nest description
 * and plan to stderr; =FILE appends them to FILE); -fplugin-arg-mixprec-verify (every floating-point
 * nest of the translation unit runs in verify mode, as if its pragma had
 * the verify clause).  The driver passes them to the cc1 option
 * -plugin-arg-mixprec <arg>, which reaches MixprecAction::ParseArgs
 * (-Xclang -plugin-arg-mixprec -Xclang verify is the same).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "mp-clang.h"

using namespace clang;

std::vector<mp_pragma_rec> mp_pragmas;
bool mp_opt_dump;
bool mp_opt_verify;
std::string mp_opt_profile_use;
Sema *mp_sema;
static DiagnosticsEngine *mp_diags;
static std::vector<SourceLocation> mp_cookies;
static std::vector<int> mp_pending;   /* pragmas waiting for their next token */

int mp_loc_cookie(SourceLocation loc)
{
	mp_cookies.push_back(loc);
	return (int)mp_cookies.size();
}

SourceLocation mp_loc_of(int cookie)
{
	if (cookie <= 0 || cookie > (int)mp_cookies.size())
		return SourceLocation();
	return mp_cookies[cookie - 1];
}

/* ------------------------------------------------------- diagnostics */

void mp_report(DiagnosticsEngine::Level lvl, unsigned builtin_id, SourceLocation loc,
	       const std::string &text)
{
	if (!mp_diags)
		return;
	unsigned id = builtin_id ? builtin_id : mp_diags->getCustomDiagID(lvl, "%0");
	mp_diags->Report(loc, id) << text;
}

void mp_error(SourceLocation loc, const std::string &t) { mp_report(DiagnosticsEngine::Error, 0, loc, t); }
void mp_note(SourceLocation loc, const std::string &t) { mp_report(DiagnosticsEngine::Note, 0, loc, t); }
void mp_warning(SourceLocation loc, const std::string &t)
{
	mp_report(DiagnosticsEngine::Warning, diag::warn_fe_backend_plugin, loc, t);
}
void mp_remark(SourceLocation loc, const std::string &t)
{
	mp_report(DiagnosticsEngine::Remark, diag::remark_fe_backend_plugin, loc, t);
}

/* ------------------------------------------------------------ pragma */

static mp_tok_kind token_kind(const Token &t)
{
	if (t.getIdentifierInfo())
		return MP_TOK_NAME;
	switch (t.getKind()) {
	case tok::numeric_constant: return MP_TOK_NUMBER;
	case tok::string_literal: return MP_TOK_STRING;
	case tok::l_paren: case tok::r_paren: case tok::comma: case tok::equal:
	case tok::star: case tok::plus: case tok::minus: case tok::slash:
	case tok::l_square: case tok::r_square: case tok::period: case tok::arrow:
		return MP_TOK_PUNCT;
	default:
		return MP_TOK_OTHER;
	}
}

/* The element type a scale variable gives (MP_TY_F32 / MP_TY_F64), or
 * MP_TY_OTHER: for MP_SS_NAME a float/double variable or parameter, for
 * MP_SS_INDEXED an array of, or a pointer to, float/double (as
 * plugin-gcc/plugin.cc). */
mp_scalar mp_scale_elem(const NamedDecl *nd, mp_sspec_kind kind)
{
	const VarDecl *d = dyn_cast_or_null<VarDecl>(nd);
	if (!d)
		return MP_TY_OTHER;
	ASTContext &C = d->getASTContext();
	QualType t = d->getType().getCanonicalType();
	if (kind == MP_SS_INDEXED) {
		if (const ArrayType *at = C.getAsArrayType(t))
			t = at->getElementType();
		else if (const PointerType *pt = t->getAs<PointerType>())
			t = pt->getPointeeType();
		else
			return MP_TY_OTHER;
		t = t.getCanonicalType();
	}
	if (!t->isRealFloatingType())
		return MP_TY_OTHER;
	mp_scalar r = mp_scalar_of_type(C, t);
	return r == MP_TY_F32 || r == MP_TY_F64 ? r : MP_TY_OTHER;
}

/* Resolve the names of scale=(SA, SB) where the pragma stands: an
 * undeclared name is an error at its token; a declared one that is not a
 * usable float/double variable or array keeps elem MP_TY_OTHER (the core
 * then refuses the nest with a warning naming it).  The index of
 * NAME[ITER] is a loop iterator, usually declared by the loop below: it is
 * not looked up (the core compares it with the iterators' names). */
static bool resolve_scales(Preprocessor &PP, mp_pragma_rec &rec,
			   const std::vector<SourceLocation> &locs)
{
	bool ok = true;
	for (int s = 0; s < rec.p.nsspec && s < 2; s++) {
		mp_scale_spec &sp = rec.p.sspec[s];
		if (sp.kind != MP_SS_NAME && sp.kind != MP_SS_INDEXED)
			continue;
		SourceLocation at = sp.tok >= 0 && sp.tok < (int)locs.size() ? locs[sp.tok]
				  : rec.pragma_loc;
		LookupResult R(*mp_sema, &PP.getIdentifierTable().get(sp.name), at,
			       Sema::LookupOrdinaryName);
		if (!mp_sema->LookupName(R, mp_sema->getCurScope()) || R.empty()) {
			mp_error(at, std::string("'") + sp.name + "' undeclared in '#pragma mixprec'");
			ok = false;
			continue;
		}
		const NamedDecl *nd = R.isSingleResult() ? R.getFoundDecl() : nullptr;
		rec.scale_nd[s] = nd;
		VarDecl *vd = const_cast<VarDecl *>(dyn_cast_or_null<VarDecl>(nd));
		if (vd) {
			/* named by the pragma (and read by the generated code when
			   usable): no "unused" / "set but not used", as under GCC
			   (a reference built through Sema counts as a read) */
			DiagnosticsEngine &D = mp_sema->getDiagnostics();
			bool suppressed = D.getSuppressAllDiagnostics();
			D.setSuppressAllDiagnostics(true);
			(void)mp_sema->BuildDeclarationNameExpr(CXXScopeSpec(),
				DeclarationNameInfo(vd->getDeclName(), at), vd);
			D.setSuppressAllDiagnostics(suppressed);
			vd->setReferenced();
			vd->markUsed(vd->getASTContext());
		}
		sp.elem = mp_scale_elem(nd, sp.kind);
		if (sp.elem == MP_TY_OTHER)
			continue;
		rec.scale_decl[s] = vd;
	}
	return ok;
}

namespace {
struct MixprecPragma : PragmaHandler {
	MixprecPragma() : PragmaHandler("mixprec") {}

	/* -E: give the pragma back to the printer as _Pragma("mixprec ..."). */
	void replay(Preprocessor &PP, const std::vector<Token> &toks, SourceLocation loc)
	{
		std::string text = "mixprec";
		for (const Token &t : toks) {
			std::string s = PP.getSpelling(t);
			text += (t.hasLeadingSpace() ? " " : "") + s;
		}
		std::string lit = "\"";
		for (char ch : text) {
			if (ch == '"' || ch == '\\')
				lit += '\\';
			lit += ch;
		}
		lit += '"';
		Token *out = new Token[4];   /* owned by the preprocessor from here */
		out[0].startToken();
		out[0].setKind(tok::identifier);
		out[0].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
		out[0].setLocation(loc);
		out[1].startToken();
		out[1].setKind(tok::l_paren);
		out[1].setLocation(loc);
		out[2].startToken();
		out[2].setKind(tok::string_literal);
		PP.CreateString(lit, out[2], loc, loc);
		out[3].startToken();
		out[3].setKind(tok::r_paren);
		out[3].setLocation(loc);
		PP.RemovePragmaHandler(this);
		PP.EnterTokenStream(std::unique_ptr<Token[]>(out), 4, /*DisableMacroExpansion=*/false,
				    /*IsReinject=*/false);
	}

	void HandlePragma(Preprocessor &PP, PragmaIntroducer intro, Token &first) override
	{
		std::vector<Token> raw;
		Token t;
		for (PP.Lex(t); t.isNot(tok::eod) && t.isNot(tok::eof); PP.Lex(t))
			raw.push_back(t);
		SourceLocation end = t.getLocation();
		if (PP.isPreprocessedOutput()) {
			replay(PP, raw, intro.Loc);
			return;
		}
		std::vector<mp_token> toks;
		std::vector<SourceLocation> locs;
		for (const Token &x : raw) {
			if (toks.size() >= MP_MAX_PRAGMA_TOKENS) {
				char buf[128];
				snprintf(buf, sizeof buf, "too many arguments in '#pragma mixprec' "
					 "(more than %d tokens)", MP_MAX_PRAGMA_TOKENS);
				mp_error(raw[0].getLocation(), buf);
				return;
			}
			mp_token tk;
			memset(&tk, 0, sizeof tk);
			tk.kind = token_kind(x);
			snprintf(tk.text, sizeof tk.text, "%s", PP.getSpelling(x).c_str());
			/* a location cookie of the core (mp_loc_of), so that the
			   core's reasons may point at a token of the pragma */
			tk.loc = mp_loc_cookie(x.getLocation());
			toks.push_back(tk);
			locs.push_back(x.getLocation());
		}
		SourceLocation first_loc = locs.empty() ? first.getLocation() : locs[0];
		std::string err;
		if (!mp_core_load(err)) {
			mp_error(first_loc, "mixprec: " + err);
			return;
		}
		mp_pragma_rec rec;
		memset(&rec.p, 0, sizeof rec.p);
		rec.pragma_loc = first_loc;
		rec.tok_locs = locs;
		char msg[MP_REASON_LEN];
		int err_tok = 0;
		/* a parser error: at the token as written, like GCC (a macro's
		   body, not its use), with GCC's note at each expansion */
		auto parse_error = [&]() {
			SourceLocation el = err_tok >= 0 && err_tok < (int)locs.size() ? locs[err_tok]
					  : (locs.empty() ? first_loc : end.isValid() ? end : locs.back());
			SourceManager &SM = PP.getSourceManager();
			mp_error(SM.getSpellingLoc(el), msg);
			for (SourceLocation m = el; m.isMacroID();
			     m = SM.getImmediateMacroCallerLoc(m)) {
				StringRef name = Lexer::getImmediateMacroName(m, SM, PP.getLangOpts());
				if (name.empty())
					break;
				mp_note(SM.getSpellingLoc(SM.getImmediateExpansionRange(m).getBegin()),
					"in expansion of macro '" + name.str() + "'");
			}
		};
		if (mp_pragma_parse(toks.data(), (int)toks.size(), &rec.p, msg, sizeof msg, &err_tok)) {
			parse_error();
			return;
		}
		/* scale=(SA, SB): one scale per operand */
		if (mp_pragma_scales(toks.data(), (int)toks.size(), &rec.p, msg, sizeof msg, &err_tok)) {
			parse_error();
			return;
		}
		if (PP.getLangOpts().CPlusPlus || PP.getLangOpts().ObjC) {
			/* the statement shapes and the rewrite are those of C; C++
			   waits for its own support (as the GCC plugin) */
			mp_warning(first_loc, "'#pragma mixprec' is supported in C only; "
				   "this loop is compiled as written");
			return;
		}
		if (mp_sema && mp_sema->getCurBlock()) {
			/* clang's blocks (-fblocks): their bodies are not functions
			   mixprec rewrites */
			mp_warning(first_loc, "mixprec: loop nest not transformed: the pragma is "
				   "inside a block literal (^{ ... }); this loop is compiled as written");
			return;
		}
		if (!mp_sema || !mp_sema->getCurFunctionDecl()) {
			mp_error(first_loc, "'#pragma mixprec' must appear inside a function, "
				 "right before a 'for' loop");
			return;
		}
		if (rec.p.nsspec > 0 && !resolve_scales(PP, rec, locs))
			return;
		mp_pending.push_back((int)mp_pragmas.size());
		mp_pragmas.push_back(rec);
		/* The next token handed to the parser starts the annotated statement.
		   The watcher sees only tokens returned to the parser (not those
		   lexed by pragma handlers, nor re-injected ones). */
		static bool watching;
		if (!watching) {
			watching = true;
			PP.setTokenWatcher([](const Token &next) {
				if (mp_pending.empty())
					return;
				for (int id : mp_pending)
					mp_pragmas[id].next_loc = next.getLocation();
				mp_pending.clear();
			});
		}
	}
};

static PragmaHandlerRegistry::Add<MixprecPragma> *mp_pragma_reg;

/* ------------------------------------------------------ AST consumer */

struct MixprecConsumer : SemaConsumer {
	CompilerInstance &CI;
	explicit MixprecConsumer(CompilerInstance &ci) : CI(ci) {}

	void InitializeSema(Sema &S) override { mp_sema = &S; }
	void ForgetSema() override { mp_sema = nullptr; }

	bool HandleTopLevelDecl(DeclGroupRef g) override
	{
		if (mp_pragmas.empty() || !mp_sema)
			return true;
		for (Decl *d : g)
			if (FunctionDecl *fd = dyn_cast<FunctionDecl>(d))
				if (fd->doesThisDeclarationHaveABody()) {
					mp_cur_function = fd->getNameAsString();
					mp_process_function(CI.getASTContext(), *mp_sema, fd);
				}
		return true;
	}

	void HandleTranslationUnit(ASTContext &) override { mp_finish_unit(); }
};

struct MixprecAction : PluginASTAction {
	std::string dump_file;

	std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override
	{
		mp_diags = &CI.getDiagnostics();
		mp_build_setup(CI, dump_file.c_str());
		/* -Rpass=mixprec shows the remarks, as -Rremark-backend-plugin does */
		if (CI.getCodeGenOpts().OptimizationRemark.patternMatches("mixprec"))
			CI.getDiagnostics().setSeverity(diag::remark_fe_backend_plugin,
							diag::Severity::Remark, SourceLocation());
		return std::make_unique<MixprecConsumer>(CI);
	}

	bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &args) override
	{
		for (const std::string &a : args) {
			if (a == "dump")
				mp_opt_dump = true;
			else if (a.compare(0, 5, "dump=") == 0)
				mp_opt_dump = true, dump_file = a.substr(5);
			else if (a == "verify")
				mp_opt_verify = true;
			else if (a.compare(0, 12, "profile-use=") == 0)
				mp_opt_profile_use = a.substr(12);
			else
				CI.getDiagnostics().Report(CI.getDiagnostics().getCustomDiagID(
					DiagnosticsEngine::Warning, "mixprec: unknown plugin argument '%0'"))
					<< a;
		}
		return true;
	}

	ActionType getActionType() override { return AddBeforeMainAction; }
};

static FrontendPluginRegistry::Add<MixprecAction> *mp_action_reg;
} // namespace

/* ------------------------------------------------------ registration */

/* The major version of the clang that loaded the plugin, from its
 * version string ("Debian clang version 14.0.6"), or -1. */
static int host_major(std::string &full)
{
	full = getClangFullVersion();
	size_t p = full.find("version ");
	if (p == std::string::npos)
		return -1;
	return atoi(full.c_str() + p + 8);
}

__attribute__((constructor)) static void mp_register(void)
{
	std::string full;
	int major = host_major(full);
	if (major != MP_CLANG_MAJOR_BUILT) {
		/* the pkg-config variable naming the plugin for the host clang */
		char var[32];
		if (major == MP_CLANG_DEFAULT_MAJOR)
			snprintf(var, sizeof var, "clang_plugin");
		else
			snprintf(var, sizeof var, "clang%d_plugin", major);
		fprintf(stderr, "error: mixprec: this plugin was built for clang %d and cannot be "
			"loaded by clang %d (%s); use mixprec's plugin for clang %d "
			"(pkg-config --variable=%s mixprec), or build one with "
			"cmake -DMIXPREC_CLANG_EXTRA_MAJORS=%d\n",
			MP_CLANG_MAJOR_BUILT, major, full.c_str(), major, var, major);
		fflush(stderr);
		_exit(1);
	}
	mp_pragma_reg = new PragmaHandlerRegistry::Add<MixprecPragma>(
		"mixprec", "#pragma mixprec(int8, acc=int32): run the loop nest on low-precision kernels");
	mp_action_reg = new FrontendPluginRegistry::Add<MixprecAction>(
		"mixprec", "mixprec: rewrite '#pragma mixprec' loop nests into runtime kernel calls");
}
