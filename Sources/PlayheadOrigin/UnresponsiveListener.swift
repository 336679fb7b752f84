#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that never completes a new connection, for connect-timeout tests.
///
/// It listens with a backlog of 0, fills its accept queue with one connection of its own and never
/// accepts, so the kernel drops later SYNs and a client's connect hangs until its own timeout (checked on
/// Linux; other kernels may refuse instead).
public final class UnresponsiveListener: Sendable {
    /// The port whose connections hang.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listenFD: Int32
    private let fillerFD: Int32
    private let closed = Locked(false)

    /// Opens the listener and fills its accept queue.
    public init() throws {
        let (fd, port) = try Socket.listenOnLoopback(backlog: 0)
        listenFD = fd
        self.port = port
        #if canImport(Glibc)
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let filler = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard filler >= 0 else { let code = errno; close(fd); throw LoopbackServerError(call: "socket", code: code) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(filler)
            close(fd)
            throw LoopbackServerError(call: "connect", code: code)
        }
        fillerFD = filler
    }

    deinit { stop() }

    /// Closes the listener. Idempotent.
    public func stop() {
        let first = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        close(fillerFD)
        close(listenFD)
    }
}
