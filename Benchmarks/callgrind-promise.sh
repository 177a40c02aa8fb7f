#!/usr/bin/env bash
# Instructions per operation of the promise rows and their raw Dispatch baselines, counted by callgrind (release
# build): each mode runs with 10,000 and 20,000 operations, and the difference divided by 10,000 is printed, so
# start-up and fixed costs cancel out. Needs valgrind.
#
#   Benchmarks/callgrind-promise.sh                 every mode
#   Benchmarks/callgrind-promise.sh chain rawchain  some of them
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product PromiseInstructionCounts >/dev/null
binary=$(swift build -c release --show-bin-path)/PromiseInstructionCounts
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
modes=("$@")
[[ ${#modes[@]} -eq 0 ]] && modes=(rt rawrt imm chain rawchain then)
for mode in "${modes[@]}"; do
    small=$(count "$mode" 10000)
    large=$(count "$mode" 20000)
    echo "$mode: $(((large - small) / 10000)) instructions per operation"
done
