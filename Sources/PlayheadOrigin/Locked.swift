import Foundation

/// A value guarded by a lock; all of the server's shared state goes through one. (PlayheadNet has the
/// same type for the modules above it; this module depends on nothing, so it keeps its own.)
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Keep the body short and never block in it.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
