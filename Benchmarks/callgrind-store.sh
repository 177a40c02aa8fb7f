#!/usr/bin/env bash
# Instructions per sample of the store's save rows and the Array.append baseline, counted by callgrind (release
# build): each mode saves 10,000 and 20,000 samples in batches of 1,000, and the difference divided by 10,000 is
# printed, so start-up, the samples' generation and fixed costs cancel out. Needs valgrind.
#
#   Benchmarks/callgrind-store.sh                  every mode (memory, file, append)
#   Benchmarks/callgrind-store.sh memory           some of them
exec "$(dirname "$0")/callgrind-counts.sh" StoreInstructionCounts sample "memory file append" "$@"
