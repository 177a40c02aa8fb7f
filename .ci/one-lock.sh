#!/usr/bin/env bash
# One lock type in the whole package: FlowKit's LockedState (Sources/FlowKit/Locking/LockedState.swift), the only
# lock that sanitizer builds swap for one ThreadSanitizer can follow. Any other lock in our Swift code would be
# invisible to that story (a raw Synchronization.Mutex is invisible to TSan on Linux), so none may appear outside
# that file: not in Sources, Tests, Examples or Benchmarks, not even in a comment.
set -euo pipefail
cd "$(dirname "$0")/.."

lock_file=Sources/FlowKit/Locking/LockedState.swift
pattern='\b(Mutex|NSLock|NSRecursiveLock|NSCondition|NSConditionLock|os_unfair_lock[a-z_]*|OSAllocatedUnfairLock|pthread_(mutex|rwlock|spin)[a-z_]*)\b'
found=$(grep -rnE --include='*.swift' "$pattern" Sources Tests Examples Benchmarks/Sources Benchmarks/Benchmarks \
    | grep -v "^$lock_file:" || true)
if [[ -n "$found" ]]; then
    echo "$found" >&2
    echo "error: a lock other than LockedState (see $lock_file); use LockedState, whose sanitizer build TSan follows" >&2
    exit 1
fi
# A LockedState of an empty value is a lock around nothing: under the sanitizers its inout access of a zero-sized
# value is reported by ThreadSanitizer as a race with another thread's trylock (it has no address of its own). Give
# the lock the state it protects.
empty=$(grep -rnE --include='*.swift' 'LockedState(<(Void|\(\))>)?\(\(\)\)|LockedState<(Void|\(\))>' Sources Tests Examples \
    Benchmarks/Sources Benchmarks/Benchmarks || true)
if [[ -n "$empty" ]]; then
    echo "$empty" >&2
    echo "error: a LockedState of Void; lock the state it protects (ThreadSanitizer misreports a zero-sized value)" >&2
    exit 1
fi
echo "one lock: only $lock_file names a lock primitive, and no LockedState holds an empty value"
