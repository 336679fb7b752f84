import Foundation

/// One version of a regular file, as `stat(2)` gives it, and the validators the origin derives from it:
/// an entity tag and a Last-Modified date (RFC 9110 §8.8).
struct FileVersion: Equatable {
    /// Size in bytes.
    var size: Int
    /// The inode number: a file replaced by a rename is a new version even with the same size and time.
    var inode: UInt64
    /// Modification time, whole seconds since 1970.
    var modifiedSeconds: Int
    /// Modification time, the nanoseconds after ``modifiedSeconds``.
    var modifiedNanoseconds: Int

    /// The version of the regular file at `path` (symbolic links followed); nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }

    /// A strong entity tag from inode, size and modification time (to the nanosecond), in hex, e.g.
    /// `"1a2b-a-3b9aca00.0"`. A rewrite that keeps all three (same size, within one tick of the file
    /// system's clock) would keep the tag, as with Apache's default tags.
    var entityTag: String {
        "\"\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(modifiedSeconds, radix: 16)).\(String(modifiedNanoseconds, radix: 16))\""
    }

    /// The modification time as an HTTP-date (IMF-fixdate, RFC 9110 §5.6.7), e.g.
    /// `Sun, 09 Sep 2001 01:46:40 GMT`.
    var lastModified: String { Self.httpDate(secondsSince1970: modifiedSeconds) }

    /// Whether an `If-Range` value names this version (RFC 9110 §13.1.5). An entity tag matches by strong
    /// comparison (a weak tag, `W/"…"`, never does); a date only when it is exactly ``lastModified`` and
    /// the file was last changed at least a second before `now`, else two versions within one second
    /// would share it (§8.8.2.2: such a date is not a strong validator).
    func matches(ifRange value: String, now: Date) -> Bool {
        let value = value.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\"") || value.hasPrefix("W/") { return value == entityTag }
        return value == lastModified && now.timeIntervalSince1970 >= Double(modifiedSeconds + 1)
    }

    /// `seconds` since 1970 as an IMF-fixdate.
    static func httpDate(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(1900 + Int(parts.tm_year)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
