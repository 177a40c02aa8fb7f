#!/usr/bin/env bash
# A newcomer's first minutes, as README.md promises them, and the whole debug half of CI on that same fresh clone:
# a clone of the committed HEAD, an empty HOME, a python3 with no extra packages (a new venv's interpreter) first on
# PATH, then README.md's first two commands exactly as its first ```sh block holds them. Nothing is installed by
# hand. The clone is built once: the two commands build what they need, `swift build --build-tests` builds the rest,
# and every compiler line of the three is checked for warnings. Then the main job runs once more (it must reopen the
# store the first run made) and every pasteable command of the documentation runs (.ci/readme_commands.py). Temp
# folders are removed on exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/healthflow-newcomer.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

git clone --quiet "$root" "$scratch/clone"
mkdir "$scratch/home" "$scratch/tmp"
python3 -m venv "$scratch/bare"

# The first ```sh block of README.md, comments and blank lines dropped.
mapfile -t commands < <(awk '/^```sh$/ { inside = 1; next } /^```/ { if (inside) exit } inside' "$scratch/clone/README.md" \
    | sed 's/#.*$//; s/[[:space:]]*$//' | grep -v '^$')
if [[ ${#commands[@]} -ne 2 ]]; then
    echo "error: README.md should start with two commands; its first sh block holds ${#commands[@]}" >&2
    exit 1
fi

# The newcomer's machine: no data folder chosen, an empty HOME, a bare python3. TMPDIR is a private folder, so
# whatever the commands leave in it can be checked: the owner of a scratch file removes it.
as_newcomer() {
    env -u HEALTHFLOW_DATA -u XDG_DATA_HOME HOME="$scratch/home" PATH="$scratch/bare/bin:$PATH" \
        TMPDIR="$scratch/tmp" bash -c "$1"
}

# Runs one command as the newcomer, its output into a log named $2; on failure shows what failed and stops.
run() {
    local command=$1 log="$scratch/$2.log"
    echo "== newcomer: $command"
    local start
    start=$(date +%s)
    as_newcomer "$command" > "$log" 2>&1 || {
        # What failed (Swift Testing marks each failing test and issue with ✘), then how the run ended.
        grep -a '✘' "$log" | head -n 40 || true
        tail -n 40 "$log"
        echo "error: '$command' failed" >&2
        exit 1
    }
    tail -n 2 "$log"
    echo "   ($(( $(date +%s) - start )) s)"
}

cd "$scratch/clone"
run "${commands[0]}" main-job
run "${commands[1]}" tests

echo "== the main job again: it reopens the durable store the first run made"
run "${commands[0]}" main-job-again
grep -q "reopened" "$scratch/main-job-again.log" || {
    echo "error: the second run of '${commands[0]}' did not reopen the store the first run made" >&2
    exit 1
}

echo "== the rest of the build (CLI probes, examples), then no compiler warning anywhere in the clone's one build"
run "swift build --build-tests" build-rest
if grep -h -E "warning:" "$scratch"/main-job.log "$scratch"/tests.log "$scratch"/build-rest.log; then
    echo "error: the build printed warnings (the project builds warning-free)" >&2
    exit 1
fi

# What the toolchain leaves there is not ours: SwiftPM's TemporaryDirectory.* folders and lock files, and the
# compiler's swift-generated-sources (the text of each macro expansion, e.g. #isolation, kept for diagnostics).
echo "== nothing left in the temp folder by the commands (the toolchain's own leftovers aside)"
leftovers=$(ls -A "$scratch/tmp" | grep -vE '^(TemporaryDirectory\.[A-Za-z0-9]+|.*\.lock|swift-generated-sources)$' || true)
if [ -n "$leftovers" ]; then
    echo "error: the commands left scratch files in their temp folder (the owner of a scratch file removes it):" >&2
    echo "$leftovers" >&2
    exit 1
fi

echo "== every pasteable command of README.md and the Examples' READMEs and LESSONs, verbatim"
as_newcomer "python3 .ci/readme_commands.py"
echo "== newcomer path passed"
