/* plugin.cc -- registration of mixprec's GCC plugin.
 *
 *   gcc -fplugin=mixprec.so ...
 *
 * 1. `#pragma mixprec(...)` is registered with macro expansion, run when the
 *    lexer reaches it in C (lex_pragma: it may stand between `#pragma omp
 *    parallel for` and its loop).  Its handler parses the clauses with the
 *    core's parser (polyhedral/mp_pragma.c) and adds a marker statement
 *    __mixprec_marker(ID)  to the statement list being parsed; before
 *    genericization settle_markers moves it right before the annotated
 *    loop where the parser had looked one token ahead (where a _Pragma
 *    stands in the source text: pragma-text.cc).
 * 2. Before genericization, every marker must be followed by a `for`
 *    statement; the loop's location is recorded for later diagnostics.
 * 3. A GIMPLE pass after "cfg" (mixprec.cc) finds each marker, analyses the
 *    nest that follows it and rewrites it, then deletes the marker.
 * 4. build.cc: __MIXPREC__, the plugin in the dependency file (-MD), the
 *    -fopt-info options merged for the pass, the dump file.
 *
 * Plugin arguments: -fplugin-arg-mixprec-dump (print each nest description
 * and plan to stderr, for debugging and bug reports; =FILE appends them to
 * FILE); -fplugin-arg-mixprec-verify
 * (every floating-point nest of the translation unit runs in verify mode,
 * as if its pragma had the verify clause); -fplugin-arg-mixprec-profile-use=
 * FILE (the precisions of `auto` nests, written by mixprec-tune:
 * polyhedral/mp_auto.c).
 */
#include "gcc-common.h"
#include "plugin-version.h"
#include "mp-gcc.h"

int plugin_is_GPL_compatible;

std::vector<mp_pragma_rec> mp_pragmas;
static std::vector<location_t> mp_cookies;
bool mp_opt_dump;
bool mp_opt_verify;
const char *mp_opt_profile_use;

/* The scale variables named by scale=(SA, SB), chained in a TREE_LIST that
 * is a GC root: the decls kept in mp_pragma_rec.scale_decl must survive the
 * collections between the pragma and the pass that rewrites its nest. */
static tree mp_scale_roots;

void mp_keep_tree(tree t)
{
	mp_scale_roots = tree_cons(NULL_TREE, t, mp_scale_roots);
}

int mp_loc_cookie(location_t loc)
{
	mp_cookies.push_back(loc);
	return (int)mp_cookies.size();
}

location_t mp_loc_of(int cookie)
{
	if (cookie <= 0 || cookie > (int)mp_cookies.size())
		return UNKNOWN_LOCATION;
	return mp_cookies[cookie - 1];
}

static tree mp_marker_decl;

static tree marker_decl(void)
{
	if (!mp_marker_decl) {
		tree ft = build_function_type_list(void_type_node, integer_type_node, NULL_TREE);
		mp_marker_decl = build_fn_decl(MP_MARKER_NAME, ft);
		DECL_EXTERNAL(mp_marker_decl) = 1;
		TREE_PUBLIC(mp_marker_decl) = 1;
		DECL_ARTIFICIAL(mp_marker_decl) = 1;
	}
	return mp_marker_decl;
}

/* A floating constant as the shortest decimal that gives back its value in
 * its own type ("0.01" for 0.01f, "-0.5" reads as '-' then "0.5"), the
 * spelling users recognise in messages; the core reads it with strtod. */
static void real_text(tree x, char *buf, size_t len)
{
	char full[128];
	real_to_decimal(full, TREE_REAL_CST_PTR(x), sizeof full, 0, 1);
	double d = strtod(full, NULL);
	bool is_float = TYPE_PRECISION(TREE_TYPE(x)) <= 32;
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		double back = strtod(buf, NULL);
		if (is_float ? (float)back == (float)d : back == d)
			return;
	}
	snprintf(buf, len, "%.17g", d);
}

/* Text of a pragma token for the core's parser. */
static void token_text(enum cpp_ttype t, tree x, char *buf, size_t len)
{
	switch (t) {
	case CPP_NAME:
		snprintf(buf, len, "%s", IDENTIFIER_POINTER(x));
		return;
	case CPP_NUMBER:
		if (x && TREE_CODE(x) == INTEGER_CST && tree_fits_shwi_p(x))
			snprintf(buf, len, "%lld", (long long)tree_to_shwi(x));
		else if (x && TREE_CODE(x) == INTEGER_CST && tree_fits_uhwi_p(x))
			/* 2^63 .. 2^64 - 1 (an unsigned constant): its digits, as
			   clang spells it */
			snprintf(buf, len, "%llu", (unsigned long long)tree_to_uhwi(x));
		else if (x && TREE_CODE(x) == REAL_CST)
			real_text(x, buf, len);
		else
			snprintf(buf, len, "?");
		return;
	case CPP_STRING:
		snprintf(buf, len, "\"%s\"", x ? TREE_STRING_POINTER(x) : "");
		return;
	default:
		snprintf(buf, len, "%s", cpp_type2name(t, 0));
		return;
	}
}

static mp_tok_kind token_kind(enum cpp_ttype t)
{
	switch (t) {
	case CPP_NAME: return MP_TOK_NAME;
	case CPP_NUMBER: return MP_TOK_NUMBER;
	case CPP_STRING: return MP_TOK_STRING;
	case CPP_OPEN_PAREN: case CPP_CLOSE_PAREN: case CPP_COMMA: case CPP_EQ:
	case CPP_MULT: case CPP_PLUS: case CPP_MINUS: case CPP_DIV:
	case CPP_OPEN_SQUARE: case CPP_CLOSE_SQUARE: case CPP_DOT: case CPP_DEREF:
		return MP_TOK_PUNCT;
	default:
		return MP_TOK_OTHER;
	}
}

/* The element type a scale variable gives (MP_TY_F32 / MP_TY_F64), or
 * MP_TY_OTHER: for MP_SS_NAME a float/double variable or parameter, for
 * MP_SS_INDEXED an array of, or a pointer to, float/double. */
static mp_scalar scale_elem(tree d, mp_sspec_kind kind)
{
	if (!d || (TREE_CODE(d) != VAR_DECL && TREE_CODE(d) != PARM_DECL))
		return MP_TY_OTHER;
	tree t = TREE_TYPE(d);
	if (kind == MP_SS_INDEXED) {
		if (!t || (TREE_CODE(t) != ARRAY_TYPE && TREE_CODE(t) != POINTER_TYPE))
			return MP_TY_OTHER;
		t = TREE_TYPE(t);
	}
	if (!t || TREE_CODE(t) != REAL_TYPE || DECIMAL_FLOAT_TYPE_P(t))
		return MP_TY_OTHER;
	if (TYPE_MODE(t) != SFmode && TYPE_MODE(t) != DFmode)
		return MP_TY_OTHER;
	mp_scalar r = mp_scalar_of_type(t);
	return r == MP_TY_F32 || r == MP_TY_F64 ? r : MP_TY_OTHER;
}

/* Resolve the names of scale=(SA, SB) where the pragma stands: an
 * undeclared name is an error at its token; a declared one that is not a
 * usable float/double variable or array keeps elem MP_TY_OTHER (the core
 * then refuses the nest with a warning naming it).  The index of
 * NAME[ITER] is a loop iterator, usually declared by the loop below: it is
 * not looked up (the core compares it with the iterators' names). */
