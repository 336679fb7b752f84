/// The largest values the parser accepts. RFC 8216bis allows integers up to 2^64 − 1 and sets no
/// bound on durations; a player computes positions in doubles and sequence numbers and byte offsets in
/// `Int`, so larger values would be rounded or overflow. Beyond these limits a playlist is rejected
/// with ``PlaylistParseError/valueOutOfRange(line:column:tag:text:limit:)``, naming the line.
public enum PlaylistLimits {
    /// Media and discontinuity sequence numbers, target durations, byte-range lengths and offsets (and
    /// the end of a byte range): 2^53 − 1, the largest integer a double holds exactly.
    public static let maxInteger = (1 << 53) - 1
    /// An EXTINF duration: 10^9 s (about 32 years).
    public static let maxSegmentSeconds = 1e9
}
