#!/usr/bin/env bash
# One way to start a child process in the package's tests: ProductSupport's ChildProcess
# (Tests/Support/ProductSupport/ChildProcess.swift over Tests/Support/CChildProcess). Foundation's Process on Linux
# sees a child's end through a socket the child inherits, and a child another thread starts at that moment inherits
# it too (and any pipe open then): the first child's end is seen only when the second ends. A 600-second test
# receiver that inherited one stalled a whole `swift test` for ten minutes. ChildProcess makes every pipe
# close-on-exec, closes every other descriptor in the child and waits with waitid; any other spawner in the same
# process would bring the race back, so none may appear in Sources, Tests or Examples.
set -euo pipefail
cd "$(dirname "$0")/.."

pattern='\bProcess\(\)|\bProcess\.run\(|launchedProcess\(|posix_spawnp?\(|\bv?fork\(|\bsystem\(|\bpopen\('
found=$(grep -rnE --include='*.swift' --include='*.c' --include='*.h' "$pattern" Sources Tests Examples \
    | grep -v '^Tests/Support/CChildProcess/' || true)
if [[ -n "$found" ]]; then
    echo "$found" >&2
    echo "error: a child process started without ChildProcess (Tests/Support/ProductSupport/ChildProcess.swift)" >&2
    exit 1
fi
echo "one spawner: every child process of the tests starts through ChildProcess"