static bool resolve_scales(mp_pragma_rec &rec, const std::vector<location_t> &locs)
{
	bool ok = true;
	for (int s = 0; s < rec.p.nsspec && s < 2; s++) {
		mp_scale_spec &sp = rec.p.sspec[s];
		if (sp.kind != MP_SS_NAME && sp.kind != MP_SS_INDEXED)
			continue;
		location_t at = sp.tok >= 0 && sp.tok < (int)locs.size() ? locs[sp.tok]
			      : rec.pragma_loc;
		tree d = lookup_name ? lookup_name(get_identifier(sp.name)) : NULL_TREE;
		if (!d) {
			error_at(at, "%qs undeclared in %<#pragma mixprec%>", sp.name);
			ok = false;
			continue;
		}
		/* the pragma reads it (the generated code will): no "unused" or
		   "set but not used" warning */
		if (TREE_CODE(d) == VAR_DECL || TREE_CODE(d) == PARM_DECL) {
			TREE_USED(d) = 1;
			DECL_READ_P(d) = 1;
		}
		sp.elem = scale_elem(d, sp.kind);
		if (sp.elem == MP_TY_OTHER)
			continue;
		rec.scale_decl[s] = d;
		mp_scale_roots = tree_cons(NULL_TREE, d, mp_scale_roots);
	}
	return ok;
}

/* The C lexer reads a pp-number such as the tile clause's `64x32x4` as an
 * integer with a bad suffix: cpplib reports an error and the token's value
 * is error_mark_node.  While the handler lexes the pragma, cpplib's errors
 * are held back (held_diag); a number that failed is then read back from
 * the source as the pp-number it is (clang's lexer gives the same text),
 * and any other held error is reported as cpplib would have. */
struct held_error { location_t loc; std::string text; };
static std::vector<held_error> mp_held;
static bool (*mp_cpp_diag)(cpp_reader *, enum cpp_diagnostic_level, enum cpp_warning_reason,
			   rich_location *, const char *, va_list *);

static bool held_diag(cpp_reader *r, enum cpp_diagnostic_level lvl, enum cpp_warning_reason why,
		      rich_location *rl, const char *msg, va_list *ap)
{
	if (lvl != CPP_DL_ERROR || !rl)
		return mp_cpp_diag(r, lvl, why, rl, msg, ap);
	char buf[512];
	vsnprintf(buf, sizeof buf, msg, *ap);
	mp_held.push_back({ rl->get_loc(), buf });
	return true;
}

/* The pp-number spelled at LOC in the source, or "" (a macro, no file). */
static std::string ppnumber_at(location_t loc)
{
	loc = linemap_resolve_location(line_table, loc, LRK_SPELLING_LOCATION, NULL);
	expanded_location x = expand_location(loc);
	if (!x.file || x.line <= 0 || x.column <= 0)
		return "";
	char_span line = location_get_source_line(x.file, x.line);
	std::string r;
	for (size_t i = (size_t)x.column - 1; line && i < line.length(); i++) {
		char ch = line[i];
		bool exp_sign = (ch == '+' || ch == '-') && !r.empty() &&
				strchr("eEpP", r.back());
		if (!ISALNUM(ch) && ch != '_' && ch != '.' && !exp_sign)
			break;
		r += ch;
	}
	return r;
}

/* The last characters of code that no statement follows: the pragma
 * after one of them stands inside an expression or a condition. */
#define MP_NOT_BEFORE_STMT "+-*/%=<>!&|^,([?~.\"'"

static bool mp_lexing;          /* handle_pragma runs from lex_pragma */
static int mp_next_id = -1;     /* a lexed pragma waiting for line_change */
static const char *mp_next_file;
static int mp_next_line;

