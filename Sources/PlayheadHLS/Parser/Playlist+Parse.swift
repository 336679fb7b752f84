extension Playlist {
    /// Parses a playlist from text.
    ///
    /// - Parameters:
    ///   - text: the whole playlist.
    ///   - sources: where EXT-X-DEFINE `IMPORT` and `QUERYPARAM` take their values (unknown by default:
    ///     such definitions are kept without a value and warned).
    /// - Returns: the playlist and the warnings found.
    /// - Throws: ``PlaylistParseError`` with line and column (also for an `IMPORT` or `QUERYPARAM` that a
    ///   known source lacks).
    public static func parse(_ text: String, sources: VariableSources = VariableSources())
        throws(PlaylistParseError) -> ParsedPlaylist {
        guard hasHeader(text) else { throw .missingHeader(line: 1, column: 1) }
        var copy = text
        let problem: (InputValidation.Problem, Int, Int)? = copy.withUTF8 { buf in
            guard let p = InputValidation.firstProblem(in: buf) else { return nil }
            let pos = InputValidation.position(of: p.offset, in: buf)
            return (p, pos.line, pos.column)
        }
        if let (p, line, column) = problem {
            throw p.isNUL ? .binaryData(line: line, column: column) : .invalidUTF8(line: line, column: column)
        }
        var parser = PlaylistParser(text: text, sources: sources)
        return try parser.run()
    }

    /// Parses a playlist from bytes, validating UTF-8 first.
    ///
    /// Garbage fails fast: when the first line is not `#EXTM3U` the error is thrown before the
    /// rest of the input is looked at.
    /// - Parameters:
    ///   - data: the playlist bytes (a UTF-8 byte-order mark is skipped).
    ///   - sources: where EXT-X-DEFINE `IMPORT` and `QUERYPARAM` take their values (unknown by default:
    ///     such definitions are kept without a value and warned).
    /// - Throws: ``PlaylistParseError``: missing header, invalid UTF-8, NUL byte, or a syntax error.
    public static func parse(data: [UInt8], sources: VariableSources = VariableSources())
        throws(PlaylistParseError) -> ParsedPlaylist {
        let checked: Result<String, PlaylistParseError> = data.withUnsafeBufferPointer { buf in
            guard InputValidation.headerOffset(in: buf) != nil else {
                return .failure(.missingHeader(line: 1, column: 1))
            }
            if let p = InputValidation.firstProblem(in: buf) {
                let pos = InputValidation.position(of: p.offset, in: buf)
                return .failure(p.isNUL ? .binaryData(line: pos.line, column: pos.column)
                                        : .invalidUTF8(line: pos.line, column: pos.column))
            }
            return .success(String(decoding: buf, as: UTF8.self))
        }
        let text = try checked.get()
        var parser = PlaylistParser(text: text, sources: sources)
        return try parser.run()
    }

    static func hasHeader(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { InputValidation.headerOffset(in: $0) != nil }
    }
}
