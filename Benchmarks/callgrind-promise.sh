#!/usr/bin/env bash
# Instructions per operation of the promise rows and their raw Dispatch baselines, counted by callgrind (release
# build): each mode runs with 10,000 and 20,000 operations, and the difference divided by 10,000 is printed, so
# start-up and fixed costs cancel out. Needs valgrind.
#
#   Benchmarks/callgrind-promise.sh                 every mode
#   Benchmarks/callgrind-promise.sh chain rawchain  some of them
exec "$(dirname "$0")/callgrind-counts.sh" PromiseInstructionCounts operation "rt rawrt imm chain rawchain then" "$@"