static void handle_pragma(cpp_reader *)
{
	std::vector<mp_token> toks;
	std::vector<location_t> locs;
	location_t loc, first = input_location;
	tree x;
	enum cpp_ttype t;
	bool too_long = false;

	cpp_callbacks *cb = parse_in ? cpp_get_callbacks(parse_in) : NULL;
	if (cb) {
		mp_cpp_diag = cb->diagnostic;
		cb->diagnostic = held_diag;
	}
	/* A _Pragma inside the line (written there, or from a macro such
	   as `#define P _Pragma("mixprec(int8)")`) would come back from
	   pragma_lex as a nested pragma token, which GCC 12's parser asserts
	   against (c_parser_consume_token: an internal compiler error; its
	   own OpenMP parser peeks and reports it).  While the line is read,
	   _Pragma is an ordinary identifier: an unknown token, reported by
	   the core at its place.  Its node is a plain identifier meanwhile
	   (NT_VOID with no answers, a consistent state for the collector). */
	cpp_hashnode *pragma_op = parse_in && lang_GNU_C() ? cpp_lookup(parse_in, (const unsigned char *)"_Pragma",
							 7) : NULL;
	bool pragma_op_off = pragma_op && pragma_op->type == NT_BUILTIN_MACRO;
	enum cpp_builtin_type pragma_op_bt = pragma_op_off ? pragma_op->value.builtin : BT_PRAGMA;
	if (pragma_op_off) {
		pragma_op->type = NT_VOID;
		pragma_op->value.answers = NULL;
	}
	bool nested = false;
	for (;;) {
		mp_held.clear();
		/* A nested pragma token: a _Pragma("...") line whose text held
		   a further _Pragma (from a macro), which cpplib ran while it
		   collected the line.  pragma_lex would consume it (the same
		   assertion); stop before it with an error, and GCC's parser
		   skips the rest of the line (as after any handler).  C only:
		   the C++ parser has lexed the file before (and the pragma is
		   refused there). */
		const cpp_token *next = NULL;
		for (int i = 0; parse_in && lang_GNU_C() && !mp_lexing && i < 64; i++) {
			next = cpp_peek_token(parse_in, i);
			if (!next || next->type != CPP_PADDING)
				break;
		}
		if (next && next->type == CPP_PRAGMA) {
			nested = true;
			error_at(next->src_loc, "a pragma inside %<#pragma mixprec%> (a %<_Pragma%> "
				 "in its text, or from a macro there)");
			break;
		}
		t = mp_lexing ? c_lex_with_flags(&x, &loc, NULL, 0) : pragma_lex(&x, &loc);
		std::string spelled;
		if (t == CPP_NUMBER && x == error_mark_node && !mp_held.empty())
			spelled = ppnumber_at(loc);
		if (spelled.empty() || spelled.size() >= sizeof(mp_token().text))
			for (const held_error &h : mp_held)
				error_at(h.loc, "%s", h.text.c_str());
		else
			mp_held.clear();
		if (t == CPP_EOF)
			break;
		if (toks.size() >= MP_MAX_PRAGMA_TOKENS) {
			too_long = true;
			continue;   /* drain the line */
		}
		mp_token tk;
		memset(&tk, 0, sizeof tk);
		tk.kind = token_kind(t);
		if (!spelled.empty() && spelled.size() < sizeof tk.text)
			snprintf(tk.text, sizeof tk.text, "%s", spelled.c_str());
		else
			token_text(t, x, tk.text, sizeof tk.text);
		/* a location cookie of the core (mp_loc_of), so that the core's
		   reasons may point at a token of the pragma */
		tk.loc = mp_loc_cookie(loc);
		toks.push_back(tk);
		locs.push_back(loc);
	}
	if (cb)
		cb->diagnostic = mp_cpp_diag;
	if (pragma_op_off) {
		pragma_op->type = NT_BUILTIN_MACRO;
		pragma_op->value.builtin = pragma_op_bt;
	}
	if (!locs.empty())
		first = locs[0];
	else if (mp_lexing)
		first = loc;   /* the end of the line: input_location is the parser's */
	if (nested)
		return;
	if (too_long) {
		error_at(first, "too many arguments in %<#pragma mixprec%> (more than %d tokens)",
			 MP_MAX_PRAGMA_TOKENS);
		return;
	}

	mp_pragma_rec rec;
	memset(&rec.p, 0, sizeof rec.p);
	rec.pragma_loc = first;
	rec.loop_loc = UNKNOWN_LOCATION;
	rec.bad = false;
	rec.region = false;
	rec.region_head = false;
	rec.brace_loc = UNKNOWN_LOCATION;
	rec.lexed = mp_lexing;
	rec.semi_next = false;
	rec.close_next = false;
	rec.directive = false;
	rec.pragma_col = 0;
	rec.pragma_macro_col = 0;
	rec.tok_locs = locs;
	rec.scale_decl[0] = rec.scale_decl[1] = NULL_TREE;
	rec.omp_go = rec.omp_threads = NULL_TREE;
	rec.omp_collapse = 0;
	rec.omp_num_threads = false;

	char err[MP_REASON_LEN];
	int err_tok = 0;
	if (mp_pragma_parse(toks.data(), (int)toks.size(), &rec.p, err, sizeof err, &err_tok) != 0) {
		location_t el = err_tok >= 0 && err_tok < (int)locs.size() ? locs[err_tok]
			      : (locs.empty() ? first : locs.back());
		error_at(el, "%s", err);
		return;
	}
	/* scale=(SA, SB): one scale per operand */
	if (mp_pragma_scales(toks.data(), (int)toks.size(), &rec.p, err, sizeof err,
			     &err_tok) != 0) {
		location_t el = err_tok >= 0 && err_tok < (int)locs.size() ? locs[err_tok]
			      : (locs.empty() ? first : locs.back());
		error_at(el, "%s", err);
		return;
	}
	if (!lang_GNU_C()) {
		/* the GIMPLE shapes and the loop association are those of the C
		   front end; C++ waits for its own support */
		warning_at(first, OPT_Wpragmas, "%<#pragma mixprec%> is supported in C only; "
			   "this loop is compiled as written");
		return;
	}
	if (!current_function_decl) {
		error_at(first, "%<#pragma mixprec%> must appear inside a function, "
			 "right before a %<for%> loop");
		return;
	}
	if (rec.p.nsspec > 0 && !resolve_scales(rec, locs))
		return;
	int inv_line = 0;   /* the pragma's macro invocation starts on this line */
	int inv_col = 0, inv_end = 0, inv_last_line = 0;
	bool inv_args = false;   /* the pragma in the invocation's arguments */
	std::string inv_last;   /* the invocation's last line */
	if (mp_lexing) {
		/* inside an expression or a statement's parentheses (the
		   parser saw no pragma there, only the lexer) */
		expanded_location e = expand_location(
			linemap_resolve_location(line_table, first, LRK_MACRO_EXPANSION_POINT, NULL));
		char_span text = e.file ? location_get_source_line(e.file, e.line) : char_span(NULL, 0);
		size_t c = 0;
		while (text && c < text.length() && ISSPACE(text[c]))
			c++;
		if (text && !(c < text.length() && text[c] == '#')) {
			std::string line(text.get_buffer(), text.length());
			int col = 0;
			const line_map *map = linemap_lookup(
				line_table, linemap_resolve_location(line_table, first,
								     LRK_MACRO_EXPANSION_POINT, NULL));
			/* the end of a macro invocation spanning lines: the
			   pragma stands where the invocation starts */
			if (mp_pragma_column(line, 0, &col) == 0 && map &&
			    !linemap_macro_expansion_map_p(map) &&
			    mp_pragma_invocation(e.file, e.line, &inv_line, &inv_col, &inv_end, &inv_args) &&
			    ORDINARY_MAP_STARTING_LINE_NUMBER(linemap_check_ordinary(map)) <=
				    (linenum_type)inv_line) {
				first = linemap_position_for_line_and_column(
					line_table, linemap_check_ordinary(map), inv_line, inv_col);
				rec.pragma_loc = first;
				inv_last = line;
				inv_last_line = e.line;
				e.line = inv_line;
				text = location_get_source_line(e.file, e.line);
			} else
				inv_line = 0;
		}
		int last = 0, next = 0;
		if (text && c < text.length() && text[c] == '#')
			last = mp_code_before(e.file, e.line, 0);
		else if (text) {
			/* a _Pragma written in the line (itself, or a macro holding
			   it): the code before its column, and after it on the
			   line; not one in a macro's arguments, which the macro
			   places */
			std::string line(text.get_buffer(), text.length());
			int col = 0, in_macro = 0;
			bool in_args = false;
			if (mp_pragma_column(line, 0, &col, &in_macro, &in_args) == 1 && !in_args &&
			    col > 0) {
				int brace_col = 0;
				last = mp_code_before(e.file, e.line, col);
				/* in a macro invocation's arguments: its '(' or ','
				   before the pragma opens the argument */
				if (inv_args && (last == '(' || last == ','))
					last = 0;
				/* a macro holding the pragma: what its expansion
				   puts after it, else what follows the invocation */
				std::string name = mp_ident_at(line, col);
				int tail = name == "_Pragma" ? 0 : mp_macro_tail(name, 0);
				next = tail ? tail
				       : inv_line && !inv_args ? mp_code_after(inv_last, inv_end + 1)
				       : mp_code_after(line, col, &brace_col);
				location_t at = linemap_resolve_location(line_table, first,
									 LRK_MACRO_EXPANSION_POINT, NULL);
				const line_map *map = linemap_lookup(line_table, at);
				if (map && linemap_macro_expansion_map_p(map))
					map = NULL;
				/* an error below: at the _Pragma, as clang reports it */
				if (map && ((last && strchr(MP_NOT_BEFORE_STMT, last)) ||
					    next == ';' || next == '}'))
					first = linemap_position_for_line_and_column(
						line_table, linemap_check_ordinary(map), e.line, col);
				/* `_Pragma(...) {`: a region, as a '#pragma' line
				   before a line starting with '{' */
				if (map && next == '{' && !tail)
					rec.brace_loc = linemap_position_for_line_and_column(
						line_table, linemap_check_ordinary(map), e.line, brace_col);
			}
		}
		/* (a _Pragma may stand in a macro's arguments); `;` and `}`
		   after a _Pragma on its line: an empty statement, the end of
		   an expression statement or of a block, as after a '#pragma'
		   line (line_change) */
		if ((last && strchr(MP_NOT_BEFORE_STMT, last)) || next == ';' || next == '}') {
			error_at(first, "%<#pragma mixprec%> must be followed by a %<for%> or %<while%> loop");
			return;
		}
	}
	if (!add_stmt) {
		return;
	}
	/* an empty statement right after the pragma leaves nothing in the
	   statement list: the marker would annotate the loop after it */
	if (parse_in && !mp_lexing) {
		const cpp_token *next = cpp_peek_token(parse_in, 0);
		if (next && next->type == CPP_SEMICOLON) {
			error_at(first, "%<#pragma mixprec%> must be followed by a %<for%> or %<while%> loop");
			return;
		}
		if (next && next->type == CPP_OPEN_BRACE)
			rec.brace_loc = next->src_loc;
	}
	int id = (int)mp_pragmas.size();
	mp_pragmas.push_back(rec);
	tree call = build_call_expr_loc(first, marker_decl(), 1,
					build_int_cst(integer_type_node, id));
	add_stmt(call);
	if (mp_lexing) {
		/* the first token after a '#pragma' line starts the next line
		   (line_change); a _Pragma's is on its line, unseen there */
		expanded_location e = expand_location(locs.empty() ? first : locs.back());
		if (inv_line)
			e.line = inv_line;
		char_span text = e.file && !linemap_location_from_macro_expansion_p(line_table, first)
				 ? location_get_source_line(e.file, e.line) : char_span(NULL, 0);
		size_t c = 0;
		while (text && c < text.length() && ISSPACE(text[c]))
			c++;
		if (text && c < text.length() && text[c] == '#') {
			mp_pragmas[id].directive = true;
			mp_next_id = id;
			mp_next_file = e.file;
			mp_next_line = e.line;
		} else if (text) {
			/* a _Pragma: its tokens' columns are those of its string;
			   its own column, when the line shows one such _Pragma */
			std::string line(text.get_buffer(), text.length());
			int col = 0, in_macro = 0;
			if (mp_pragma_column(line, 0, &col, &in_macro) == 1) {
				mp_pragmas[id].pragma_col = col;
				mp_pragmas[id].pragma_macro_col = in_macro;
				/* `_Pragma("mixprec(...)")` written alone on its
				   line: the next line's first token is the one after
				   it, as after a '#pragma' line */
				size_t q = col - 1, depth = 0;
				bool direct = line.compare(q, 7, "_Pragma") == 0, ended = false;
				for (q += 7; direct && q < line.size(); q++) {
					char ch = line[q];
					if (ch == '"') {
						for (q++; q < line.size() && line[q] != '"'; q++)
							if (line[q] == '\\')
								q++;
					} else if (ch == '(')
						depth++;
					else if (ch == ')' && depth && --depth == 0) {
						ended = true;
						break;
					}
				}
				bool alone = direct && ended && !in_macro;
				for (size_t b = 0; alone && b + 1 < (size_t)col; b++)
					alone = ISSPACE((unsigned char)line[b]);
				for (q++; alone && q < line.size(); q++)
					if (!ISSPACE((unsigned char)line[q])) {
						alone = line.compare(q, 2, "//") == 0;
						break;
					}
				if (alone) {
					mp_next_id = id;
					mp_next_file = e.file;
					mp_next_line = e.line;
				}
				/* a macro whose expansion ends with the pragma, alone
				   on its line (`OPEN`, or `OPENF(...` over lines, the
				   line of its `)` ending there): the same */
				std::string name = direct ? std::string() : mp_ident_at(line, col);
				bool malone = !in_macro && !inv_args && !name.empty();
				for (size_t b = 0; malone && b + 1 < (size_t)col; b++)
					malone = ISSPACE((unsigned char)line[b]);
				if (malone && mp_macro_tail(name, 0) == 0 &&
				    (inv_line ? mp_code_after(inv_last, inv_end + 1) : mp_code_after(line, col)) == 0) {
					mp_next_id = id;
					mp_next_file = e.file;
					mp_next_line = inv_line ? inv_last_line : e.line;
				}
			}
		}
	}
}

