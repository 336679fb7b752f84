import Foundation

/// RFC 2397 `data:` URLs (`data:[<media type>][;base64],<data>`), which a playlist may give as a key's URI
/// (`data:text/plain;base64,…`): their bytes are decoded here, not fetched.
enum DataURL {
    /// Whether `url` is a `data:` URL.
    static func isDataURL(_ url: String) -> Bool { url.prefix(5).lowercased() == "data:" }

    /// The bytes a `data:` URL holds: its data base64-decoded (padding may be left out; whitespace and
    /// percent-escapes are allowed) or percent-decoded.
    /// - Throws: `PlayheadError.unsupported` naming the URL (cut short) and what does not decode.
    static func bytes(_ url: String) throws(PlayheadError) -> [UInt8] {
        let shown = url.count > 80 ? String(url.prefix(77)) + "…" : url
        guard let comma = url.firstIndex(of: ",") else {
            throw .unsupported(url: shown, detail: "a data: URL without the comma before its data")
        }
        let header = url[url.index(url.startIndex, offsetBy: 5)..<comma]
        guard let payload = percentDecoded(url[url.index(after: comma)...]) else {
            throw .unsupported(url: shown, detail: "the data: URL has a % not followed by two hexadecimal digits")
        }
        guard header.split(separator: ";").contains(where: { $0.lowercased() == "base64" }) else { return payload }
        var text = String(decoding: payload.filter { !$0.isASCIIWhitespace }, as: UTF8.self)
        if text.count % 4 != 0 { text += String(repeating: "=", count: 4 - text.count % 4) }
        guard let data = Data(base64Encoded: text) else {
            throw .unsupported(url: shown, detail: "the data: URL's base64 data does not decode")
        }
        return [UInt8](data)
    }

    /// The bytes of `text` with its %XX escapes decoded; nil when a % is not followed by two hex digits.
    private static func percentDecoded(_ text: Substring) -> [UInt8]? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

private extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
