/* pragma-text.cc -- where a `_Pragma("mixprec ...")` stands in the source
 * text.  libcpp gives a lexed pragma the line where the lexer stood (for one
 * from a function-like macro, the end of the invocation) and the columns of
 * its own string; these read the source lines, and the definitions of the
 * macros they name, to find the pragma's column, the code before and after
 * it, and the start of an invocation spanning lines (plugin.cc,
 * handle_pragma).  Comments and literals are skipped. */
#include "gcc-common.h"
#include "mp-gcc.h"

/* The column of the outermost function-like macro among the open
 * parentheses PARENS (each the column of the macro it calls, 0: none). */
static int outermost(const std::vector<int> &parens)
{
	for (int m : parens)
		if (m)
			return m;
	return 0;
}

/* The identifier at 1-based column COL of TEXT ("" when none). */
std::string mp_ident_at(const std::string &text, int col)
{
	size_t b = col > 0 ? (size_t)col - 1 : text.size(), e = b;
	while (e < text.size() && ISIDNUM((unsigned char)text[e]))
		e++;
	return b < text.size() ? text.substr(b, e - b) : std::string();
}

/* The _Pragma("mixprec ...") operators TEXT (a line of source, or a macro's
 * definition) shows: written there, or through the macros it names (to
 * DEPTH 4); *COL the 1-based column of the last one in TEXT, *IN_ARGS
 * whether it stands in the arguments of a function-like macro there,
 * *OUTER the column of the outermost such macro (0: none), *IN_MACRO the
 * same for a _Pragma written in TEXT (0 for one through a macro). */
int mp_pragma_column(const std::string &text, int depth, int *col, int *in_macro,
		     bool *in_args, int *outer)
{
	int found = 0;
	/* the open parentheses: the column of the function-like macro each
	   one calls (0: none) */
	std::vector<int> parens;
	std::string prev_name;
	int prev_col = 0;
	for (size_t i = 0; i < text.size();) {
		unsigned char ch = text[i];
		if (ch == '(' || ch == ')') {
			if (ch == ')') {
				if (!parens.empty())
					parens.pop_back();
			} else {
				int mc = 0;
				if (!prev_name.empty() && parse_in) {
					cpp_hashnode *h = cpp_lookup(parse_in,
								     (const unsigned char *)prev_name.data(),
								     prev_name.size());
					if (h && cpp_fun_like_macro_p(h))
						mc = prev_col;
				}
				parens.push_back(mc);
			}
			prev_name.clear();
			i++;
			continue;
		}
		if (!ISIDST(ch)) {
			if (!ISSPACE(ch))
				prev_name.clear();
			if (ch == '"' || ch == '\'') {   /* skip a literal */
				size_t q = i + 1;
				while (q < text.size() && text[q] != ch)
					q += text[q] == '\\' ? 2 : 1;
				i = q + 1;
				continue;
			}
			i++;
			continue;
		}
		size_t b = i;
		while (i < text.size() && ISIDNUM((unsigned char)text[i]))
			i++;
		std::string name = text.substr(b, i - b);
		prev_name = name;
		prev_col = (int)b + 1;
		if (name == "_Pragma") {
			size_t q = i;
			while (q < text.size() && ISSPACE(text[q]))
				q++;
			if (q < text.size() && text[q] == '(') {
				q++;
				while (q < text.size() && ISSPACE(text[q]))
					q++;
				if (q < text.size() && text[q] == '"') {
					q++;
					while (q < text.size() && ISSPACE(text[q]))
						q++;
					if (text.compare(q, 7, "mixprec") == 0) {
						found++, *col = (int)b + 1;
						int m = outermost(parens);
						if (in_args)
							*in_args = m != 0;
						if (in_macro)
							*in_macro = m;
						if (outer)
							*outer = m;
					}
				}
			}
			continue;
		}
		if (depth >= 4 || !parse_in)
			continue;
		cpp_hashnode *h = cpp_lookup(parse_in, (const unsigned char *)name.data(), name.size());
		if (!h || !cpp_macro_p(h) || !cpp_user_macro_p(h))
			continue;
		const char *def = (const char *)cpp_macro_definition(parse_in, h);
		if (!def)
			continue;
		/* past "NAME" or "NAME(params)" */
		std::string body(def);
		size_t at = name.size();
		if (cpp_fun_like_macro_p(h)) {
			at = body.find(')', at);
			at = at == std::string::npos ? body.size() : at + 1;
		}
		int c2 = 0;
		int n = mp_pragma_column(body.substr(std::min(at, body.size())), depth + 1, &c2);
		if (n > 0) {
			found += n, *col = (int)b + 1;
			int m = outermost(parens);
			if (in_args)
				*in_args = m != 0;
			if (outer)
				*outer = m;
		}
	}
	return found;
}