/* The lexer's first token of each line (libcpp's line_change callback,
 * which the C front end uses for its own bookkeeping, called on): the
 * token after a lexed pragma's line, which the parse-time handler peeked
 * at.  ';': an empty statement, nothing in the statement list (the marker
 * would annotate the loop after it); '{': a block, perhaps a region. */
static void (*mp_prev_line_change)(cpp_reader *, const cpp_token *, int);

static void line_change(cpp_reader *r, const cpp_token *tok, int parsing_args)
{
	expanded_location x = mp_next_id >= 0 && !parsing_args ? expand_location(tok->src_loc)
							       : expanded_location();
	/* (a _Pragma's own line is reported again when libcpp has run it) */
	if (mp_next_id >= 0 && !parsing_args &&
	    !(x.file && mp_next_file && !strcmp(x.file, mp_next_file) && x.line <= mp_next_line)) {
		int id = mp_next_id;
		mp_next_id = -1;
		if (x.file && mp_next_file && !strcmp(x.file, mp_next_file) && x.line > mp_next_line) {
			if (tok->type == CPP_SEMICOLON)
				mp_pragmas[id].semi_next = true;
			else if (tok->type == CPP_OPEN_BRACE)
				mp_pragmas[id].brace_loc = tok->src_loc;
			else if (tok->type == CPP_CLOSE_BRACE)
				mp_pragmas[id].close_next = true;
		}
	}
	if (mp_prev_line_change)
		mp_prev_line_change(r, tok, parsing_args);
}

/* `#pragma mixprec` in C is read when the lexer reaches it, not when the
 * parser does (a deferred pragma): between `#pragma omp parallel for` and
 * its loop the parser wants the `for` keyword, and a deferred pragma's
 * token there is a hard error ("for statement expected before
 * '#pragma'").  The handler is the same; its marker goes into the
 * statement list the parser is building, which is the pragma's place
 * except where the parser looked one token ahead (an if statement asks
 * whether `else` follows) or stands inside an OpenMP loop directive:
 * mp_settle_markers (settle.cc) puts those right before genericization. */
static void lex_pragma(cpp_reader *r)
{
	cpp_callbacks *cb = cpp_get_callbacks(r);
	if (cb && cb->line_change != line_change) {
		mp_prev_line_change = cb->line_change;
		cb->line_change = line_change;
	}
	mp_lexing = true;
	handle_pragma(r);
	mp_lexing = false;
}

static void register_pragmas(void *, void *)
{
	/* -E -fdirectives-only: libcpp's directives-only scan cannot print a
	   registered pragma (GCC crashed: "unspellable token PRAGMA_EOL");
	   unregistered, the pragma stays in the output as written */
	if (flag_preprocess_only && parse_in && cpp_get_options(parse_in)->directives_only)
		return;
	if (parse_in && lang_GNU_C() && !flag_preprocess_only && c_lex_with_flags)
		cpp_register_pragma(parse_in, NULL, "mixprec", lex_pragma, true);
	else if (c_register_pragma_with_expansion)
		c_register_pragma_with_expansion(NULL, "mixprec", handle_pragma);
}

/* ------------------------------------------------ marker -> loop check */

bool mp_is_marker(tree t, int *id)
{
	if (!t || TREE_CODE(t) != CALL_EXPR)
		return false;
	tree fn = get_callee_fndecl(t);
	if (!fn || fn != mp_marker_decl)
		return false;
	*id = (int)tree_to_shwi(CALL_EXPR_ARG(t, 0));
	return true;
}

/* Statements that may sit between the pragma and its loop: -g's
 * DEBUG_BEGIN_STMTs, and the init expression of `for (i = 0; ...)` when i
 * is declared earlier (the C front end emits it before the FOR_STMT). */
bool mp_is_debug_marker(tree t)
{
	return t && TREE_CODE(t) == DEBUG_BEGIN_STMT;
}

/* The statement after IT, past -g's DEBUG_BEGIN_STMTs (an end iterator at
 * the end of the list). */
