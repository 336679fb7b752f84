import Dispatch
import Foundation
import PlayheadCore
import Synchronization

/// Stops a playback session (or any long piece of work) on SIGINT or SIGTERM instead of letting the
/// signal end the process, so that the report, events and frame outputs recorded so far are still
/// written. A second signal of either kind ends the process at once, as the default handler would.
///
/// `@unchecked Sendable`: the signal sources are touched only by `init` and `cancel()` on the caller's
/// task; what the handlers share is behind the mutex.
final class SignalStop: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let signal = Mutex<Int32?>(nil)

    /// The signal that stopped the session, if one did.
    var received: Int32? { signal.withLock { $0 } }

    /// Starts catching SIGINT and SIGTERM for `player`: the first one stops the session.
    convenience init(player: MediaPlayer) {
        self.init(what: "the session") { player.stop() }
    }

    /// Starts catching SIGINT and SIGTERM: the first one says it stops `what` and calls `stop`.
    init(what: String, stop: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            Foundation.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            sources.append(source)
        }
        self.sources = sources
        for (source, number) in zip(sources, [SIGINT, SIGTERM]) {
            source.setEventHandler { [self] in
                let first = self.signal.withLock { value -> Bool in
                    defer { if value == nil { value = number } }
                    return value == nil
                }
                guard first else {
                    Foundation.signal(number, SIG_DFL)
                    kill(getpid(), number)
                    return
                }
                FileHandle.standardError.write(Data("\nplayhead: \(number == SIGINT ? "SIGINT" : "SIGTERM"): stopping \(what) (again to quit at once)\n".utf8))
                stop()
            }
            source.resume()
        }
    }

    /// Stops catching: the default handlers are back.
    func cancel() {
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM] { Foundation.signal(number, SIG_DFL) }
    }
}
