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
            guard discardBody(of: request) else {
                _ = send(.text(413, "request bodies are not accepted", closeAfter: true), fault: nil)
                return
            }
            let receivedAt = Date()
            let fault = core.fault(for: request.path)
            let plan = plan(for: request, fault: fault)
            core.log(LoopbackHTTPServer.RequestRecord(
                method: request.method, path: request.path, query: request.query, receivedAt: receivedAt,
                rangeHeader: request.headers["range"], acceptEncoding: request.headers["accept-encoding"],
                status: fault == .closeConnection ? 0 : plan.status, connectionID: id, fault: fault))
            guard send(plan, fault: fault), !plan.closeAfter else { return }
        }
    }

    /// The responder's answer unless a status fault overrides it, else the file system's.
    private func plan(for request: HTTPRequestHead, fault: LoopbackHTTPServer.Fault?) -> ResponsePlan {
        if case .status = fault {} else if let responder = core.responder, let plan = responder(request, core) {
            return plan
        }
        return ResponsePlan.make(for: request, root: core.root, fault: fault)
    }

    /// Reads up to the blank line ending a request head. `nil` when the connection should end.
    private mutating func readHead() -> HTTPRequestHead? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = buffer.firstRange(of: terminator) {
                let head = HTTPRequestHead.parse(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                guard let head else {
                    _ = send(.text(400, "malformed request", closeAfter: true), fault: nil)
                    return nil
                }
                return head
            }
            if buffer.count > Self.maxHeadBytes {
                _ = send(.text(431, "request head over \(Self.maxHeadBytes) bytes", closeAfter: true), fault: nil)
                return nil
            }
            guard Socket.wait(forReadable: fd, stopFD: core.stopFD, timeoutMilliseconds: core.idleTimeoutMilliseconds) == .readable,
                  let bytes = Socket.receive(fd) else { return nil }
            buffer += bytes
        }
    }

    /// Reads and drops a `Content-Length` body. `false` when it is too large, chunked, or cut short.
    private mutating func discardBody(of request: HTTPRequestHead) -> Bool {
        if request.headers["transfer-encoding"] != nil { return false }
        guard let length = Int(request.headers["content-length"] ?? "0"), length >= 0,
              length <= Self.maxDiscardedBodyBytes else { return false }
        while buffer.count < length {
            guard Socket.wait(forReadable: fd, stopFD: core.stopFD, timeoutMilliseconds: core.idleTimeoutMilliseconds) == .readable,
                  let bytes = Socket.receive(fd) else { return false }
            buffer += bytes
        }
        buffer.removeSubrange(..<length)
        return true
    }

    /// Sends the response, carrying out timing faults. `false` when the connection must end.
    private func send(_ plan: ResponsePlan, fault: LoopbackHTTPServer.Fault?) -> Bool {
        if case .delay(let seconds) = fault, !pause(milliseconds: Int(seconds * 1000)) { return false }
        if fault == .closeConnection { return false }
        let body = plan.sendBody ? plan.body[...] : []
        switch fault {
        case .truncate(let count)? where plan.sendBody:
            _ = Socket.sendAll(fd, (plan.head + body.prefix(count))[...])
            return false
        case .stallAfter(let count)? where plan.sendBody:
            guard Socket.sendAll(fd, (plan.head + body.prefix(count))[...]) else { return false }
            _ = pause(milliseconds: -1)
            return false
        default:
            return Socket.sendAll(fd, (plan.head + body)[...])
        }
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