tree_stmt_iterator mp_next_stmt(tree_stmt_iterator it)
{
	tsi_next(&it);
	while (!tsi_end_p(it) && mp_is_debug_marker(tsi_stmt(it)))
		tsi_next(&it);
	return it;
}

/* Whether E is the statement the C front end emits ahead of `for (i = 0;
 * ...)` when i is declared earlier (FOR_INIT_STMT is then empty): an
 * assignment, or a comma of them (`for (i = 0, c = C; ...)`). */
bool mp_is_hoisted_init(tree e)
{
	while (e && CONVERT_EXPR_P(e))
		e = TREE_OPERAND(e, 0);
	return e && (TREE_CODE(e) == MODIFY_EXPR || TREE_CODE(e) == COMPOUND_EXPR);
}

/* When IT's statement is such an init (mp_is_hoisted_init) and the next
 * statement (past debug markers) the `for` without init it belongs to:
 * that loop's iterator in *LOOP, true. */
bool mp_init_then_for(tree_stmt_iterator it, tree_stmt_iterator *loop)
{
	if (tsi_end_p(it) || !mp_is_hoisted_init(tsi_stmt(it)))
		return false;
	tree_stmt_iterator n = mp_next_stmt(it);
	if (tsi_end_p(n) || TREE_CODE(tsi_stmt(n)) != FOR_STMT || FOR_INIT_STMT(tsi_stmt(n)))
		return false;
	*loop = n;
	return true;
}

/* The statement that a marker annotates: FOR_STMT or WHILE_STMT (with
 * DO: a DO_STMT), possibly inside the scope the C front end opens for `for
 * (int i = ...)`, or inside braces. */
static tree annotated_for(tree s, bool do_stmt = false)
{
	while (s) {
		if (do_stmt ? TREE_CODE(s) == DO_STMT
			    : TREE_CODE(s) == FOR_STMT || TREE_CODE(s) == WHILE_STMT)
			return s;
		if (TREE_CODE(s) == BIND_EXPR) {
			s = BIND_EXPR_BODY(s);
			continue;
		}
		if (TREE_CODE(s) == STATEMENT_LIST) {
			tree next = NULL_TREE;
			for (tree_stmt_iterator i = tsi_start(s); !tsi_end_p(i); tsi_next(&i)) {
				tree e = tsi_stmt(i);
				if (TREE_CODE(e) == DECL_EXPR || mp_is_debug_marker(e))
					continue;
				next = e;
				break;
			}
			s = next;
			continue;
		}
		return NULL_TREE;
	}
	return NULL_TREE;
}

/* The loop statement ITEM is (a FOR_STMT or WHILE_STMT, or the scope the
 * C front end opens around `for (int i = ...)`), or NULL_TREE. */
tree mp_loop_item(tree item)
{
	if (!item)
		return NULL_TREE;
	if (TREE_CODE(item) == FOR_STMT || TREE_CODE(item) == WHILE_STMT)
		return item;
	if (TREE_CODE(item) != BIND_EXPR)
		return NULL_TREE;
	tree body = BIND_EXPR_BODY(item), loop = NULL_TREE;
	if (body && TREE_CODE(body) == STATEMENT_LIST) {
		for (tree_stmt_iterator i = tsi_start(body); !tsi_end_p(i); tsi_next(&i)) {
			tree e = tsi_stmt(i);
			if (TREE_CODE(e) == DECL_EXPR || mp_is_debug_marker(e))
				continue;
			if (loop || (TREE_CODE(e) != FOR_STMT && TREE_CODE(e) != WHILE_STMT))
				return NULL_TREE;
			loop = e;
		}
		return loop;
	}
	return body && (TREE_CODE(body) == FOR_STMT || TREE_CODE(body) == WHILE_STMT) ? body
											 : NULL_TREE;
}

/* Where the marker of loop item IT goes: before it, or before the
 * `i = 0;` the C front end emits ahead of `for (i = 0; ...)` when i is
 * declared earlier (FOR_INIT_STMT is then empty). */
static tree_stmt_iterator marker_place(tree list, tree_stmt_iterator it)
{
	tree l = mp_loop_item(tsi_stmt(it));
	if (!l || TREE_CODE(l) != FOR_STMT || FOR_INIT_STMT(l) || tsi_stmt(it) != l)
		return it;
	tree_stmt_iterator prev = it;
	tsi_prev(&prev);
	while (!tsi_end_p(prev) && mp_is_debug_marker(tsi_stmt(prev)))
		tsi_prev(&prev);
	return !tsi_end_p(prev) && mp_is_hoisted_init(tsi_stmt(prev)) ? prev : it;
}

/* A region of pragma ID: a marker of its own (a copy of ID's record,
 * region set) before each loop item in ITEMS of LIST; ID's own marker
 * annotates nothing (region_head). */
static tree dead_loop(tree s, tree prev, bool own = false);
static void warn_dead(mp_pragma_rec &r, tree dead);

static void mark_loops(tree list, const std::vector<tree_stmt_iterator> &items, int id)
{
	mp_pragmas[id].region = true;
	mp_pragmas[id].region_head = true;
	std::vector<tree_stmt_iterator> at;
	for (const tree_stmt_iterator &it : items)
		at.push_back(marker_place(list, it));
	for (size_t k = 0; k < items.size(); k++) {
		tree l = mp_loop_item(tsi_stmt(items[k]));
		mp_pragma_rec copy = mp_pragmas[id];
		copy.region_head = false;
		copy.loop_loc = EXPR_LOCATION(l);
		int nid = (int)mp_pragmas.size();
		mp_pragmas.push_back(copy);
		tree call = build_call_expr_loc(EXPR_LOCATION(l), marker_decl(), 1,
						build_int_cst(integer_type_node, nid));
		tsi_link_before(&at[k], call, TSI_SAME_STMT);
		/* a loop without iterations (check_markers_r skips a region's
		   markers): the statement before it may be its init */
		tree prev = NULL_TREE;
		for (tree_stmt_iterator p = tsi_start(list); !tsi_end_p(p) &&
		     tsi_stmt(p) != tsi_stmt(items[k]); tsi_next(&p))
			if (!mp_is_debug_marker(tsi_stmt(p)))
				prev = tsi_stmt(p);
		if (tree dead = dead_loop(tsi_stmt(items[k]), prev))
			warn_dead(mp_pragmas[nid], dead);
	}
}

/* `#pragma mixprec` before a block of several loops (a region, as
 * `#pragma scop` marks one) that the C front end kept as a scope (it
 * declares variables).  True when BLK is such a block. */
static bool mark_region(tree blk, int id)
{
	tree body = blk;
	if (TREE_CODE(body) == BIND_EXPR)
		body = BIND_EXPR_BODY(body);
	if (!body || TREE_CODE(body) != STATEMENT_LIST)
		return false;
	std::vector<tree_stmt_iterator> items;
	for (tree_stmt_iterator i = tsi_start(body); !tsi_end_p(i); tsi_next(&i))
		if (mp_loop_item(tsi_stmt(i)))
			items.push_back(i);
	if (items.size() < 2)
		return false;
	mark_loops(body, items, id);
	return true;
}

/* The '}' closing the block whose '{' is at BRACE (line, column), found in
 * the source text: comments, string and character literals and
 * preprocessor lines skipped.  False when the text cannot be read or the
 * block does not close within a bounded number of lines. */
