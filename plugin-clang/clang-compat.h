/* clang-compat.h -- every clang header the plugin needs, and every
 * difference between clang versions, in one place (as clad's
 * Compatibility.h).  Macros are named after the version that changed the
 * API: MP_COMPAT_CLANG<N>_... applies from clang N on.
 */
#ifndef MP_CLANG_COMPAT_H
#define MP_CLANG_COMPAT_H

#include "clang/AST/AST.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/Pragma.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/Config/llvm-config.h"

#if LLVM_VERSION_MAJOR < 14
#error "mixprec's clang plugin needs clang 14 or newer"
#endif

namespace mpc {

/* CompoundStmt::Create gained an FPOptionsOverride argument in clang 15. */
inline clang::CompoundStmt *compound(const clang::ASTContext &C,
				     llvm::ArrayRef<clang::Stmt *> stmts,
				     clang::SourceLocation l, clang::SourceLocation r)
{
#if LLVM_VERSION_MAJOR >= 15
	return clang::CompoundStmt::Create(C, stmts, clang::FPOptionsOverride(), l, r);
#else
	return clang::CompoundStmt::Create(C, stmts, l, r);
#endif
}

inline clang::IfStmt *if_stmt(const clang::ASTContext &C, clang::SourceLocation l,
			      clang::Expr *cond, clang::Stmt *then_, clang::Stmt *else_)
{
	return clang::IfStmt::Create(C, l, clang::IfStatementKind::Ordinary, nullptr, nullptr,
				     cond, l, l, then_, else_ ? l : clang::SourceLocation(), else_);
}

/* An extern C function declared by the plugin (runtime entry points). */
inline clang::FunctionDecl *extern_fn(clang::ASTContext &C, clang::DeclContext *dc,
				      clang::SourceLocation l, llvm::StringRef name,
				      clang::QualType type)
{
	return clang::FunctionDecl::Create(C, dc, l, l, clang::DeclarationName(&C.Idents.get(name)),
					   type, C.getTrivialTypeSourceInfo(type, l),
					   clang::SC_Extern);
}

/* long[N] and the like: ArrayType::ArraySizeModifier became the scoped
 * enum ArraySizeModifier in clang 18. */
inline clang::QualType array_type(const clang::ASTContext &C, clang::QualType elt, unsigned n)
{
#if LLVM_VERSION_MAJOR >= 18
	return C.getConstantArrayType(elt, llvm::APInt(32, n), nullptr,
				      clang::ArraySizeModifier::Normal, 0);
#else
	return C.getConstantArrayType(elt, llvm::APInt(32, n), nullptr, clang::ArrayType::Normal, 0);
#endif
}

/* Type::isPromotableIntegerType moved to ASTContext in clang 16. */
inline bool is_promotable_int(const clang::ASTContext &C, clang::QualType t)
{
#if LLVM_VERSION_MAJOR >= 16
	return C.isPromotableIntegerType(t);
#else
	(void)C;
	return t->isPromotableIntegerType();
#endif
}

/* APInt::getMinSignedBits became getSignificantBits (clang 16; the old
 * name is gone in 19). */
inline unsigned min_signed_bits(const llvm::APSInt &v)
{
#if LLVM_VERSION_MAJOR >= 16
	return v.getSignificantBits();
#else
	return v.getMinSignedBits();
#endif
}

/* StringRef::startswith became starts_with (clang 16; gone in 19). */
inline bool starts_with(llvm::StringRef s, llvm::StringRef prefix)
{
	return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

/* An ordinary "..." string literal (char[N] in C): the kind was
 * StringLiteral::Ascii (14), StringLiteral::Ordinary (15-17), and the enum
 * class StringLiteralKind::Ordinary from 18 on. */
inline clang::StringLiteral *string_lit(const clang::ASTContext &C, llvm::StringRef s,
					clang::SourceLocation l)
{
	clang::QualType t = C.getStringLiteralArrayType(C.CharTy, (unsigned)s.size());
#if LLVM_VERSION_MAJOR >= 18
	return clang::StringLiteral::Create(C, s, clang::StringLiteralKind::Ordinary, false, t, l);
#elif LLVM_VERSION_MAJOR >= 15
	return clang::StringLiteral::Create(C, s, clang::StringLiteral::Ordinary, false, t, l);
#else
	return clang::StringLiteral::Create(C, s, clang::StringLiteral::Ascii, false, t, l);
#endif
}

/* Kinds of clang::OptionalFileEntryRef etc. are not needed: keep this file
 * to what the plugin really uses. */

} // namespace mpc

#endif
