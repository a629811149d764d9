#!/usr/bin/env bash
# The project speaks of itself, not of the units its work was done in: no "stop 37", "this stop", "the next
# stop" or "session" in any tracked file (documents, comments, test names, scripts). The past is referred to
# by date and commit. Run as `check_process_words.sh <repo>` (ctest test `process_words`); it fails listing
# each line that names the work process.
set -euo pipefail
repo=${1:?usage: check_process_words.sh <repo>}
cd "$repo"
# The words, case-insensitive: "stop" or "stops" with a number, a "stop-NN" label, "this/next/previous/last/
# earlier/later/each/every stop", and "session(s)". This file names them, so it is not searched.
pattern='\bst[o]ps? [0-9]+|\bst[o]p-[0-9]+|\b(this|next|previous|last|earlier|later|each|every) st[o]p\b|\bsess[i]ons?\b'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    mapfile -t files < <(git ls-files | grep -v -x 'tests/wording/check_process_words.sh')
else  # a copy without git: every file but build outputs
    mapfile -t files < <(find . -path ./build -prune -o -path ./.git -prune -o -type f \
                             ! -path ./tests/wording/check_process_words.sh -print)
fi
if [ "${#files[@]}" -eq 0 ]; then
    echo "process_words: no files found under $repo" >&2
    exit 1
fi
found=$(printf '%s\0' "${files[@]}" | xargs -0 grep -I -n -i -E "$pattern" -- 2>/dev/null || true)
if [ -n "$found" ]; then
    echo "These lines name the project's work process; refer to the past by date and commit instead:" >&2
    echo "$found" >&2
    exit 1
fi
echo "process_words: ${#files[@]} files, none names the work process"
