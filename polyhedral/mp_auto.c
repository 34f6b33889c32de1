/* mp_auto.c -- `#pragma mixprec(auto [(candidates)])` (issue 12): which
 * lower precision a floating-point nest runs at.
 *
 * Without a profile the nest runs its default candidate (mp_auto_default:
 * bf16 when it is one, the most accurate of them).  The call carries the
 * candidates and a hash of the nest (plan.auto_flags), so that a run with
 * MIXPREC_PROFILE=FILE (runtime/profile.c) measures every candidate on
 * sampled calls; `mixprec-tune` turns that profile into an assignment
 * file, and -fplugin-arg-mixprec-profile-use=FILE compiles each nest at
 * its assigned precision (or keeps it at the source precision: "source").
 *
 * Assignment file (text, one nest per line, fields separated by tabs):
 *
 *   # mixprec assignment 1                     first line, required
 *   FILE:LINE <TAB> HASH <TAB> PRECISION      HASH: 8 hex digits; PRECISION:
 *                                             int8 | uint8 | bf16 | fp8_e4m3
 *                                             | fp8_e5m2 | source
 *
 * '#' lines and blank lines are skipped; in FILE:LINE a tab, a newline, a
 * carriage return and a backslash are written \t \n \r \\.  The entry of a
 * nest has its FILE:LINE and its hash (two nests on one line differ by
 * their hashes); the last such entry wins.  A nest whose line has another
 * hash changed since it was profiled (stale): the default runs, with a
 * warning; so does every nest when the file is missing or corrupt.  Never
 * a failed build.
 */
#include "mp_nest.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#define MP_AUTO_HEADER "# mixprec assignment 1"

mp_prec mp_auto_default(int mask)
{
	static const mp_prec order[] = { MP_PREC_BF16, MP_PREC_FP8_E4M3, MP_PREC_INT8,
					 MP_PREC_UINT8, MP_PREC_FP8_E5M2 };
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if ((mask >> order[i]) & 1)
			return order[i];
	return MP_PREC_BF16;
}

uint32_t mp_auto_hash(const char *what)
{
	const char *b = strstr(what, ": ");
	const char *e;
	uint32_t h = 2166136261u;

	b = b ? b + 2 : what;
	e = strstr(b, " (");
	if (!e)
		e = b + strlen(b);
	for (; b < e; b++) {
		h ^= (unsigned char)*b;
		h *= 16777619u;
	}
	return h;
}

/* ------------------------------------------------- assignment files */

/* FILE:LINE as the profile and the assignment files write it: a tab, a
 * newline, a carriage return and a backslash escaped as \t \n \r \\
 * (runtime/profile.c writes it so). */
static void mp_auto_escape(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; *s && o + 3 < len; s++) {
		const char *r = *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r"
			      : *s == '\\' ? "\\\\" : NULL;
		if (r) {
			out[o++] = r[0];
			out[o++] = r[1];
		} else {
			out[o++] = *s;
		}
	}
	out[o] = 0;
}

typedef struct mp_auto_entry {
	char *where;
	uint32_t hash;
	char prec[16];
} mp_auto_entry;

typedef struct mp_auto_file {
	char *path;
	char err[160];          /* "" when usable */
	mp_auto_entry *e;
	int n;
} mp_auto_file;

/* Files read so far in this compilation (a handful: one per option). */
static mp_auto_file *files;
static int nfiles;

static int bad_line(mp_auto_file *f, int line, const char *what)
{
	snprintf(f->err, sizeof(f->err), "line %d: %s", line, what);
	return -1;
}

/* One "WHERE \t HASH \t PREC" line (newline removed) into f. */
static int parse_line(mp_auto_file *f, char *s, int line)
{
	char *t2 = strrchr(s, '\t'), *t1, *end;
	unsigned long h;

	if (!t2)
		return bad_line(f, line, "expected FILE:LINE, a hash and a precision separated by tabs");
	*t2 = 0;
	t1 = strrchr(s, '\t');
	if (!t1 || t1 == s)
		return bad_line(f, line, "expected FILE:LINE, a hash and a precision separated by tabs");
	*t1 = 0;
	if (strlen(t1 + 1) != 8 || strspn(t1 + 1, "0123456789abcdefABCDEF") != 8)
		return bad_line(f, line, "the hash is not 8 hexadecimal digits");
	errno = 0;
	h = strtoul(t1 + 1, &end, 16);
	if (strlen(t2 + 1) >= sizeof(f->e[0].prec) ||
	    (strcmp(t2 + 1, "source") && strcmp(t2 + 1, "int8") && strcmp(t2 + 1, "uint8") &&
	     strcmp(t2 + 1, "bf16") && strcmp(t2 + 1, "fp8_e4m3") && strcmp(t2 + 1, "fp8_e5m2")))
		return bad_line(f, line, "unknown precision (expected int8, uint8, bf16, fp8_e4m3, "
				 "fp8_e5m2 or source)");
	mp_auto_entry *e = realloc(f->e, sizeof(*e) * (size_t)(f->n + 1));
	if (!e)
		return bad_line(f, line, "out of memory");
	f->e = e;
	e[f->n].where = strdup(s);
	e[f->n].hash = (uint32_t)h;
	snprintf(e[f->n].prec, sizeof(e[f->n].prec), "%s", t2 + 1);
	if (!e[f->n].where)
		return bad_line(f, line, "out of memory");
	f->n++;
	return 0;
}

