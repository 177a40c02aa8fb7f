#if canImport(Glibc)
    import Glibc

    /// One non-blocking TCP connection over POSIX sockets, for ``SocketHTTPExchange``: it resolves and connects,
    /// and sends and receives without ever blocking; waiting is the caller's (`poll(2)` on ``descriptor``).
    ///
    /// Failures are ``HTTPUploadError/connection(code:)`` with the `URLError` code URLSession reports for the same
    /// event: −1003 the host name does not resolve, −1004 no address accepted the connection (refused,
    /// unreachable), −1001 the kernel gave up on an unanswered connection, −1005 the peer reset the connection,
    /// −1 the peer had closed it (a write after its FIN draws a reset, which Linux reports as `EPIPE`). The socket
    /// has `TCP_NODELAY` set (a request's head and body go out without waiting for acknowledgements) and writes
    /// never raise `SIGPIPE`.
    ///
    /// Not `Sendable`: one thread owns it and closes it, once, in ``close()`` or `deinit`.
    final class TCPSocket {
        /// The socket's descriptor; −1 once closed.
        private(set) var descriptor: Int32

        private init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        deinit {
            close()
        }

        /// Resolves `host` and connects to `port` on the first of its addresses that accepts, in the resolver's
        /// order; `wait` is called with a descriptor to wait on until it is writable (the connection's outcome is
        /// known) and may throw to give up.
        ///
        /// Name resolution (`getaddrinfo`) blocks the calling thread and cannot be interrupted.
        /// - Throws: −1003, −1004 or −1001 (see the type's description), or what `wait` throws.
        static func connect(
            host: String, port: Int, wait: (_ descriptor: Int32) throws -> Void
        ) throws -> TCPSocket {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_protocol = Int32(IPPROTO_TCP)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
                throw HTTPUploadError.connection(code: -1003)
            }
            defer { freeaddrinfo(first) }
            var lastError: Int32 = ECONNREFUSED
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let address = next?.pointee {
                next = address.ai_next
                let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                let descriptor = socket(address.ai_family, kind, address.ai_protocol)
                guard descriptor >= 0 else {
                    lastError = errno
                    continue
                }
                let candidate = TCPSocket(descriptor: descriptor)
                if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) != 0 {
                    guard errno == EINPROGRESS else {
                        lastError = errno
                        continue
                    }
                    try wait(descriptor)
                    var failure: Int32 = 0
                    var size = socklen_t(MemoryLayout<Int32>.size)
                    guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else {
                        lastError = errno
                        continue
                    }
                    guard failure == 0 else {
                        lastError = failure
                        continue
                    }
                }
                var on: Int32 = 1
                _ = setsockopt(
                    descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return candidate
            }
            throw HTTPUploadError.connection(code: lastError == ETIMEDOUT ? -1001 : -1004)
        }

        /// Sends as much of `bytes` as the socket takes now.
        /// - Returns: The bytes sent; 0 when the socket's buffer is full.
        /// - Throws: −1005 or −1 (see the type's description).
        func send(_ bytes: UnsafeRawBufferPointer) throws(HTTPUploadError) -> Int {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
            while true {
                let sent = Glibc.send(descriptor, base, bytes.count, Int32(MSG_NOSIGNAL))
                if sent >= 0 { return sent }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return 0
                default: throw Self.failure(errno)
                }
            }
        }

        /// Receives what has arrived, up to `buffer.count` bytes.
        /// - Returns: The bytes received; 0 at the end of the connection (the peer's FIN); `nil` when nothing is
        ///   there yet.
        /// - Throws: −1005 or −1 (see the type's description).
        func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPUploadError) -> Int? {
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            while true {
                let received = recv(descriptor, base, buffer.count, 0)
                if received >= 0 { return received }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return nil
                default: throw Self.failure(errno)
                }
            }
        }

        /// Closes the socket; later calls do nothing.
        func close() {
            guard descriptor >= 0 else { return }
            _ = Glibc.close(descriptor)
            descriptor = -1
        }

        /// The error for a failed send or receive: the peer closed (−1, `EPIPE`) or the connection was lost
        /// (−1005, a reset or anything else).
        private static func failure(_ code: Int32) -> HTTPUploadError {
            .connection(code: code == EPIPE ? -1 : -1005)
        }
    }
#endif
