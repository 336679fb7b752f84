/// A byte range to fetch: `length` bytes from `offset`, or everything from `offset` when `length` is `nil`.
///
/// Maps to HTTP `Range: bytes=offset-(offset+length-1)` (or `bytes=offset-`), and to EXT-X-BYTERANGE.
public struct ByteRangeRequest: Sendable, Hashable, CustomStringConvertible {
    /// First byte wanted, counted from 0.
    public var offset: Int
    /// Number of bytes wanted; `nil` for "to the end of the resource".
    public var length: Int?

    /// Creates a range of `length` bytes from `offset` (to the end when `length` is `nil`).
    public init(offset: Int, length: Int? = nil) {
        self.offset = offset
        self.length = length
    }

    /// The last byte wanted (inclusive), or `nil` for an open-ended range.
    /// (`Int.max` when the sum would overflow; such a range is not ``isValid``.)
    public var lastByte: Int? { length.map { let (last, overflow) = offset.addingReportingOverflow($0 - 1); return overflow ? .max : last } }

    /// Whether the range can be asked for: `offset >= 0` and, if given, `length > 0` with the last byte
    /// within `Int`.
    public var isValid: Bool { offset >= 0 && (length.map { $0 > 0 && !offset.addingReportingOverflow($0 - 1).overflow } ?? true) }

    /// The `first-last` form libcurl's `CURLOPT_RANGE` takes (`"100-199"`, `"100-"`).
    var curlRange: String { "\(offset)-\(lastByte.map(String.init) ?? "")" }

    /// The HTTP form, as in `bytes=100-199`.
    public var description: String { "bytes=\(curlRange)" }
}
