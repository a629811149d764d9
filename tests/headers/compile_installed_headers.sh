#!/usr/bin/env bash
# Installs the build into a fresh prefix and compiles every header found there -- the install's own list, so a
# new header is never missed -- warning-free and pedantic: each header alone as C99 and as C++11 (it includes
# what it needs), and all of them together as C99 and as C++11, 14, 17 and 20.
# Usage: compile_installed_headers.sh <build dir> <work dir> <C compiler> <C++ compiler>
set -euo pipefail
build_dir=$(realpath "$1")
work=$(realpath -m "$2")
cc=$3
cxx=$4
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null
mapfile -t headers < <(cd "$prefix/include" && find . -name '*.h' -printf '%P\n' | LC_ALL=C sort)
(( ${#headers[@]} > 0 )) || { echo "no header under $prefix/include"; exit 1; }
flags=(-Wall -Wextra -Werror -pedantic -fsyntax-only -I "$prefix/include")

compile() {  # compile <language> <standard> <source>
    if [[ $1 == c ]]; then
        "$cc" -x c "-std=$2" "${flags[@]}" "$3"
    else
        "$cxx" -x c++ "-std=$2" "${flags[@]}" "$3"
    fi
}

failures=0
for header in "${headers[@]}"; do
    source="$work/alone_${header//\//_}.c"
    # The typedef keeps a header that is all macros, or empty in C (C++-only types), from leaving ISO C an empty
    # translation unit.
    printf '#include "%s"\ntypedef int translation_unit_is_not_empty;\n' "$header" >"$source"
    for pair in "c c99" "c++ c++11"; do
        read -r language standard <<<"$pair"
        compile "$language" "$standard" "$source" || { echo "FAILED: $header alone as $standard"; failures=$((failures + 1)); }
    done
done
all="$work/all.c"
printf '#include "%s"\n' "${headers[@]}" >"$all"
for standard in c99 c++11 c++14 c++17 c++20; do
    language=c++
    [[ $standard == c99 ]] && language=c
    compile "$language" "$standard" "$all" || { echo "FAILED: all headers as $standard"; failures=$((failures + 1)); }
done
echo "${#headers[@]} installed headers, each alone as C99 and C++11, all together as C99 and C++11-20:" \
     "$((${#headers[@]} * 2 + 5 - failures)) passed, $failures failed"
(( failures == 0 ))
