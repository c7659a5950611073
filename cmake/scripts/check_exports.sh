#!/usr/bin/env bash
# check_exports.sh <installed strata.dll or libstrata.so> <include/strata dir>
#
# Fails unless the shared library exports strata's public API and nothing
# else of strata's: every exported strata:: name must belong to a name the
# public headers declare at namespace scope in strata (a class, enum, alias,
# function or variable). A member of DBImpl, VersionSet or any other internal
# class, or an internal free function, fails the check; so does a symbol of
# another library in a DLL. The C API's functions (strata/c.h, C names)
# are public too. Also fails if the table lacks the entry points every
# user needs, which is what an empty or truncated table looks like.
#
# A DLL's export table is read with objdump -p. A shared object's dynamic
# symbols are read with nm -D; there the C++ library's templates that strata
# instantiates on public or standard types (std::vector<strata::Slice>) are
# exported too, as ELF gives them default visibility, and are allowed.
#
# The public names are read from the headers as clang-format lays them out
# (checked in CI): inside `namespace strata {`, a declaration starts at
# column 0, and members and enumerators are indented.
#
# Tools: OBJDUMP (default x86_64-w64-mingw32-objdump) for a DLL, NM (default
# nm) for a shared object, and CXXFILT (default: the c++filt of the same
# binutils).
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 <strata.dll or libstrata.so> <include/strata directory>" >&2
  exit 2
fi
lib=$1
headers=$2
case "$lib" in
  *.dll)
    format=pe
    objdump=${OBJDUMP:-x86_64-w64-mingw32-objdump}
    cxxfilt=${CXXFILT:-${objdump%objdump}c++filt}
    ;;
  *)
    format=elf
    nm=${NM:-nm}
    cxxfilt=${CXXFILT:-${nm%nm}c++filt}
    ;;
esac

