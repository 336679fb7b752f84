import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CPlayheadShims

/// The process's resident memory and CPU time, read from `/proc/self` (Linux; zeros elsewhere).
public struct ProcessStats: Sendable, Equatable {
    /// Resident set size, bytes.
    public var residentBytes: Int
    /// User plus system CPU time since the process started, seconds.
    public var cpuSeconds: Double

    /// Reads the figures now.
    public static func current() -> ProcessStats {
        ProcessStats(residentBytes: residentBytes(), cpuSeconds: cpuSeconds())
    }

    /// Hands the allocator's free memory back to the system (glibc `malloc_trim(0)`), so resident
    /// memory measures what is in use rather than what the allocator keeps cached in its arenas. The
    /// daemon and the soak runner call it before each memory sample; `PLAYHEAD_MALLOC_TRIM=0` turns it off.
    @discardableResult
    public static func releaseFreeMemory() -> Bool {
        guard ProcessInfo.processInfo.environment["PLAYHEAD_MALLOC_TRIM"] != "0" else { return false }
        return ph_malloc_trim() == 1
    }

    /// VmRSS from `/proc/self/statm` (second field, pages).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// utime + stime from `/proc/self/stat` (fields 14 and 15, clock ticks), read after the `)` that ends
    /// the command name (which may hold spaces).
    static func cpuSeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