static bool block_end(location_t brace, int *end_line, int *end_col)
{
	expanded_location e = expand_location(brace);
	if (!e.file || e.line <= 0 || e.column <= 0)
		return false;
	int depth = 0;
	bool comment = false;
	for (int line = e.line; line < e.line + 200000; line++) {
		char_span span = location_get_source_line(e.file, line);
		if (!span)
			return false;
		const char *p = span.get_buffer();
		int len = (int)span.length();
		int c = line == e.line ? e.column - 1 : 0;
		if (!comment && line != e.line) {
			int k = 0;
			while (k < len && (p[k] == ' ' || p[k] == '\t'))
				k++;
			if (k < len && p[k] == '#')
				continue;   /* a directive (no continuation lines) */
		}
		for (; c < len; c++) {
			if (comment) {
				if (p[c] == '*' && c + 1 < len && p[c + 1] == '/')
					comment = false, c++;
				continue;
			}
			if (p[c] == '/' && c + 1 < len && p[c + 1] == '/')
				break;
			if (p[c] == '/' && c + 1 < len && p[c + 1] == '*') {
				comment = true, c++;
				continue;
			}
			if (p[c] == '"' || p[c] == '\'') {
				char q = p[c];
				for (c++; c < len && p[c] != q; c++)
					if (p[c] == '\\')
						c++;
				continue;
			}
			if (p[c] == '{')
				depth++;
			else if (p[c] == '}' && --depth == 0) {
				*end_line = line;
				*end_col = c + 1;
				return true;
			}
		}
	}
	return false;
}

/* A block right after the pragma without declarations is not a BIND_EXPR:
 * the C front end splices its statements into the enclosing list.  The
 * loops after the marker N that start before the block's '}' (found in
 * the source text) are the region's, marked as mark_region does. */
static bool mark_spliced_region(tree list, tree_stmt_iterator n, int id)
{
	int el, ec;
	if (!block_end(mp_pragmas[id].brace_loc, &el, &ec))
		return false;
	expanded_location b = expand_location(mp_pragmas[id].brace_loc);
	std::vector<tree_stmt_iterator> items;
	for (; !tsi_end_p(n); tsi_next(&n)) {
		tree st = tsi_stmt(n);
		location_t l = EXPR_LOCATION(st);
		if (TREE_CODE(st) == BIND_EXPR && l == UNKNOWN_LOCATION && mp_loop_item(st))
			l = EXPR_LOCATION(mp_loop_item(st));
		if (l == UNKNOWN_LOCATION || mp_is_debug_marker(st))
			continue;
		expanded_location x = expand_location(l);
		if (!x.file || !b.file || strcmp(x.file, b.file) != 0 || x.line > el ||
		    (x.line == el && x.column > ec))
			break;
		if (mp_loop_item(st))
			items.push_back(n);
	}
	if (items.size() < 2)
		return false;
	mark_loops(list, items, id);
	return true;
}

/* Is T an OpenMP or OpenACC construct (a loop directive or a region)? */
tree mp_scope_first(tree t)
{
	if (!t || TREE_CODE(t) != BIND_EXPR)
		return t;
	tree b = BIND_EXPR_BODY(t);
	if (b && TREE_CODE(b) == STATEMENT_LIST) {
		for (tree_stmt_iterator i = tsi_start(b); !tsi_end_p(i); tsi_next(&i)) {
			tree e = tsi_stmt(i);
			if (TREE_CODE(e) != DECL_EXPR && !mp_is_debug_marker(e))
				return e;
		}
		return NULL_TREE;
	}
	return b;
}

bool mp_omp_construct(tree t)
{
	switch (TREE_CODE(t)) {
	case OMP_PARALLEL: case OMP_FOR: case OMP_SIMD: case OMP_DISTRIBUTE:
	case OMP_TASKLOOP: case OMP_LOOP: case OMP_TASK: case OMP_TEAMS:
	case OMP_TARGET: case OACC_LOOP: case OACC_PARALLEL: case OACC_KERNELS:
	case OACC_SERIAL:
		return true;
	case BIND_EXPR: {
		/* `#pragma omp for` / `simd` over `for (int i = ...)`: in the
		   scope the C front end opens for i */
		tree e = mp_scope_first(t);
		return e && mp_omp_construct(e);
	}
	default:
		return false;
	}
}

/* The location of the OpenMP construct T is or holds (mp_omp_construct). */
location_t mp_omp_location(tree t)
{
	if (TREE_CODE(t) != BIND_EXPR)
		return EXPR_LOCATION(t);
	tree e = mp_scope_first(t);
	return e ? mp_omp_location(e) : UNKNOWN_LOCATION;
}

/* COND with VAR replaced by the constant VAL, folded again at every node
 * it changes. */
static tree subst_fold(tree cond, tree var, tree val)
{
	if (var && cond == var)
		return fold_convert(TREE_TYPE(var), val);
	/* `const int n0 = 0;`: a constant at any -O level (the front end folds
	   it only when optimizing; clang's glue reads it as a constant) */
	if (cond && VAR_P(cond) && TREE_READONLY(cond) && !TREE_THIS_VOLATILE(cond) &&
	    INTEGRAL_TYPE_P(TREE_TYPE(cond)) && DECL_INITIAL(cond) &&
	    TREE_CODE(DECL_INITIAL(cond)) == INTEGER_CST)
		return fold_convert(TREE_TYPE(cond), DECL_INITIAL(cond));
	if (!cond || !EXPR_P(cond) || TREE_SIDE_EFFECTS(cond))
		return cond;
	enum tree_code code = TREE_CODE(cond);
	if (TREE_CODE_LENGTH(code) == 1 &&
	    (CONVERT_EXPR_CODE_P(code) || TREE_CODE_CLASS(code) == tcc_unary)) {
		tree a = subst_fold(TREE_OPERAND(cond, 0), var, val);
		return a == TREE_OPERAND(cond, 0) ? cond : fold_build1(code, TREE_TYPE(cond), a);
	}
	if (TREE_CODE_LENGTH(code) == 2 &&
	    (TREE_CODE_CLASS(code) == tcc_binary || TREE_CODE_CLASS(code) == tcc_comparison ||
	     code == TRUTH_ANDIF_EXPR || code == TRUTH_ORIF_EXPR || code == TRUTH_AND_EXPR ||
	     code == TRUTH_OR_EXPR)) {
		tree a = subst_fold(TREE_OPERAND(cond, 0), var, val);
		tree b = subst_fold(TREE_OPERAND(cond, 1), var, val);
		if (a == TREE_OPERAND(cond, 0) && b == TREE_OPERAND(cond, 1))
			return cond;
		return fold_build2(code, TREE_TYPE(cond), a, b);
	}
	return cond;
}

/* Whether the loop condition COND is false on entry: as written, or with
 * the variable that PREV (the statement just before the loop: `i = 0;`,
 * `int i = 0;`) sets to a constant replaced by that constant. */
