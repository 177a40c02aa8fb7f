#!/usr/bin/env bash
# Checks that this machine is ready for the HealthFlow workshop, and says what to do when it is not.
#
#   Examples/ready.sh                         the whole check (a few minutes the first time: it builds)
#   Examples/ready.sh --moved-build-only DIR  only step 1, on the package folder DIR (for tests)
#
# Steps: 1. a .build folder copied from another place is removed (its precompiled modules name the old path);
# 2. the Swift toolchain is 6.0 or later; 3. the package builds; 4. an example runs in its three styles and they
# agree; 5. one lesson's exercise tests pass against the worked solutions. Exit status 0 means ready.
set -uo pipefail

say() { printf '== %s\n' "$*"; }
not_ready() {
    printf '\nNOT READY: %s\n' "$1" >&2
    shift
    for line in "$@"; do printf '  %s\n' "$line" >&2; done
    exit 1
}

# A .build folder records the absolute path it was built in. Copied elsewhere (a workshop folder handed round
# on a stick), the compiler refuses its precompiled modules: "precompiled file … was compiled with module cache
# path …". Nothing in .build is source: removing it costs one build.
remove_moved_build() {
    local package=$1
    local record="$package/.build/debug.yaml"
    [ -f "$record" ] || return 0
    if ! grep -qF "$(cd "$package" && pwd -P)/.build/" "$record"; then
        say "this folder's .build was built in another place; removing it (one rebuild follows)"
        rm -rf "$package/.build"
    fi
}

if [ "${1:-}" = "--moved-build-only" ]; then
    remove_moved_build "${2:?the package folder}"
    exit 0
fi

cd "$(dirname "$0")/.." || exit 1
say "1/5 a .build folder from another place"
remove_moved_build "$PWD"

say "2/5 the Swift toolchain"
command -v swift >/dev/null || not_ready "no 'swift' on PATH" "Install a Swift 6 toolchain: https://www.swift.org/install"
version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1 \2/p' | head -1)
major=${version%% *}
[ -n "$major" ] && [ "$major" -ge 6 ] || not_ready "Swift 6.0 or later is needed; 'swift --version' says: $(swift --version 2>&1 | head -1)"

say "3/5 building (the first time takes a few minutes)"
if ! build=$(swift build 2>&1); then
    printf '%s\n' "$build" | tail -20 >&2
    if printf '%s' "$build" | grep -qE "zlib|pkg-config"; then
        not_ready "the build cannot find zlib" "Install its headers: sudo apt-get install zlib1g-dev (Debian/Ubuntu)"
    fi
    if printf '%s' "$build" | grep -q "was compiled with module cache path"; then
        not_ready "stale precompiled modules" "Remove the .build folder (rm -rf .build) and run this check again"
    fi
    not_ready "the package does not build (the compiler's last lines are above)"
fi

say "4/5 an example in its three styles"
example=$(swift run healthflow example write-height 2>&1)
printf '%s\n' "$example" | grep -q "The 3 styles agree." ||
    not_ready "'swift run healthflow example write-height' did not report that the 3 styles agree" "$example"

say "5/5 one lesson's exercise tests (against the worked solutions)"
tests=$(swift test --filter ExerciseWriteHeight 2>&1)
printf '%s\n' "$tests" | grep -qE "Test run with [1-9][0-9]* tests? .*passed" ||
    not_ready "the exercise tests did not pass: 'swift test --filter ExerciseWriteHeight'" \
        "$(printf '%s\n' "$tests" | tail -15)"

printf '\nREADY: the package builds, the examples run and the exercise tests pass.\n'
printf 'Start with: swift run healthflow tour — then Examples/WORKSHOP.md.\n'
