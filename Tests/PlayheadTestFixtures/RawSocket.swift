import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP exchange with a server on 127.0.0.1, for tests of what a server does with bytes no HTTP
/// client would send (or with a client that stays silent).
public enum RawSocket {
    /// Why an exchange could not start.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, then reads until the server closes the connection,
    /// `timeoutSeconds` pass without data, or `done` says what arrived is enough.
    /// - Returns: The bytes read, and whether the server closed the connection.
    public static func exchange(port: Int, sending bytes: [UInt8], timeoutSeconds: Int = 10,
                                until done: ([UInt8]) -> Bool = { _ in false }) throws -> (bytes: [UInt8], closed: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port): errno \(errno)") }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !done(received) {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return (received, true) }
            if count < 0 { break }
            received += buffer.prefix(count)
        }
        return (received, false)
    }
}
