import CCurl
import CPlayheadShims

/// The body of the multi thread. Owns the multi handle, the pool of idle easy handles and every active
/// ``TransferBox``; lives and dies on that one thread, so needs no locks of its own.
///
/// Each turn: take queued commands, let libcurl move data (`curl_multi_perform`), collect finished
/// transfers, enforce the first-byte, stall and total deadlines, then sleep in `curl_multi_poll` until a socket
/// is ready, libcurl's own timer or the nearest deadline is due, or ``CurlMultiLoop`` wakes it.
final class MultiWorker {
    /// Longest sleep in `curl_multi_poll` when nothing is due sooner: 1000 ms.
    static let maxPollMilliseconds = 1000

    private let multi: UnsafeMutableRawPointer
    private let loop: CurlMultiLoop
    private let configuration: HTTPClientConfiguration
    private var active: [UnsafeMutableRawPointer: TransferBox] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []

    init(multi: UnsafeMutableRawPointer, loop: CurlMultiLoop, configuration: HTTPClientConfiguration) {
        self.multi = multi
        self.loop = loop
        self.configuration = configuration
        _ = ph_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
    }

    /// Runs until the loop is shut down, then fails what is left and frees every easy handle.
    func run() {
        while true {
            let (commands, isStopping) = loop.takeCommands()
            if isStopping {
                windDown(commands + loop.markStopped())
                return
            }
            commands.forEach(handle)
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            collectFinished()
            enforceDeadlines(now: .now)
            _ = curl_multi_poll(multi, nil, 0, Int32(pollTimeoutMilliseconds(now: .now)), nil)
        }
    }

    private func handle(_ command: CurlMultiLoop.Command) {
        switch command {
        case .start(let ticket): start(ticket)
        case .cancel(let ticket):
            if let box = active.values.first(where: { $0.ticket === ticket }) {
                finish(box, with: .failure(.cancelled(url: ticket.url)))
            }
        }
    }

    private func start(_ ticket: TransferTicket) {
        if ticket.isCancelled { return ticket.complete(.failure(.cancelled(url: ticket.url))) }
        guard let easy = idleHandles.popLast() ?? curl_easy_init() else {
            return ticket.complete(.failure(.transport(
                url: ticket.url, curlCode: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "curl_easy_init failed")))
        }
        let box = TransferBox(ticket: ticket, easy: easy, configuration: configuration)
        if let failure = box.configure(configuration) {
            recycle(easy)
            return ticket.complete(.failure(failure))
        }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            recycle(easy)
            return ticket.complete(.failure(.transport(
                url: ticket.url, curlCode: Int(added.rawValue),
                message: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(added)))")))
        }
        active[easy] = box
    }

    private func collectFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let box = active[easy] else { continue }
            let code = message.pointee.data.result
            finish(box, with: box.result(code: code, configuration: configuration))
        }
    }

    private func enforceDeadlines(now: ContinuousClock.Instant) {
        for box in Array(active.values) {
            if let deadline = box.totalDeadline, now >= deadline, let limit = configuration.totalTimeout {
                finish(box, with: .failure(.timeout(url: box.ticket.url, phase: .total, after: limit.secondsDouble)))
            } else if let deadline = box.firstByteDeadline, now >= deadline, box.receivedBytes == 0,
                      let limit = configuration.firstByteTimeout {
                finish(box, with: .failure(.timeout(url: box.ticket.url, phase: .firstByte, after: limit.secondsDouble)))
            } else if let last = box.lastByteAt, let limit = configuration.stallTimeout, now >= last + limit {
                finish(box, with: .failure(.timeout(url: box.ticket.url, phase: .stall, after: limit.secondsDouble)))
            }
        }
    }

    private func pollTimeoutMilliseconds(now: ContinuousClock.Instant) -> Int {
        var nearest = Self.maxPollMilliseconds
        for box in active.values {
            let stallDeadline = configuration.stallTimeout.flatMap { limit in box.lastByteAt.map { $0 + limit } }
            for deadline in [box.totalDeadline, box.receivedBytes == 0 ? box.firstByteDeadline : nil, stallDeadline].compactMap({ $0 }) {
                nearest = min(nearest, (deadline - now).millisecondsRoundedUp)
            }
        }
        return max(0, nearest)
    }

    /// Detaches the transfer from libcurl, returns its handle to the pool, and completes its ticket.
    private func finish(_ box: TransferBox, with result: Result<HTTPResponse, HTTPError>) {
        _ = curl_multi_remove_handle(multi, box.easy)
        active[box.easy] = nil
        recycle(box.easy)
        box.ticket.complete(result)
    }

    private func recycle(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        if idleHandles.count < configuration.maxPooledHandles {
            idleHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    private func windDown(_ leftover: [CurlMultiLoop.Command]) {
        for box in Array(active.values) { finish(box, with: .failure(.cancelled(url: box.ticket.url))) }
        for command in leftover {
            if case .start(let ticket) = command { ticket.complete(.failure(.cancelled(url: ticket.url))) }
        }
        idleHandles.forEach { curl_easy_cleanup($0) }
        idleHandles = []
    }
}