static tree entry_var;   /* the variable PREV sets, for the message */
static bool cond_false_on_entry(tree cond, tree prev)
{
	entry_var = NULL_TREE;
	if (!cond)
		return false;
	/* `(x = 1, 0)`: the value is the last operand's */
	while (TREE_CODE(cond) == COMPOUND_EXPR)
		cond = TREE_OPERAND(cond, 1);
	while (prev && (TREE_CODE(prev) == NOP_EXPR || TREE_CODE(prev) == CONVERT_EXPR) &&
	       VOID_TYPE_P(TREE_TYPE(prev)))
		prev = TREE_OPERAND(prev, 0);
	tree var = NULL_TREE, val = NULL_TREE;
	if (prev && TREE_CODE(prev) == DECL_EXPR && VAR_P(DECL_EXPR_DECL(prev))) {
		var = DECL_EXPR_DECL(prev);
		val = DECL_INITIAL(var);
	} else if (prev && TREE_CODE(prev) == MODIFY_EXPR && VAR_P(TREE_OPERAND(prev, 0))) {
		var = TREE_OPERAND(prev, 0);
		val = TREE_OPERAND(prev, 1);
	}
	entry_var = var;
	if (integer_zerop(fold(cond)) || integer_zerop(subst_fold(cond, NULL_TREE, NULL_TREE)))
		return true;
	if (!var || !val || TREE_CODE(val) != INTEGER_CST || !INTEGRAL_TYPE_P(TREE_TYPE(var)))
		return false;
	return integer_zerop(subst_fold(cond, var, val));
}

/* Does T (a loop body) compute a product of values (not a subscript's or
 * an address's): a loop that may hold a contraction? */
static tree value_mult_r(tree *tp, int *walk_subtrees, void *)
{
	switch (TREE_CODE(*tp)) {
	case MULT_EXPR:
		return *tp;
	case ARRAY_REF: case INDIRECT_REF: case MEM_REF: case ADDR_EXPR: case COMPONENT_REF:
		*walk_subtrees = 0;   /* an access: its value comes from memory */
		return NULL_TREE;
	case MODIFY_EXPR:
		/* the stored-to place is an address; the value is operand 1 */
		*walk_subtrees = 0;
		return walk_tree(&TREE_OPERAND(*tp, 1), value_mult_r, NULL, NULL);
	default:
		return NULL_TREE;
	}
}

static tree has_loop_r(tree *tp, int *, void *)
{
	if (TREE_CODE(*tp) == FOR_STMT || TREE_CODE(*tp) == WHILE_STMT ||
	    TREE_CODE(*tp) == DO_STMT)
		return *tp;
	return NULL_TREE;
}

/* Whether the loop L (FOR_STMT or WHILE_STMT) holds another loop or a
 * product of values: the loops the core checks as well (mp_plan.c,
 * loop_may_contract); a leaf loop that only copies or clears (`for (t = 0;
 * t < PAD; t++) D[t] = 0;`) is removed by GCC and ignored by the core. */
static bool loop_may_contract(tree l)
{
	tree body = TREE_CODE(l) == FOR_STMT ? FOR_BODY(l) : WHILE_BODY(l);
	return walk_tree_without_duplicates(&body, has_loop_r, NULL) ||
	       walk_tree_without_duplicates(&body, value_mult_r, NULL);
}

/* The first loop in S (an annotated nest: the loop statement, its scope,
 * the loops in its body, not under an `if`) whose condition is false on
 * entry (cond_false_on_entry; PREV the statement before S).  The C front
 * end's constant bounds (`for (i = 0; i < N; i++)` with N a macro of 0):
 * such a loop is removed as dead code before the pass sees it; the core
 * refuses it in the same words under clang (MP_MSG_NO_ITERATIONS).  OWN:
 * S holds the pragma's own loop, reported even when it cannot contract
 * (`while (0) ;`): GCC removes it, and the pass would otherwise take the
 * next nest for the pragma's. */
static tree dead_loop(tree s, tree prev, bool own)
{
	if (!s)
		return NULL_TREE;
	switch (TREE_CODE(s)) {
	case STATEMENT_LIST: {
		tree p = prev;
		for (tree_stmt_iterator i = tsi_start(s); !tsi_end_p(i); tsi_next(&i)) {
			tree e = tsi_stmt(i);
			if (mp_is_debug_marker(e))
				continue;
			if (tree d = dead_loop(e, p, own))
				return d;
			if (TREE_CODE(e) == FOR_STMT || TREE_CODE(e) == WHILE_STMT)
				own = false;
			p = e;
		}
		return NULL_TREE;
	}
	case BIND_EXPR:
		return dead_loop(BIND_EXPR_BODY(s), prev, own);
	case FOR_STMT:
		if (cond_false_on_entry(FOR_COND(s), prev) && (own || loop_may_contract(s)))
			return s;
		return dead_loop(FOR_BODY(s), NULL_TREE);
	case WHILE_STMT:
		if (cond_false_on_entry(WHILE_COND(s), prev) && (own || loop_may_contract(s)))
			return s;
		return dead_loop(WHILE_BODY(s), NULL_TREE);
	default:
		return NULL_TREE;
	}
}

/* The variable a loop's condition tests (its first operand's), for the
 * message; else the one the statement before the loop sets. */
static const char *cond_var_name(tree cond)
{
	while (cond && TREE_CODE(cond) == COMPOUND_EXPR)
		cond = TREE_OPERAND(cond, 1);
	if (cond && TREE_CODE(cond) == INTEGER_CST)
		return entry_var && DECL_NAME(entry_var) ? IDENTIFIER_POINTER(DECL_NAME(entry_var))
							  : "?";
	while (cond && EXPR_P(cond) && TREE_OPERAND_LENGTH(cond) > 0) {
		tree a = TREE_OPERAND(cond, 0);
		while (a && CONVERT_EXPR_P(a))
			a = TREE_OPERAND(a, 0);
		if (a && VAR_P(a) && DECL_NAME(a))
			return IDENTIFIER_POINTER(DECL_NAME(a));
		if (TREE_CODE_CLASS(TREE_CODE(cond)) != tcc_comparison)
			return "?";
		a = TREE_OPERAND(cond, 1);
		while (a && CONVERT_EXPR_P(a))
			a = TREE_OPERAND(a, 0);
		return a && VAR_P(a) && DECL_NAME(a) ? IDENTIFIER_POINTER(DECL_NAME(a)) : "?";
	}
	return "?";
}

/* The nest of R is refused: DEAD (dead_loop) runs no iterations. */
static void warn_dead(mp_pragma_rec &r, tree dead)
{
	location_t at = EXPR_LOCATION(dead);
	location_t loc = r.loop_loc != UNKNOWN_LOCATION ? r.loop_loc : r.pragma_loc;
	char why[MP_REASON_LEN];
	const char *v = cond_var_name(TREE_CODE(dead) == FOR_STMT ? FOR_COND(dead) : WHILE_COND(dead));
	if (!strcmp(v, "?"))   /* `while (0)`, `for (;;) ` with a false constant */
		snprintf(why, sizeof why, MP_MSG_COND_FALSE);
	else
		snprintf(why, sizeof why, MP_MSG_NO_ITERATIONS, v);
	if (warning_at(loc, OPT_Wpragmas, "mixprec: loop nest not transformed: %s", why) &&
	    at != UNKNOWN_LOCATION && LOCATION_LINE(at) != LOCATION_LINE(loc))
		inform(at, "the reason is here");
	r.bad = true;
}

