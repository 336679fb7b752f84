import Foundation

/// A value guarded by a lock. Every piece of state PlayheadNet shares between threads goes through one,
/// and so does that of the modules above it in this package (the ad resolver and beacon tracker).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Guards `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value. Keep the body short and never block in it.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Duration {
    /// The duration in seconds as a `Double` (for libcurl options and error reports).
    public var secondsDouble: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded up so that a tiny positive duration never becomes zero.
    var millisecondsRoundedUp: Int {
        let ms = secondsDouble * 1000
        return ms <= 0 ? 0 : Int(ms.rounded(.up))
    }
}
