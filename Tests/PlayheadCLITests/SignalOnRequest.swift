import Foundation
import PlayheadOrigin
import PlayheadTestFixtures
#if canImport(Glibc)
import Glibc
#endif

extension TestProcess {
    /// Starts the child and sends it `signal` as soon as `server` logs a request for `path`, from the server's
    /// own thread. A test that awaited the request on Swift's cooperative pool (two threads on this machine)
    /// could resume long after it, behind CPU-heavy tests, and signal a child that had already finished: the
    /// CI failure of the queue's lookups test (exit 1 after 57 s, the lookups' timeouts run out).
    func run(signalling signal: Int32, once server: LoopbackHTTPServer, asks path: String) throws {
        let trigger = SignalTrigger(signal: signal)
        server.setRequestObserver { record in
            if record.path == path { trigger.asked() }
        }
        try run()
        trigger.started(processIdentifier)
    }
}

/// Sends one signal to a child once both its process id is known and the awaited request has come, in
/// whichever order the two happen.
private final class SignalTrigger: @unchecked Sendable {
    private let lock = NSLock()
    private let signal: Int32
    private var processIdentifier: Int32 = 0
    private var wasAsked = false
    private var sent = false

    init(signal: Int32) { self.signal = signal }

    func asked() { fire { $0.wasAsked = true } }

    func started(_ pid: Int32) { fire { $0.processIdentifier = pid } }

    private func fire(_ update: (SignalTrigger) -> Void) {
        let target: Int32 = lock.withLock {
            update(self)
            guard wasAsked, processIdentifier > 0, !sent else { return 0 }
            sent = true
            return processIdentifier
        }
        if target > 0 { kill(target, signal) }
    }
}
