import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small blocking HTTP/1.1 client for the daemon's own tools and tests (`playhead soak --server`, the
/// integration tests): one request per connection (`Connection: close`), IPv4 host or `localhost`,
/// bodies with `Content-Length`, chunked, or up to the close. Not a general client: no TLS, no redirects.
public enum LoopbackHTTPClient {
    /// Default time a request may take: 30 s.
    public static let defaultTimeoutSeconds = 30.0

    /// An answer.
    public struct Reply: Sendable {
        /// The status code.
        public var status: Int
        /// Header fields, names lowercased.
        public var headers: [String: String]
        /// The body (de-chunked).
        public var body: Data
        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Errors before an answer.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
        /// Creates a failure.
        public init(description: String) { self.description = description }
    }

    /// Sends one request and reads the answer.
    /// - Parameters:
    ///   - method: `GET`, `POST`, `DELETE`, …
    ///   - url: `http://HOST:PORT/path?query`.
    ///   - headers: Extra header fields.
    ///   - body: The body, if any.
    ///   - timeoutSeconds: Give up reading after this long without data, and overall.
    ///   - stopWhen: Called with the raw bytes read so far; returning true ends the read early (for
    ///     streams that stay open), and the body is what arrived by then.
    public static func send(_ method: String, _ url: String, headers: [String: String] = [:], body: Data? = nil,
                            timeoutSeconds: Double = defaultTimeoutSeconds, stopWhen: ((Data) -> Bool)? = nil) throws -> Reply {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else { throw Failure(description: "bad URL \(url)") }
        let target = (parsed.path.isEmpty ? "/" : parsed.path) + (parsed.query.map { "?" + $0 } ?? "")
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - floor(timeoutSeconds)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw Failure(description: "not an IPv4 address: \(host)")
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to \(host):\(port) failed (errno \(errno))") }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        var fields = headers
        if let body { fields["Content-Length"] = String(body.count) }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        var request = Data((head + "\r\n").utf8)
        if let body { request += body }
        try request.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0 { if errno == EINTR { continue }; throw Failure(description: "send failed (errno \(errno))") }
                offset += n
            }
        }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            received.append(chunk, count: n)
            if let stopWhen, stopWhen(received) { break }
        }
        return try parse(received)
    }

    /// Splits status line, headers and body; de-chunks a chunked body (as far as it arrived).
    static func parse(_ data: Data) throws -> Reply {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no answer (\(data.count) bytes)") }
        let lines = String(decoding: data[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[split.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = dechunk(body) }
        return Reply(status: status, headers: headers, body: body)
    }

    /// The payload of a chunked body, as far as whole chunks arrived.
    static func dechunk(_ data: Data) -> Data {
        var out = Data()
        var index = data.startIndex
        while let lineEnd = data[index...].range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            let end = data.index(start, offsetBy: size, limitedBy: data.endIndex) ?? data.endIndex
            out += data[start..<end]
            guard end < data.endIndex else { break }
            index = data.index(end, offsetBy: 2, limitedBy: data.endIndex) ?? data.endIndex
        }
        return out
    }
}
