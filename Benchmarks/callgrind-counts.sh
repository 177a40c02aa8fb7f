#!/usr/bin/env bash
# What callgrind-promise.sh and callgrind-store.sh share: builds PRODUCT (release), runs each mode under callgrind
# with 10,000 and 20,000 operations, and prints the difference divided by 10,000, so start-up and fixed costs
# cancel out. Needs valgrind.
#
#   Benchmarks/callgrind-counts.sh PRODUCT UNIT "DEFAULT MODES" [MODE...]
set -euo pipefail
cd "$(dirname "$0")"
product=$1 unit=$2 defaults=$3
shift 3
swift build -c release --product "$product" >/dev/null
binary=$(swift build -c release --show-bin-path)/$product
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" "$1" "$2" 2>&1 \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
modes=("$@")
# shellcheck disable=SC2206 # the default modes are one word each
[[ ${#modes[@]} -eq 0 ]] && modes=($defaults)
for mode in "${modes[@]}"; do
    small=$(count "$mode" 10000)
    large=$(count "$mode" 20000)
    echo "$mode: $(((large - small) / 10000)) instructions per $unit"
done