/* The last character of code before line LINE of FILE (and before column
 * COL of that line, when COL > 0): comments, literals' insides and
 * directive lines skipped, up to 60 lines back; 0 when none. */
int mp_code_before(const char *file, int line, int col)
{
	int last = 0;
	bool comment = false;
	for (int l = line > 60 ? line - 60 : 1; l <= line; l++) {
		if (l == line && col <= 0)
			break;
		char_span span = location_get_source_line(file, l);
		if (!span)
			return 0;
		std::string t(span.get_buffer(), span.length());
		if (l == line)
			t.erase(std::min(t.size(), (size_t)col - 1));
		size_t i = 0;
		while (!comment && i < t.size() && ISSPACE((unsigned char)t[i]))
			i++;
		if (!comment && i < t.size() && t[i] == '#') {
			while (!t.empty() && t.back() == '\\' && l + 1 < line) {
				span = location_get_source_line(file, ++l);
				if (!span)
					return 0;
				t.assign(span.get_buffer(), span.length());
			}
			continue;
		}
		for (; i < t.size(); i++) {
			char ch = t[i];
			if (comment) {
				if (ch == '*' && i + 1 < t.size() && t[i + 1] == '/')
					comment = false, i++;
				continue;
			}
			if (ch == '/' && i + 1 < t.size() && t[i + 1] == '/')
				break;
			if (ch == '/' && i + 1 < t.size() && t[i + 1] == '*') {
				comment = true, i++;
				continue;
			}
			if (ch == '"' || ch == '\'') {
				for (i++; i < t.size() && t[i] != ch; i++)
					if (t[i] == '\\')
						i++;
				last = ch;
				continue;
			}
			if (!ISSPACE((unsigned char)ch))
				last = ch;
		}
	}
	return last;
}

/* The first character of code on LINE after the _Pragma (or the macro
 * holding one) at 1-based column COL: its parenthesised operand, or a
 * function-like macro's arguments, skipped; 0 when the line has none.
 * *AT: its 1-based column. */
int mp_code_after(const std::string &line, int col, int *at)
{
	size_t i = col - 1, n = line.size();
	size_t b = i;
	while (i < n && ISIDNUM((unsigned char)line[i]))
		i++;
	std::string name = line.substr(b, i - b);
	bool args = name == "_Pragma";
	if (!args && parse_in) {
		cpp_hashnode *h = cpp_lookup(parse_in, (const unsigned char *)name.data(), name.size());
		args = h && cpp_macro_p(h) && cpp_fun_like_macro_p(h);
	}
	while (i < n && ISSPACE((unsigned char)line[i]))
		i++;
	if (args && i < n && line[i] == '(') {
		int depth = 0;
		for (; i < n; i++) {
			char ch = line[i];
			if (ch == '"' || ch == '\'') {
				for (i++; i < n && line[i] != ch; i++)
					if (line[i] == '\\')
						i++;
			} else if (ch == '(')
				depth++;
			else if (ch == ')' && --depth == 0) {
				i++;
				break;
			}
		}
		if (depth)
			return 0;   /* continued on the next line */
	}
	for (; i < n; i++) {
		if (ISSPACE((unsigned char)line[i]))
			continue;
		if (line.compare(i, 2, "/*") == 0) {
			size_t e = line.find("*/", i + 2);
			if (e == std::string::npos)
				return 0;
			i = e + 1;
			continue;
		}
		if (line.compare(i, 2, "//") == 0)
			return 0;
		if (at)
			*at = (int)i + 1;
		return (unsigned char)line[i];
	}
	return 0;
}

/* The first character of code after the _Pragma("mixprec ...") that the
 * definition of macro NAME holds (through the macros it names, to depth
 * 4): what the expansion puts right after the pragma; 0 when the pragma
 * ends the expansion (the code after the macro's invocation follows it)
 * or NAME holds none. */
int mp_macro_tail(const std::string &name, int depth)
{
	if (depth > 4 || !parse_in)
		return 0;
	cpp_hashnode *h = cpp_lookup(parse_in, (const unsigned char *)name.data(), name.size());
	if (!h || !cpp_macro_p(h) || !cpp_user_macro_p(h))
		return 0;
	const char *def = (const char *)cpp_macro_definition(parse_in, h);
	if (!def)
		return 0;
	std::string body(def);
	size_t at = name.size();
	if (cpp_fun_like_macro_p(h)) {
		at = body.find(')', at);
		at = at == std::string::npos ? body.size() : at + 1;
	}
	body = body.substr(std::min(at, body.size()));
	int c = 0;
	if (mp_pragma_column(body, depth + 1, &c) != 1 || c <= 0)
		return 0;
	std::string inner = mp_ident_at(body, c);
	int t = inner == "_Pragma" ? 0 : mp_macro_tail(inner, depth + 1);
	return t ? t : mp_code_after(body, c);
}