static const mp_auto_file *load(const char *path)
{
	for (int i = 0; i < nfiles; i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	mp_auto_file *nf = realloc(files, sizeof(*nf) * (size_t)(nfiles + 1));
	if (!nf)
		return NULL;
	files = nf;
	mp_auto_file *f = &files[nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	FILE *fp = fopen(path, "r");
	struct stat st;
	if (!fp) {
		snprintf(f->err, sizeof(f->err), "%s", strerror(errno));
		return f;
	}
	if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(f->err, sizeof(f->err), "%s", strerror(EISDIR));
		fclose(fp);
		return f;
	}
	char buf[4096];
	int line = 0;
	while (fgets(buf, sizeof(buf), fp)) {
		size_t len = strlen(buf);
		line++;
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		else if (!feof(fp)) {
			bad_line(f, line, "line too long");
			break;
		}
		if (len && buf[len - 1] == '\r')
			buf[--len] = 0;
		if (line == 1) {
			if (strcmp(buf, MP_AUTO_HEADER)) {
				bad_line(f, line, "not a mixprec assignment file (first line not '"
					 MP_AUTO_HEADER "')");
				break;
			}
			continue;
		}
		if (!len || buf[0] == '#')
			continue;
		if (parse_line(f, buf, line))
			break;
	}
	if (!f->err[0] && line == 0)
		bad_line(f, 1, "empty file");
	fclose(fp);
	return f;
}

static mp_prec prec_of(const char *s)
{
	for (int p = MP_PREC_INT8; p <= MP_PREC_FP8_E5M2; p++)
		if (!strcmp(mp_prec_name((mp_prec)p), s))
			return (mp_prec)p;
	return MP_PREC_NONE;
}

/* Is the nest's source integer (so that auto does not apply)? */
static int integer_source(mp_nest *n, const mp_pragma *p)
{
	mp_pragma q = *p;
	mp_plan *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return 0;
	q.prec = MP_PREC_INT8;
	r = mp_analyze(n, &q, t) && !t->src_float;
	free(t);
	return r;
}

int mp_analyze_auto(mp_nest *n, const mp_pragma *p, mp_plan *plans, int max)
{
	const int mask = p->auto_mask ? p->auto_mask & MP_AUTO_CANDIDATES : MP_AUTO_CANDIDATES;
	const mp_prec dflt = mp_auto_default(mask);
	mp_pragma q = *p;
	char warn[MP_REASON_LEN] = "", how[MP_REASON_LEN];
	mp_prec chosen = dflt;
	int count, keep = 0;

	q.prec = dflt;
	count = mp_analyze_all(n, &q, plans, max);
	if (!count || !plans[0].src_float) {
		if (count || integer_source(n, p)) {
			mp_plan *z = &plans[0];
			z->ok = 0;
			z->reason_loc = p->loc;
			snprintf(z->reason, sizeof(z->reason),
				 "'#pragma mixprec(auto)' chooses the precision of floating-point "
				 "nests; this nest's operands are integers: name int8 or uint8");
			return 0;
		}
		return 0;
	}
	/* the nest's hash: of every contraction planned together */
	uint32_t h = mp_auto_hash(plans[0].what);
	for (int k = 1; k < count; k++)
		h = h * 16777619u ^ mp_auto_hash(plans[k].what);
	snprintf(how, sizeof(how), "the default without a profile");
	if (p->auto_profile && *p->auto_profile) {
		const mp_auto_file *f = load(p->auto_profile);
		const mp_auto_entry *e = NULL;
		const char *w0 = p->auto_where ? p->auto_where : "";
		size_t wlen = 2 * strlen(w0) + 4;
		char *where = malloc(wlen);
		if (!where)
			return 0;
		mp_auto_escape(w0, where, wlen);
		if (!f || f->err[0]) {
			snprintf(warn, sizeof(warn), "cannot use the profile assignment '%.120s' (%.100s); "
				 "'auto' runs its default, %s", p->auto_profile,
				 f ? f->err : "out of memory", mp_prec_name(dflt));
			snprintf(how, sizeof(how), "the default: the profile assignment is unusable");
		} else {
			/* the entry of this nest: its FILE:LINE and hash (two nests
			   on one line, a macro's, differ by hash); else one of its
			   line with another hash (stale).  The last entry wins. */
			for (int i = f->n - 1; i >= 0 && !e; i--)
				if (!strcmp(f->e[i].where, where) && f->e[i].hash == h)
					e = &f->e[i];
			for (int i = f->n - 1; i >= 0 && !e; i--)
				if (!strcmp(f->e[i].where, where))
					e = &f->e[i];
			if (!e) {
				snprintf(how, sizeof(how), "the default: %s is not in the profile "
					 "assignment '%s'", where, p->auto_profile);
			} else if (e->hash != h) {
				snprintf(warn, sizeof(warn), "the profile assignment '%s' is stale for "
					 "the nest at %s (it was profiled as another nest: hash %08x, "
					 "now %08x); 'auto' runs its default, %s; profile the "
					 "program again", p->auto_profile, where, (unsigned)e->hash,
					 (unsigned)h, mp_prec_name(dflt));
				snprintf(how, sizeof(how), "the default: stale profile entry");
			} else if (!strcmp(e->prec, "source")) {
				keep = 1;
			} else if (!((mask >> prec_of(e->prec)) & 1)) {
				snprintf(warn, sizeof(warn), "the profile assignment '%s' gives %s to the "
					 "nest at %s, not one of its candidates; 'auto' runs its "
					 "default, %s", p->auto_profile, e->prec, where,
					 mp_prec_name(dflt));
				snprintf(how, sizeof(how), "the default: the assigned %s is not a "
					 "candidate", e->prec);
			} else {
				chosen = prec_of(e->prec);
				snprintf(how, sizeof(how), "assigned by the profile '%s'",
					 p->auto_profile);
			}
		}
		free(where);
	}
	if (keep) {
		mp_plan *z = &plans[0];
		z->ok = 0;
		z->auto_keep = 1;
		z->reason_loc = p->loc;
		snprintf(z->reason, sizeof(z->reason), "kept at its source precision: the profile "
			 "assignment '%s' gives it 'source' ('#pragma mixprec(auto)')",
			 p->auto_profile);
		return 0;
	}
	if (chosen != dflt) {
		q.prec = chosen;
		count = mp_analyze_all(n, &q, plans, max);
		if (!count) {   /* not plannable at the assigned precision */
			snprintf(warn, sizeof(warn), "the nest cannot run at %s, which the profile "
				 "assignment '%s' gives it (%.120s); 'auto' runs its default, %s",
				 mp_prec_name(chosen), p->auto_profile, plans[0].reason,
				 mp_prec_name(dflt));
			snprintf(how, sizeof(how), "the default: the assigned %s cannot be planned",
				 mp_prec_name(chosen));
			chosen = dflt;
			q.prec = dflt;
			count = mp_analyze_all(n, &q, plans, max);
		}
	}
	for (int k = 0; k < count; k++) {
		plans[k].auto_flags = (int64_t)(8u | (uint64_t)mask << 8 | (uint64_t)h << 32);
		plans[k].auto_prec = chosen;
		snprintf(plans[k].auto_note, sizeof(plans[k].auto_note),
			 "auto: %s, %.200s (candidates", mp_prec_name(chosen), how);
		for (int c = MP_PREC_INT8; c <= MP_PREC_FP8_E5M2; c++)
			if ((mask >> c) & 1) {
				size_t l = strlen(plans[k].auto_note);
				snprintf(plans[k].auto_note + l, sizeof(plans[k].auto_note) - l, " %s",
					 mp_prec_name((mp_prec)c));
			}
		size_t l = strlen(plans[k].auto_note);
		snprintf(plans[k].auto_note + l, sizeof(plans[k].auto_note) - l,
			 "; nest hash %08x)", (unsigned)h);
	}
	if (count)
		snprintf(plans[0].auto_warn, sizeof(plans[0].auto_warn), "%s", warn);
	return count;
}
