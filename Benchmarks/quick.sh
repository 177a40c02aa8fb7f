#!/usr/bin/env bash
# A quick subset of the benchmarks (a few representative rows, few iterations), for a first look after a
# change; the README tables come from full runs (swift package --disable-sandbox benchmark).
#
#   Benchmarks/quick.sh
set -euo pipefail
cd "$(dirname "$0")"
export HEALTHFLOW_BENCH_QUICK=1

# package-benchmark matches --target and --filter against the whole name.
run() {
    swift package --disable-sandbox benchmark --no-progress --target "$1" --filter "$2"
}

run PromiseBenchmarks '(RoundTrip: (FlowKit pending → map\(on: serial queue\)|raw closure)|Chain10k: (FlowKit map|raw)).*'
run GraphBenchmarks 'GraphChain10k.*'
run StoreBenchmarks 'Query1000of(10k|1M).*'
run GzipBenchmarks 'Gzip100MiB: (GzipCompressor|baseline).*'
run MultipartBenchmarks 'Multipart1GiB.*'
