#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the loopback server could not start.
public struct LoopbackServerError: Error, CustomStringConvertible {
    /// The POSIX call that failed.
    public var call: String
    /// Its `errno`.
    public var code: Int32

    /// `call failed: strerror(code)`.
    public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// Thin wrappers over the POSIX socket calls the server needs.
enum Socket {
    /// What a wait ended with.
    enum Wake: Equatable { case readable, stopped, timedOut }

    /// Opens a TCP socket listening on 127.0.0.1 at `port` (0: the kernel picks); returns it and the port.
    static func listenOnLoopback(port: Int = 0, backlog: Int32 = 64) throws(LoopbackServerError) -> (fd: Int32, port: Int) {
        try bindLoopback(port: port, backlog: backlog)
    }

    /// A TCP socket bound to 127.0.0.1:`port` (0: any free port), listening with `backlog` when given;
    /// without a backlog it is only bound (no SO_REUSEADDR), which holds the port and refuses connections.
    static func bindLoopback(port: Int = 0, backlog: Int32?) throws(LoopbackServerError) -> (fd: Int32, port: Int) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw LoopbackServerError(call: "socket", code: errno) }
        var yes: Int32 = 1
        if backlog != nil { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(clamping: port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { let code = errno; close(fd); throw LoopbackServerError(call: "bind", code: code) }
        if let backlog, listen(fd, backlog) != 0 { let code = errno; close(fd); throw LoopbackServerError(call: "listen", code: code) }
        var actual = sockaddr_in()
        var actualLength = length
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        guard named == 0 else { let code = errno; close(fd); throw LoopbackServerError(call: "getsockname", code: code) }
        return (fd, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Accepts one connection; `nil` on failure.
    static func acceptConnection(_ listener: Int32) -> Int32? {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Waits until `fd` is readable (or hung up), `stopFD` is readable, or `timeoutMilliseconds` pass
    /// (-1: no limit).
    static func wait(forReadable fd: Int32, stopFD: Int32, timeoutMilliseconds: Int) -> Wake {
        var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), Int32(clamping: timeoutMilliseconds))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return ready == 0 ? .timedOut : .stopped }
            if fds[0].revents != 0 { return .stopped }
            return .readable
        }
    }

    /// Reads what is there, up to `maxBytes`; `nil` when the peer closed or on error.
    static func receive(_ fd: Int32, maxBytes: Int = 64 * 1024) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maxBytes, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return Array(buffer[0..<count])
        }
    }

    /// Whether the peer has closed its side (checked without consuming data).
    static func peerClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }

    /// Sends every byte; `false` when the peer went away.
    static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
