#!/usr/bin/env bash
# A newcomer's first minutes, as README.md promises them: a fresh clone of the committed HEAD, an empty HOME, a
# python3 with no extra packages (a new venv's interpreter) first on PATH, then README.md's first two commands
# exactly as its first ```sh block holds them. Nothing is installed by hand. Temp folders are removed on exit.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/healthflow-newcomer.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

git clone --quiet "$root" "$scratch/clone"
mkdir "$scratch/home"
python3 -m venv "$scratch/bare"

# The first ```sh block of README.md, comments and blank lines dropped.
mapfile -t commands < <(awk '/^```sh$/ { inside = 1; next } /^```/ { if (inside) exit } inside' "$scratch/clone/README.md" \
    | sed 's/#.*$//; s/[[:space:]]*$//' | grep -v '^$')
if [[ ${#commands[@]} -ne 2 ]]; then
    echo "error: README.md should start with two commands; its first sh block holds ${#commands[@]}" >&2
    exit 1
fi

cd "$scratch/clone"
for command in "${commands[@]}"; do
    echo "== newcomer: $command"
    start=$(date +%s)
    env -u HEALTHFLOW_DATA -u XDG_DATA_HOME HOME="$scratch/home" PATH="$scratch/bare/bin:$PATH" bash -c "$command" \
        > "$scratch/output.log" 2>&1 || {
        # What failed (Swift Testing marks each failing test and issue with ✘), then how the run ended.
        grep -a '✘' "$scratch/output.log" | head -n 40 || true
        tail -n 40 "$scratch/output.log"
        echo "error: '$command' failed" >&2
        exit 1
    }
    tail -n 2 "$scratch/output.log"
    echo "   ($(( $(date +%s) - start )) s)"
done
echo "== newcomer path passed"
