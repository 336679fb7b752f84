import CCurl
import CPlayheadShims
import Foundation

/// The thread-safe front of the multi thread: a lock-protected command queue, the wake-up call, and the
/// shutdown hand-shake. The multi handle itself belongs to the ``MultiWorker`` on the dedicated thread;
/// other threads only ever call `curl_multi_wakeup` on it, under the lock and only while it is alive.
final class CurlMultiLoop: Sendable {
    /// Work for the multi thread.
    enum Command {
        /// Hand the transfer to libcurl.
        case start(TransferTicket)
        /// Abort the transfer if it is under way.
        case cancel(TransferTicket)
    }

    private enum Phase { case running, stopping, stopped }

    private struct Shared {
        var commands: [Command] = []
        var phase = Phase.running
    }

    /// A `CURLM *`, sendable because only `curl_multi_wakeup` (thread-safe) is called from other threads.
    private struct MultiHandle: @unchecked Sendable { let raw: UnsafeMutableRawPointer }

    private let shared = Locked(Shared())
    private let multi: MultiHandle
    private let done = DispatchGroup()
    private let threadID = Locked<ObjectIdentifier?>(nil)

    init(configuration: HTTPClientConfiguration) {
        CurlGlobal.ensureInitialized()
        multi = MultiHandle(raw: curl_multi_init())
        done.enter()
        let thread = Thread { [self, multi] in
            threadID.withLock { $0 = ObjectIdentifier(Thread.current) }
            MultiWorker(multi: multi.raw, loop: self, configuration: configuration).run()
            curl_multi_cleanup(multi.raw)
            done.leave()
        }
        thread.name = "playhead.curl-multi"
        thread.start()
    }

    /// Queues a transfer. Returns `false` when the loop has shut down (the ticket is left untouched).
    func submit(_ ticket: TransferTicket) -> Bool {
        shared.withLock { shared in
            guard shared.phase == .running else { return false }
            shared.commands.append(.start(ticket))
            curl_multi_wakeup(multi.raw)
            return true
        }
    }

    /// Flags the ticket cancelled and asks the multi thread to abort it. After shutdown the ticket is
    /// completed here.
    func cancel(_ ticket: TransferTicket) {
        guard ticket.markCancelled() else { return }
        let queued = shared.withLock { shared in
            guard shared.phase != .stopped else { return false }
            shared.commands.append(.cancel(ticket))
            curl_multi_wakeup(multi.raw)
            return true
        }
        if !queued { ticket.complete(.failure(.cancelled(url: ticket.url))) }
    }

    /// Takes the queued commands (called by the worker). `isStopping` tells the worker to wind down.
    func takeCommands() -> (commands: [Command], isStopping: Bool) {
        shared.withLock { shared in
            defer { shared.commands = [] }
            return (shared.commands, shared.phase != .running)
        }
    }

    /// Marks the loop stopped and returns commands that arrived meanwhile (called by the worker last,
    /// before it cleans up the multi handle; no wake-up can reach the handle after this).
    func markStopped() -> [Command] {
        shared.withLock { shared in
            shared.phase = .stopped
            defer { shared.commands = [] }
            return shared.commands
        }
    }

    /// Stops the thread: transfers under way fail with ``HTTPError/cancelled(url:)``. Blocks until the
    /// thread has released every libcurl handle, unless called on that thread itself. Idempotent.
    func shutdown() {
        shared.withLock { shared in
            guard shared.phase == .running else { return }
            shared.phase = .stopping
            curl_multi_wakeup(multi.raw)
        }
        let onLoopThread = threadID.withLock { $0 == ObjectIdentifier(Thread.current) }
        if !onLoopThread { done.wait() }
    }
}

/// `curl_global_init`, run once per process before the first handle is made.
enum CurlGlobal {
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// Initializes libcurl if nobody has yet.
    static func ensureInitialized() { _ = initialized }
}
