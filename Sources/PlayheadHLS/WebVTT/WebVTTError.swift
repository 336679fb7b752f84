/// Why a text is not a WebVTT file at all. Only a missing or malformed `WEBVTT` signature is
/// fatal; every other problem is a ``WebVTTIssue`` in the parsed document.
public struct WebVTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem (always 1 for a missing signature).
    public var line: Int
    /// What is wrong.
    public var message: String

    /// An error at a 1-based line.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`, e.g. `line 1: missing WEBVTT signature`.
    public var description: String { "line \(line): \(message)" }
}
