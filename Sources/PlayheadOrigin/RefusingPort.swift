#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that refuses every connection, for connection-refused tests.
///
/// The port is bound but never listened on, so a connect gets a reset at once; and since it stays
/// bound until ``stop()``, no other server can be given the port in the meantime (as can happen to the
/// port of a server that was just stopped, when tests run in parallel).
public final class RefusingPort: Sendable {
    /// The refusing port.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let fd: Int32
    private let closed = Locked(false)

    /// Binds a free port.
    public init() throws {
        (fd, port) = try Socket.bindLoopback(backlog: nil)
    }

    deinit { stop() }

    /// Releases the port. Idempotent.
    public func stop() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if first { close(fd) }
    }
}
