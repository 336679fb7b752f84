import Foundation

/// Serves the requests of one kept-alive TCP connection, on its own thread, until the client closes it,
/// it sits idle too long, a fault ends it, or the server stops.
struct Connection {
    /// Largest request head accepted (request line plus headers): 16 KiB; larger gets 431.
    static let maxHeadBytes = 16 * 1024
    /// Largest request body read and thrown away: 1 MiB; larger gets 413 and a close.
    static let maxDiscardedBodyBytes = 1 << 20

    let fd: Int32
    let id: Int
    let core: ServerCore
    private var buffer: [UInt8] = []

    init(fd: Int32, id: Int, core: ServerCore) {
        self.fd = fd
        self.id = id
        self.core = core
    }

    /// Serves requests until the connection ends, then closes it.
    mutating func run() {
        defer { core.closeConnection(fd) }
        while let request = readHead() {
            if let refusal = discardBody(of: request) {
                _ = send(refusal, fault: nil)
                drainBeforeClose()
                return
            }
            let receivedAt = Date()
            let applied = core.fault(for: request.path, headers: request.headers)
            let fault = applied?.fault
            let plan = plan(for: request, fault: fault)
            core.log(LoopbackHTTPServer.RequestRecord(
                method: request.method, path: request.path, query: request.query, receivedAt: receivedAt,
                rangeHeader: request.headers["range"], acceptEncoding: request.headers["accept-encoding"],
                status: fault == .closeConnection ? 0 : plan.status, connectionID: id, fault: fault, faultRule: applied?.rule))
            guard send(plan, fault: fault), !plan.closeAfter else { return }
        }
    }

    /// A 400 for a request that cannot be answered (no Host, a malformed escape); else the responder's
    /// answer unless a status fault overrides it; else the file system's.
    private func plan(for request: HTTPRequestHead, fault: LoopbackHTTPServer.Fault?) -> ResponsePlan {
        if let refusal = ResponsePlan.refusal(for: request) { return refusal }
        if case .status = fault {} else if let responder = core.responder, let plan = responder(request, core) {
            return plan
        }
        let transformer = core.state.withLock { $0.bodyTransformer }
        return ResponsePlan.make(for: request, root: core.root, fault: fault,
                                 transform: transformer.map { transformer in { path, body in transformer(path, body, core.secondsSinceStart) } })
    }

