import Foundation
import PlayheadCore
import Synchronization

/// Stops a playback session (or any long piece of work) on SIGINT or SIGTERM instead of letting the
/// signal end the process, so that the report, events and frame outputs recorded so far are still
/// written. A second signal of either kind ends the process at once, as the default handler would.
///
/// The handlers are installed with `sigaction` before `init` returns (a signal that comes a moment later
/// is caught, also when the process was started with the signals ignored, as a background job of a
/// script is); they write the signal's number to a pipe, which a thread reads and hands on.
///
/// `@unchecked Sendable`: what the handlers share is behind the mutex.
final class SignalStop: @unchecked Sendable {
    private let signal = Mutex<Int32?>(nil)
    private let what: String
    private let stop: @Sendable () -> Void

    /// The signal that stopped the session, if one did.
    var received: Int32? { signal.withLock { $0 } }

    /// Starts catching SIGINT and SIGTERM for `player`: the first one stops the session.
    convenience init(player: MediaPlayer) {
        self.init(what: "the session") { player.stop() }
    }

    /// Starts catching SIGINT and SIGTERM: the first one says it stops `what` and calls `stop`.
    init(what: String, stop: @escaping @Sendable () -> Void) {
        self.what = what
        self.stop = stop
        SignalPipe.install(self)
    }

    /// A signal arrived while this stopper was the one in charge.
    fileprivate func deliver(_ number: Int32) {
        let first = signal.withLock { value -> Bool in
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

    /// Stops catching: the default handlers are back.
    func cancel() {
        SignalPipe.remove(self)
    }
}

/// The write end of the signal pipe, for the handler (set once, before any handler is installed).
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// The process's one signal pipe: the handlers write to it; a thread reads it and hands each signal to the
/// SignalStop installed last.
private enum SignalPipe {
    private static let state = Mutex<(readFD: Int32, current: SignalStop?)>((-1, nil))

    static func install(_ stopper: SignalStop) {
        state.withLock { state in
            if state.readFD < 0 {
                var fds: [Int32] = [-1, -1]
                guard pipe(&fds) == 0 else { return }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                state.readFD = fds[0]
                signalPipeWriteFD = fds[1]
                let readFD = fds[0]
                Thread.detachNewThread { readLoop(readFD) }
            }
            state.current = stopper
        }
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteFD, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    static func remove(_ stopper: SignalStop) {
        let wasCurrent = state.withLock { state -> Bool in
            guard state.current === stopper else { return false }
            state.current = nil
            return true
        }
        if wasCurrent { for number in [SIGINT, SIGTERM] { Foundation.signal(number, SIG_DFL) } }
    }

    private static func readLoop(_ fd: Int32) {
        var byte: UInt8 = 0
        while true {
            let got = read(fd, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else { return }
            let number = Int32(byte)
            if let stopper = state.withLock({ $0.current }) {
                stopper.deliver(number)
            } else {
                // Nobody is catching it any more: what the default handler would do.
                Foundation.signal(number, SIG_DFL)
                kill(getpid(), number)
            }
        }
    }
}