/* TEXT with its comments blanked (spaces; newlines kept), literals kept:
 * the offsets stay those of TEXT. */
static std::string blank_comments(const std::string &text)
{
	std::string r(text);
	size_t n = r.size();
	for (size_t i = 0; i < n; i++) {
		char ch = r[i];
		if (ch == '"' || ch == '\'') {
			for (i++; i < n && r[i] != ch && r[i] != '\n'; i++)
				if (r[i] == '\\')
					i++;
		} else if (ch == '/' && i + 1 < n && r[i + 1] == '/') {
			for (; i < n && r[i] != '\n'; i++)
				r[i] = ' ';
		} else if (ch == '/' && i + 1 < n && r[i + 1] == '*') {
			r[i] = r[i + 1] = ' ';
			for (i += 2; i < n && !(r[i] == '*' && i + 1 < n && r[i + 1] == '/'); i++)
				if (r[i] != '\n')
					r[i] = ' ';
			if (i < n)
				r[i] = ' ';
			if (i + 1 < n)
				r[++i] = ' ';
		}
	}
	return r;
}

/* A _Pragma on line LINE of FILE that the line does not show: the end of
 * a function-like macro's invocation whose arguments span lines, the
 * macro's expansion holding the pragma (libcpp gives a pragma from a
 * macro the location of the end of the invocation).  *AT_LINE, *AT_COL:
 * where the invocation starts, up to 200 lines back; *END_COL: the column
 * of its closing parenthesis on LINE.  A pragma written in the arguments
 * of such an invocation (`WRAP(PR for ...)`, *ARGS): where it is written.
 * Directive lines stop the search; comments are skipped. */
bool mp_pragma_invocation(const char *file, int line, int *at_line, int *at_col,
			      int *end_col, bool *args)
{
	char_span last = location_get_source_line(file, line);
	if (!last)
		return false;
	std::string joined(last.get_buffer(), last.length());
	size_t last_len = joined.size();
	bool seen = false;
	for (int l = line - 1; l > 0 && l > line - 200; l--) {
		char_span span = location_get_source_line(file, l);
		if (!span)
			return false;
		std::string t(span.get_buffer(), span.length());
		size_t i = 0;
		while (i < t.size() && ISSPACE((unsigned char)t[i]))
			i++;
		if (i < t.size() && t[i] == '#')
			return false;
		joined = t + "\n" + joined;
		/* a macro holding a pragma named on line L (cheap: that line
		   alone), then the invocation over the lines */
		int col = 0;
		if (!seen && mp_pragma_column(blank_comments(t), 0, &col) == 0)
			continue;
		seen = true;   /* from here, each line with the ones below */
		std::string code = blank_comments(joined);
		bool in_args = false;
		int outer = 0;
		if (mp_pragma_column(code, 0, &col, NULL, &in_args, &outer) < 1 || col <= 0 ||
		    (!in_args && col > (int)t.size()))
			continue;
		/* the line and column it is written at (in the arguments: on
		   line L or a later one) */
		int at_l = l, at_c = col;
		for (size_t i = 0; i + 1 < (size_t)col; i++)
			if (code[i] == '\n')
				at_l++, at_c = col - 1 - (int)i;
		/* the function-like macro whose arguments close on LINE: the
		   one there, or the outermost whose arguments hold it */
		std::string name = mp_ident_at(code, in_args ? outer : col);
		cpp_hashnode *h = parse_in ? cpp_lookup(parse_in, (const unsigned char *)name.data(),
						       name.size()) : NULL;
		if (!h || !cpp_macro_p(h))
			return false;
		if (!cpp_fun_like_macro_p(h))
			continue;   /* perhaps in an invocation's arguments */
		size_t q = (in_args ? outer : col) - 1 + name.size(), n = code.size();
		while (q < n && ISSPACE((unsigned char)code[q]))
			q++;
		int depth = 0;
		for (; q < n; q++) {
			char ch = code[q];
			if (ch == '"' || ch == '\'') {
				for (q++; q < n && code[q] != ch; q++)
					if (code[q] == '\\')
						q++;
			} else if (ch == '(')
				depth++;
			else if (ch == ')' && --depth == 0)
				break;
		}
		/* the closing parenthesis in LINE's text (the last segment) */
		if (q >= n || q < n - last_len)
			return false;
		*at_line = at_l;
		*at_col = at_c;
		*end_col = (int)(q - (n - last_len)) + 1;
		*args = in_args;
		return true;
	}
	return false;
}