static tree check_markers_r(tree *tp, int *walk_subtrees, void *)
{
	tree t = *tp;
	int id;
	if (TREE_CODE(t) != STATEMENT_LIST)
		return NULL_TREE;
	for (tree_stmt_iterator i = tsi_start(t); !tsi_end_p(i); tsi_next(&i)) {
		if (!mp_is_marker(tsi_stmt(i), &id))
			continue;
		tree_stmt_iterator n = mp_next_stmt(i);
		if (mp_pragmas[id].region)
			continue;   /* a region's own marker: its loops have theirs */
		if (!tsi_end_p(n) &&
		    (TREE_CODE(tsi_stmt(n)) == BIND_EXPR || TREE_CODE(tsi_stmt(n)) == STATEMENT_LIST) &&
		    !mp_loop_item(tsi_stmt(n)) && mark_region(tsi_stmt(n), id))
			continue;
		if (!tsi_end_p(n) && mp_pragmas[id].brace_loc != UNKNOWN_LOCATION &&
		    mark_spliced_region(t, n, id))
			continue;
		mp_pragma_rec &r = mp_pragmas[id];
		tree f = tsi_end_p(n) ? NULL_TREE : annotated_for(tsi_stmt(n));
		if (!f && !tsi_end_p(n) && TREE_CODE(tsi_stmt(n)) != FOR_STMT &&
		    TREE_CODE(tsi_stmt(n)) != WHILE_STMT) {
			/* `i = 0;` emitted ahead of `for (; i < n; i++)` */
			tree_stmt_iterator n2;
			if (mp_init_then_for(n, &n2))
				f = tsi_stmt(n2);
		}
		if (!f && !tsi_end_p(n) && mp_omp_construct(tsi_stmt(n))) {
			/* `#pragma mixprec` then `#pragma omp parallel for`: the
			   construct is replaced whole (omp.cc), or runs as written */
			location_t at = EXPR_LOCATION(tsi_stmt(n));
			if (TREE_CODE(tsi_stmt(n)) == BIND_EXPR || at == UNKNOWN_LOCATION)
				at = mp_omp_location(tsi_stmt(n));
			const char *why = NULL;
			if (mp_omp_twin(i, n, id, &why))
				continue;
			warning_at(at != UNKNOWN_LOCATION ? at : r.pragma_loc, OPT_Wpragmas,
				   "mixprec: loop nest not transformed: %s", why);
			r.bad = true;
			continue;
		}
		tree dw = !f && !tsi_end_p(n) ? annotated_for(tsi_stmt(n), true) : NULL_TREE;
		if (dw) {
			/* a loop, not one mixprec reads: refused, compiled as
			   written (CMSIS-DSP's and XNNPACK's loops are do-while) */
			location_t at = EXPR_LOCATION(dw);
			warning_at(at != UNKNOWN_LOCATION ? at : r.pragma_loc, OPT_Wpragmas,
				   "mixprec: loop nest not transformed: %s", MP_DO_WHILE_REASON);
			r.bad = true;
			continue;
		}
		if (!f) {
			int id2;
			if (!tsi_end_p(n) && mp_is_marker(tsi_stmt(n), &id2))
				error_at(r.pragma_loc, "%<#pragma mixprec%> appears twice before the same loop");
			else
				error_at(r.pragma_loc, "%<#pragma mixprec%> must be followed by a %<for%> or %<while%> loop");
			r.bad = true;
			continue;
		}
		r.loop_loc = EXPR_LOCATION(f);
		if (r.loop_loc == UNKNOWN_LOCATION)
			r.loop_loc = r.pragma_loc;
		/* from the statement after the marker: the loop's scope, or
		   `i = 0;` and the loop */
		tree_stmt_iterator d0 = mp_next_stmt(i);
		tree dead = NULL_TREE, prev = NULL_TREE;
		for (tree_stmt_iterator d = d0; !tsi_end_p(d) && !dead; tsi_next(&d)) {
			tree e = tsi_stmt(d);
			if (mp_is_debug_marker(e))
				continue;
			dead = dead_loop(e, prev, true);
			if (e == f || mp_loop_item(e) == f || annotated_for(e) == f)
				break;
			prev = e;
		}
		if (dead)
			warn_dead(r, dead);
	}
	*walk_subtrees = 1;
	return NULL_TREE;
}

static void pre_genericize(void *gcc_data, void *)
{
	tree fndecl = (tree)gcc_data;
	if (!mp_marker_decl || !DECL_SAVED_TREE(fndecl))
		return;
	mp_settle_markers(fndecl);
	if (flag_openmp)
		mp_omp_privatize(fndecl);
	walk_tree_without_duplicates(&DECL_SAVED_TREE(fndecl), check_markers_r, NULL);
	mp_hoist_bounds(fndecl);
}

/* ---------------------------------------------------------------- pass */

static const pass_data mp_pass_data = {
	GIMPLE_PASS,
	"mixprec",
	OPTGROUP_LOOP,
	TV_NONE,
	PROP_cfg,
	0, 0, 0, 0
};

namespace {
struct mp_pass : gimple_opt_pass {
	mp_pass(gcc::context *ctx) : gimple_opt_pass(mp_pass_data, ctx) {}
	bool gate(function *) final override { return mp_marker_decl != NULL_TREE; }
	unsigned int execute(function *fn) final override { return mp_process_function(fn); }
};
}

static struct plugin_info mp_info = {
	MP_VERSION_STRING,
	"mixprec: #pragma mixprec(int8, acc=int32) runs annotated loop nests on "
	"low-precision kernels.  Arguments: dump[=FILE] (print nest descriptions and plans), "
	"verify (verify mode for every floating-point nest)."
};

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	if (!plugin_default_version_check(version, &gcc_version)) {
		error("mixprec: this plugin was built for GCC %s and cannot be loaded by GCC %s; "
		      "rebuild mixprec with this compiler",
		      gcc_version.basever, version->basever);
		return 1;
	}
	const char *dump_file = NULL;
	for (int i = 0; i < info->argc; i++) {
		if (!strcmp(info->argv[i].key, "dump"))
			mp_opt_dump = true, dump_file = info->argv[i].value;
		else if (!strcmp(info->argv[i].key, "verify"))
			mp_opt_verify = true;
		else if (!strcmp(info->argv[i].key, "profile-use") && info->argv[i].value)
			mp_opt_profile_use = xstrdup(info->argv[i].value);
		else
			warning(0, "mixprec: unknown plugin argument %qs", info->argv[i].key);
	}
	register_callback(info->base_name, PLUGIN_INFO, NULL, &mp_info);
	register_callback(info->base_name, PLUGIN_PRAGMAS, register_pragmas, NULL);
	register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, pre_genericize, NULL);

	static const struct ggc_root_tab roots[] = {
		{ &mp_marker_decl, 1, sizeof(mp_marker_decl), &gt_ggc_mx_tree_node, &gt_pch_nx_tree_node },
		{ &mp_rt_decls[0], MP_RT_DECLS, sizeof(mp_rt_decls[0]), &gt_ggc_mx_tree_node,
		  &gt_pch_nx_tree_node },
		{ &mp_scale_roots, 1, sizeof(mp_scale_roots), &gt_ggc_mx_tree_node,
		  &gt_pch_nx_tree_node },
		LAST_GGC_ROOT_TAB
	};
	register_callback(info->base_name, PLUGIN_REGISTER_GGC_ROOTS, NULL, (void *)roots);

	struct register_pass_info pi;
	pi.pass = new mp_pass(g);
	pi.reference_pass_name = "cfg";
	pi.ref_pass_instance_number = 1;
	pi.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pi);
	/* split.cc: tile-mode nests, one copy per path, once in SSA form */
	struct register_pass_info ps;
	ps.pass = mp_split_pass_new();
	ps.reference_pass_name = "ssa";
	ps.ref_pass_instance_number = 1;
	ps.pos_op = PASS_POS_INSERT_AFTER;
	register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &ps);
	return mp_build_init(info, pi.pass, dump_file) ? 0 : 1;
}