    /// Reads up to the blank line ending a request head. `nil` when the connection should end.
    private mutating func readHead() -> HTTPRequestHead? {
        while true {
            let end = HTTPRequestHead.end(in: buffer)
            if let end, end.lowerBound <= Self.maxHeadBytes {
                let head = HTTPRequestHead.parse(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                guard let head else {
                    _ = send(.text(400, "malformed request", closeAfter: true), fault: nil)
                    drainBeforeClose()
                    return nil
                }
                return head
            }
            if end != nil || buffer.count > Self.maxHeadBytes {
                // No line end at all yet: the request line (its target) is what is too long.
                let plan: ResponsePlan = buffer.prefix(Self.maxHeadBytes).contains(10)
                    ? .text(431, "request head over \(Self.maxHeadBytes) bytes", closeAfter: true)
                    : .text(414, "request line over \(Self.maxHeadBytes) bytes", closeAfter: true)
                _ = send(plan, fault: nil)
                drainBeforeClose()
                return nil
            }
            guard Socket.wait(forReadable: fd, stopFD: core.stopFD, timeoutMilliseconds: core.idleTimeoutMilliseconds) == .readable,
                  let bytes = Socket.receive(fd) else { return nil }
            buffer += bytes
        }
    }

    /// Reads and drops a `Content-Length` body. Nil when done; else the answer that ends the connection:
    /// 400 for a length that is not a number, 413 for a body too large or chunked, 400 for one cut short.
    private mutating func discardBody(of request: HTTPRequestHead) -> ResponsePlan? {
        if request.headers["transfer-encoding"] != nil { return .text(413, "request bodies are not accepted", closeAfter: true) }
        let header = request.headers["content-length"] ?? "0"
        guard let length = Int(header), length >= 0, header.allSatisfy(\.isASCII) else {
            return .text(400, "Content-Length \"\(header)\" is not a number of bytes", closeAfter: true)
        }
        guard length <= Self.maxDiscardedBodyBytes else { return .text(413, "request bodies are not accepted", closeAfter: true) }
        while buffer.count < length {
            guard Socket.wait(forReadable: fd, stopFD: core.stopFD, timeoutMilliseconds: core.idleTimeoutMilliseconds) == .readable,
                  let bytes = Socket.receive(fd) else { return .text(400, "the body ended before Content-Length", closeAfter: true) }
            buffer += bytes
        }
        buffer.removeSubrange(..<length)
        return nil
    }

    /// After an error answer that leaves request bytes unread: half-closes, then reads and drops what the
    /// client still sends (up to 1 MiB, 1 s), so that closing does not reset the connection before the
    /// client has read the answer.
    private func drainBeforeClose() {
        shutdown(fd, Int32(SHUT_WR))
        var dropped = 0
        let deadline = ContinuousClock.now + .seconds(1)
        while dropped < 1 << 20, ContinuousClock.now < deadline,
              Socket.wait(forReadable: fd, stopFD: core.stopFD, timeoutMilliseconds: 200) == .readable,
              let bytes = Socket.receive(fd) {
            dropped += bytes.count
        }
    }

    /// Sends the response, carrying out timing faults. `false` when the connection must end.
    private func send(_ plan: ResponsePlan, fault: LoopbackHTTPServer.Fault?) -> Bool {
        if case .delay(let seconds) = fault, !pause(milliseconds: Int(seconds * 1000)) { return false }
        if fault == .closeConnection { return false }
        let length = plan.sendBody ? plan.bodyLength : 0
        switch fault {
        case .truncate(let count)? where plan.sendBody:
            _ = send(head: plan.head, plan: plan, length: min(count, length))
            return false
        case .stallAfter(let count)? where plan.sendBody:
            guard send(head: plan.head, plan: plan, length: min(count, length)) else { return false }
            _ = pause(milliseconds: -1)
            return false
        case .redirect(let location)?:
            let head = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n"
            return Socket.sendAll(fd, Array(head.utf8)[...])
        default:
            return send(head: plan.head, plan: plan, length: length)
        }
    }

    /// Bytes of a body sent at once when no link paces it (a body in a file is read this much at a time).
    static let unpacedPieceBytes = 256 << 10

    /// Sends a head and the first `length` bytes of the plan's body: at once, or paced by the server's link
    /// when it has one; a body in a file is read piece by piece as it goes. `false` when the peer went away
    /// or the server stopped.
    private func send(head: [UInt8], plan: ResponsePlan, length: Int) -> Bool {
        let shaper = core.state.withLock { $0.shaper }
        if shaper == nil, plan.fileRegion == nil { return Socket.sendAll(fd, (head + plan.body.prefix(length))[...]) }
        guard Socket.sendAll(fd, head[...]) else { return false }
        var offset = 0
        while offset < length {
            let piece = min(length - offset, shaper?.chunkSize() ?? Self.unpacedPieceBytes)
            if let shaper, !pause(until: shaper.reserve(bytes: piece)) { return false }
            let bytes = plan.bodyBytes(from: offset, count: piece)
            // A file that shrank under the answer: the connection ends short of its Content-Length.
            guard !bytes.isEmpty, Socket.sendAll(fd, bytes[...]) else { return false }
            offset += bytes.count
        }
        return true
    }

    /// Waits until `deadline` (at once if it has passed). `false` if the client hung up or the server
    /// stopped meanwhile.
    private func pause(until deadline: ContinuousClock.Instant) -> Bool {
        let remaining = deadline - .now
        guard remaining > .zero else { return true }
        // Rounded up to whole milliseconds, so the wait never ends before the deadline.
        let milliseconds = Int(remaining.components.seconds) * 1000
            + Int((remaining.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        return pause(milliseconds: milliseconds)
    }

    /// Waits `milliseconds` (-1: without limit). Returns `false` if the client hung up or the server
    /// stopped meanwhile. Data the client sends meanwhile (a pipelined request) stays unread.
    private func pause(milliseconds: Int) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        func left() -> Int {
            guard milliseconds >= 0 else { return -1 }
            let remaining = deadline - .now
            return max(0, Int(remaining.components.seconds) * 1000 + Int(remaining.components.attoseconds / 1_000_000_000_000_000))
        }
        switch Socket.wait(forReadable: fd, stopFD: core.stopFD, timeoutMilliseconds: left()) {
        case .timedOut: return true
        case .stopped: return false
        case .readable:
            if Socket.peerClosed(fd) { return false }
            // A pipelined request is waiting; leave it unread and watch only the stop pipe.
            return Socket.wait(forReadable: core.stopFD, stopFD: core.stopFD, timeoutMilliseconds: left()) == .timedOut
        }
    }
}
