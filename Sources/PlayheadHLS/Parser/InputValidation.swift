/// Checks raw bytes before they are turned into a String: UTF-8 validity and NUL bytes.
enum InputValidation {
    /// The position of a problem in the input.
    struct Problem {
        /// Byte offset of the offending byte.
        var offset: Int
        /// True for a NUL byte, false for invalid UTF-8.
        var isNUL: Bool
    }

    /// Returns the first NUL byte or invalid UTF-8 sequence, or nil when the input is clean.
    static func firstProblem(in bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0 { return Problem(offset: i, isNUL: true) }
            if b < 0x80 { i += 1; continue }
            let length: Int
            var minScalar: UInt32
            var scalar: UInt32
            switch b {
            case 0xC2...0xDF: length = 2; scalar = UInt32(b & 0x1F); minScalar = 0x80
            case 0xE0...0xEF: length = 3; scalar = UInt32(b & 0x0F); minScalar = 0x800
            case 0xF0...0xF4: length = 4; scalar = UInt32(b & 0x07); minScalar = 0x10000
            default: return Problem(offset: i, isNUL: false)
            }
            guard i + length <= n else { return Problem(offset: i, isNUL: false) }
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return Problem(offset: i, isNUL: false) }
                scalar = scalar << 6 | UInt32(c & 0x3F)
            }
            if scalar < minScalar || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) {
                return Problem(offset: i, isNUL: false)
            }
            minScalar = 0
            i += length
        }
        return nil
    }

    /// 1-based line and column (in bytes) of a byte offset; lines end at LF, CRLF or a lone CR, as
    /// the parser splits them.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
            line += 1
            lineStart = i + 1
        }
        return (line, offset - lineStart + 1)
    }

    /// True when the first line (after an optional byte-order mark) is `#EXTM3U`, possibly
    /// followed by spaces; or when only blank lines and comments come before it. Lines end at LF,
    /// CRLF or a lone CR.
    static func headerOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        let header: [UInt8] = Array("#EXTM3U".utf8)
        while i < bytes.count {
            var end = i
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            let line = UnsafeBufferPointer(rebasing: bytes[i..<end])
            if line.starts(with: header) {
                let rest = line.dropFirst(header.count)
                if rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return i }
                return nil
            }
            let isBlank = line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
            let isComment = line.first == UInt8(ascii: "#") && !line.starts(with: Array("#EXT".utf8))
            guard isBlank || isComment else { return nil }
            i = end + 1
            if end < bytes.count, bytes[end] == 0x0D, i < bytes.count, bytes[i] == 0x0A { i += 1 }  // CRLF
        }
        return nil
    }
}
