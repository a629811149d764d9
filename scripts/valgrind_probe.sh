#!/usr/bin/env bash
# Can valgrind's memcheck run a program linked to libhwy.so on this CPU? Debian 12's valgrind 3.19 does not
# decode every instruction of newer CPUs: on AMD Zen 5 it stops with SIGILL on the `rdtscp` that Highway's
# library initialiser executes, before main. Such a run proves nothing about our code, so the caller skips it.
# Usage: valgrind_probe.sh <work dir>. Exit 0: valgrind works here. Exit 1: it cannot run such a program; the
# reason is printed on stdout. Any other failure (no compiler, no valgrind) exits 2, loudly: that is a broken
# machine, not a CPU valgrind does not know.
set -uo pipefail
work=$1
mkdir -p "$work"
cat >"$work/probe.c" <<'C'
/* Links libhwy.so (whose initialiser runs rdtscp on x86) and executes rdtscp itself. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
int main(void) {
    unsigned int aux;
    (void)__rdtscp(&aux);
    return 0;
}
#else
int main(void) { return 0; }
#endif
C
if ! gcc -O0 -o "$work/probe" "$work/probe.c" -Wl,--no-as-needed -lhwy 2>"$work/probe_build.log"; then
    cat "$work/probe_build.log" >&2
    echo "valgrind_probe: cannot build the probe program" >&2
    exit 2
fi
command -v valgrind >/dev/null || { echo "valgrind_probe: valgrind is not installed" >&2; exit 2; }
valgrind --error-exitcode=9 "$work/probe" >"$work/probe_valgrind.log" 2>&1
status=$?
[[ $status -eq 0 ]] && exit 0
if grep -q "unhandled instruction bytes" "$work/probe_valgrind.log" || [[ $status -eq 132 ]]; then
    model=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
    echo "valgrind $(valgrind --version | sed 's/valgrind-//') cannot execute a program linked to libhwy.so on" \
        "this CPU ($model): it stops with SIGILL on an instruction it does not decode" \
        "($(grep -m1 -o 'unhandled instruction bytes:\( 0x[0-9A-Fa-f]*\)\{1,4\}' "$work/probe_valgrind.log"))"
    exit 1
fi
cat "$work/probe_valgrind.log" >&2
echo "valgrind_probe: valgrind failed on the probe program with status $status for another reason" >&2
exit 2
