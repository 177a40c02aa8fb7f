#if canImport(Glibc)
    import Glibc
    import FlowKit

    /// Wakes a thread that waits in `poll(2)` from any other thread: a non-blocking socket pair (a pipe whose
    /// ends are created close-on-exec in one call) whose read end the waiter polls beside its socket, and a flag that says why. ``SocketHTTPExchange`` uses it for cancellation, so a
    /// cancelled exchange stops at once instead of at its next deadline.
    ///
    /// The waiter owns the pair's lifetime and calls ``close()`` when it is done; a ``cancel()`` after that only
    /// sets the flag (it never writes to a descriptor that may have been reused).
    ///
    /// - Note: `Sendable`: the descriptors and the flag are kept in a `LockedState`, and every write and close happens
    ///   under it.
    final class SocketWakeup: Sendable {
        private struct State {
            var readEnd: Int32
            var writeEnd: Int32
            var cancelled = false
            var closed = false
        }

        private let state: LockedState<State>

        /// Opens the pair.
        /// - Throws: ``HTTPUploadError/connection(code:)`` −1004 (cannot connect) when the process is out of
        ///   descriptors.
        init() throws(HTTPUploadError) {
            var ends: [Int32] = [-1, -1]
            let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, kind, 0, &ends) == 0 else { throw .connection(code: -1004) }
            state = LockedState(State(readEnd: ends[0], writeEnd: ends[1]))
        }

        /// The descriptor to poll for `POLLIN`; readable once ``cancel()`` was called.
        var descriptor: Int32 { state.withLock { $0.readEnd } }

        /// Whether ``cancel()`` was called.
        var isCancelled: Bool { state.withLock { $0.cancelled } }

        /// Marks the waiter cancelled and wakes it (at most one byte is ever written).
        func cancel() {
            state.withLock { state in
                guard !state.cancelled else { return }
                state.cancelled = true
                if !state.closed {
                    var byte: UInt8 = 1
                    _ = write(state.writeEnd, &byte, 1)
                }
            }
        }

        /// Closes both ends; later calls do nothing.
        func close() {
            state.withLock { state in
                guard !state.closed else { return }
                state.closed = true
                _ = Glibc.close(state.readEnd)
                _ = Glibc.close(state.writeEnd)
            }
        }

        deinit {
            close()
        }
    }
#endif
