import Foundation

/// An exclusive advisory lock (`flock`) on a folder, held while the value lives: two processes that
/// write the same folder (two downloads into one folder, two daemons on one data folder) refuse each
/// other instead of interleaving their writes. The lock is on the folder itself, so it leaves no file
/// behind, and the system drops it when the process ends, however it ends.
public final class DirectoryLock: Sendable {
    /// Why the folder could not be locked.
    public enum Failure: Error, Sendable, Equatable {
        /// Another process holds the lock.
        case busy
        /// The folder could not be opened or locked: the system's words.
        case system(String)
    }

    private let descriptor: Int32

    /// Locks the existing folder `path`.
    /// - Throws: ``Failure/busy`` when another process holds it, ``Failure/system(_:)`` otherwise.
    public init(path: String) throws(Failure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .system("cannot open: \(String(cString: strerror(errno)))") }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let failure: Failure = errno == EWOULDBLOCK ? .busy : .system("cannot lock: \(String(cString: strerror(errno)))")
            close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