# The names declared at namespace scope in strata by the public headers
# (strata/ and its subdirectories, strata/utilities/), one
# a line: what an export's first component after `strata::` must be.
public_names() {
  awk '
    /^namespace strata \{/ { inside = 1; next }
    /^\}  \/\/ namespace strata/ { inside = 0; stmt = ""; next }
    !inside { next }
    # A declaration opens at column 0 and runs until "(", ";" or "{".
    stmt == "" && /^([ \t]|\/\/|#|\}|template|$)/ { next }
    {
      stmt = stmt " " $0
      if (stmt !~ /[(;{]/) next
      s = stmt
      stmt = ""
      sub(/\/\/.*/, "", s)
      gsub(/STRATA_EXPORT|inline|constexpr|extern|static/, " ", s)
      if (match(s, /(class|struct|union|enum)( class| struct)? +[A-Za-z_][A-Za-z0-9_]* *;/)) {
        # A forward declaration: the class may be internal (table.h names
        # TableReader), and a public one is declared in its own header.
      } else if (match(s, /(class|struct|union|enum)( class| struct)? +[A-Za-z_][A-Za-z0-9_]*/)) {
        n = split(substr(s, RSTART, RLENGTH), w, / +/)
        print w[n]
      } else if (match(s, /using +[A-Za-z_][A-Za-z0-9_]* *=/)) {
        n = split(substr(s, RSTART, RLENGTH), w, /[ =]+/)
        print w[2]
      } else if (match(s, /(^|[^:])operator *[^ (]+ *\(/)) {
        op = substr(s, RSTART, RLENGTH - 1)
        sub(/^[^o]*/, "", op)
        gsub(/ /, "", op)
        print op
      } else {
        # A function (the name before "(", or its class if qualified), a
        # variable (the name before "=" or ";"), or a typedef.
        sub(/[(=;{].*/, "", s)
        n = split(s, w, /[^A-Za-z0-9_:]+/)
        while (n > 0 && w[n] == "") n--
        split(w[n], q, /::/)
        print q[1]
      }
    }' $(find "$headers" -name '*.h' | sort) | sort -u
}

# The demangled names the library exports, one a line, without ABI tags
# ([abi:cxx11]).
exported_names() {
  if [ "$format" = pe ]; then
    "$objdump" -p "$lib" |
      awk '/^\[Ordinal\/Name Pointer\] Table/ { t = 1; next }
           t && /^\t\[ *[0-9]+\] / { sub(/^\t\[ *[0-9]+\] /, ""); print; next }
           t && !/^\t/ { t = 0 }'
  else
    "$nm" -D --defined-only --format=posix "$lib" | awk '{ print $1 }'
  fi | "$cxxfilt" | sed 's/\[abi:[^]]*\]//g'
}

# Prints each exported name that is not strata's public API.
not_public() {
  awk -v allowed="$1" -v format="$format" '
    BEGIN { n = split(allowed, a, "\n"); for (i = 1; i <= n; i++) ok[a[i]] = 1 }
    $0 == "" { next }
    {
      name = $0
      # Special symbols name the entity they belong to.
      sub(/^(vtable|typeinfo|typeinfo name|VTT|guard variable) for /, "", name)
      sub(/^construction vtable for /, "", name)
      sub(/^(non-virtual|virtual|covariant return) thunk to /, "", name)
      # Keep the operators whose names hold "<", ">" or "(", then drop the
      # template arguments, the parameters and a return type: what is left
      # is the qualified name.
      gsub(/operator<<=?|operator>>=?|operator<=>|operator<=?|operator>=?/, "operatorX", name)
      gsub(/operator->\*?/, "operatorX", name)
      gsub(/operator\(\)/, "operatorX", name)
      while (gsub(/<[^<>]*>/, "", name)) {}
      sub(/\(.*$/, "", name)
      sub(/^.* /, "", name)
      n = split(name, part, /::/)
      if (n == 1) {
        top = part[1]  # a C name: the C API when there is one
      } else if (part[1] == "strata") {
        top = part[2]
      } else if (format == "elf" && (part[1] == "std" || part[1] == "__gnu_cxx")) {
        next
      } else {
        print $0
        next
      }
      if (top == "operatorX" || !(top in ok)) print $0
    }'
}

# The C API's functions (strata/c.h and the c_*.h it includes): C names,
# declared outside any namespace, each as "STRATA_EXPORT <type>
# strata_<name>(".
c_api_names() {
  if [ -f "$headers/c.h" ]; then
    cat "$headers"/c.h "$headers"/c_*.h 2>/dev/null |
      grep -o 'strata_[A-Za-z0-9_]*(' | tr -d '(' | sort -u
  fi
}

allowed=$({ public_names; c_api_names; } | sort -u)
if [ -z "$allowed" ]; then
  echo "check_exports: no public names found in $headers" >&2
  exit 1
fi
names=$(exported_names)
count=$(printf '%s\n' "$names" | grep -c . || true)
bad=$(printf '%s\n' "$names" | not_public "$allowed")

missing=""
for needed in 'strata::DB::Open(' 'strata::WriteBatch::Put(' \
    'strata::Env::Default()' 'strata::Status::ToString() const' \
    'strata_open'; do
  # Not grep -q: it would stop reading early, and printf's SIGPIPE would
  # fail the pipeline (pipefail) once the list outgrows the pipe buffer.
  if ! printf '%s\n' "$names" | grep -F "$needed" >/dev/null; then
    missing="$missing  $needed"$'\n'
  fi
done

if [ -n "$bad" ] || [ -n "$missing" ]; then
  if [ -n "$bad" ]; then
    echo "check_exports: $lib exports $(printf '%s\n' "$bad" | wc -l) of" \
         "its $count names outside strata's public API:" >&2
    printf '%s\n' "$bad" | head -n 50 | sed 's/^/  /' >&2
  fi
  if [ -n "$missing" ]; then
    echo "check_exports: $lib ($count exports) lacks:" >&2
    printf '%s' "$missing" >&2
  fi
  exit 1
fi
echo "check_exports: $lib exports $count names, none outside the public API"
