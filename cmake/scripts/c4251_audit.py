#!/usr/bin/env python3
"""Lists what MSVC's C4251 and C4275 would warn about in strata's DLL build.

MSVC warns (C4251) when a class declared __declspec(dllexport) has a
non-static data member whose type is a class without a DLL interface (a
std::string, a std::shared_ptr, an unexported class of strata's), and (C4275)
when such a class is a base. Neither GCC nor clang has the warning, so this
script finds the same cases from clang's AST of the public headers, compiled
for x86_64-w64-mingw32 with STRATA_EXPORT = __declspec(dllexport):

  cmake/scripts/c4251_audit.py <generated include dir>   # has strata/export.h

For each exported class it prints the members of such types, their access,
and who touches them: client-touched (public: a program reads and writes
them), inline-touched (an inline member function of the class, compiled into
the program, does), dll-only (only code inside the DLL does). Exit status 0; the output
is the list (docs/windows.md, "MSVC readiness").
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TRIPLE = "x86_64-w64-mingw32"


def clang_ast(generated_include):
    headers = sorted(glob.glob(os.path.join(ROOT, "include/strata/*.h")) +
                     glob.glob(os.path.join(ROOT,
                                            "include/strata/*/*.h")))
    gcc = sorted(glob.glob("/usr/lib/gcc/%s/*-posix" % TRIPLE))[-1]
    cxx = os.path.join(gcc, "include/c++")
    with tempfile.NamedTemporaryFile("w", suffix=".cc", delete=False) as tu:
        for h in headers:
            tu.write('#include "%s"\n' % h)
    cmd = [
        "clang++", "--target=" + TRIPLE, "--sysroot=/usr/" + TRIPLE,
        "-nostdinc++", "-isystem", cxx, "-isystem",
        os.path.join(cxx, TRIPLE), "-std=c++17",
        "-I" + os.path.join(ROOT, "include"), "-I" + generated_include,
        "-Dstrata_EXPORTS", "-fsyntax-only", "-Xclang", "-ast-dump=json",
        "-Xclang", "-ast-dump-filter", "-Xclang", "strata", tu.name
    ]
    try:
        out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
    finally:
        os.unlink(tu.name)
    # The filter prints one JSON document per matching declaration.
    dec = json.JSONDecoder()
    docs, pos = [], 0
    while True:
        while pos < len(out) and out[pos].isspace():
            pos += 1
        if pos >= len(out):
            return docs
        doc, pos = dec.raw_decode(out, pos)
        docs.append(doc)


CURRENT_FILE = ["?"]


def note_loc(loc):
    """clang's JSON names a location's file only when it changes."""
    for part in (loc.get("spellingLoc", {}), loc.get("expansionLoc", {}),
                 loc):
        if "file" in part:
            CURRENT_FILE[0] = part["file"]


def walk(node, scope, visit):
    note_loc(node.get("loc", {}))
    visit(node, scope)
    note_loc(node.get("range", {}).get("begin", {}))
    note_loc(node.get("range", {}).get("end", {}))
    name = node.get("name")
    if node.get("kind") in ("NamespaceDecl", "CXXRecordDecl") and name:
        scope = scope + [name]
    for child in node.get("inner", []):
        walk(child, scope, visit)


def has_attr(node, kind):
    return any(c.get("kind") == kind for c in node.get("inner", []))


def member_refs(node, found):
    if node.get("kind") == "MemberExpr":
        ref = node.get("referencedMemberDecl")
        if ref:
            found.add(ref)
    for child in node.get("inner", []):
        member_refs(child, found)


BUILTIN_WORDS = {
    "bool", "char", "signed", "unsigned", "short", "int", "long", "float",
    "double", "void", "const", "volatile", "char16_t", "char32_t", "wchar_t"
}


def plain_type(t):
    """True for a type MSVC never warns about: builtin, pointer, array of
    builtins, reference, enum (enums are checked by the caller)."""
    t = t.strip()
    if t.endswith("*") or t.endswith("&") or "(*)" in t:
        return True
    base = t.split("[")[0].strip()
    return all(w in BUILTIN_WORDS for w in base.split())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    docs = clang_ast(sys.argv[1])
    records, enums, exported = [], set(), set()

    def visit(node, scope):
        kind = node.get("kind")
        name = node.get("name")
        if kind == "EnumDecl" and name:
            enums.add("::".join(scope + [name]))
        if (kind == "CXXRecordDecl" and name and
                node.get("completeDefinition")):
            qual = "::".join(scope + [name])
            if has_attr(node, "DLLExportAttr"):
                exported.add(qual)
                records.append((qual, node, CURRENT_FILE[0]))

    for doc in docs:
        walk(doc, [], visit)

    def needs_interface(t):
        t = t.replace("const ", "").replace("volatile ", "").strip()
        t = t.replace("struct ", "").replace("class ", "")
        if plain_type(t) or t in enums or t.startswith("enum "):
            return False
        base = t.split("<")[0]
        return base not in exported

    seen = set()
    total = 0
    for qual, node, path in sorted(records, key=lambda r: r[0]):
        if qual in seen:
            continue
        seen.add(qual)
        access = "private" if node.get("tagUsed") == "class" else "public"
        touched = set()
        for c in node.get("inner", []):
            if c.get("kind") in ("CXXMethodDecl", "CXXConstructorDecl",
                                 "CXXDestructorDecl", "CXXConversionDecl"
                                 ) and not c.get("isImplicit"):
                member_refs(c, touched)
        rows = []
        for base in node.get("bases", []):
            bt = base["type"].get("desugaredQualType", base["type"]["qualType"])
            if needs_interface(bt):
                rows.append("  C4275 base %s (%s)" % (bt, base["access"]))
        for c in node.get("inner", []):
            kind = c.get("kind")
            if kind == "AccessSpecDecl":
                access = c["access"]
            elif kind == "FieldDecl":
                t = c["type"].get("desugaredQualType", c["type"]["qualType"])
                if needs_interface(t):
                    if access == "public":
                        inline = "client-touched"
                    elif c["id"] in touched:
                        inline = "inline-touched"
                    else:
                        inline = "dll-only"
                    rows.append("  C4251 %-8s %-15s %s %s" %
                                (access, inline, c["type"]["qualType"],
                                 c.get("name", "")))
        if rows:
            total += len(rows)
            print("%s  (%s)" % (qual, os.path.relpath(path, ROOT)))
            print("\n".join(rows))
    print("%d exported classes, %d members or bases MSVC would warn about"
          % (len(seen), total))


if __name__ == "__main__":
    main()
