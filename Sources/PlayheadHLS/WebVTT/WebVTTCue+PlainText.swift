extension WebVTTCue {
    /// The cue text as plain text: tags (`<b>`, `<v Roger>`, `<00:01.000>`…) removed and the
    /// character references `&amp;` `&lt;` `&gt;` `&lrm;` `&rlm;` `&nbsp;` and numeric ones
    /// (`&#38;`, `&#x26;`) decoded. Other `&` sequences are kept as written; lines stay
    /// separated by `"\n"`.
    public var plainText: String { WebVTTCueText.plainText(text) }
}

/// Reading WebVTT cue text markup.
enum WebVTTCueText {
    static let namedReferences: [String: Unicode.Scalar] = [
        "amp": "&", "lt": "<", "gt": ">", "lrm": "\u{200E}", "rlm": "\u{200F}", "nbsp": "\u{00A0}",
    ]

    /// Removes tags and decodes character references, as described at ``WebVTTCue/plainText``.
    static func plainText(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                // A tag runs to the next `>` (or to the end of the text, like the tokenizer).
                while index < scalars.count, scalars[index] != ">" { index += 1 }
                index += 1
            } else if scalar == "&", let (decoded, length) = reference(scalars, at: index) {
                out.append(decoded)
                index += length
            } else {
                out.append(scalar)
                index += 1
            }
        }
        return String(out)
    }

    /// The character a reference starting at `start` (an `&`) stands for, and its length.
    static func reference(_ scalars: [Unicode.Scalar], at start: Int) -> (Unicode.Scalar, Int)? {
        var index = start + 1
        if index < scalars.count, scalars[index] == "#" {
            index += 1
            var radix = 10
            if index < scalars.count, scalars[index] == "x" || scalars[index] == "X" {
                radix = 16
                index += 1
            }
            let digitsStart = index
            var value: UInt32 = 0
            while index < scalars.count, let digit = Character(scalars[index]).hexDigitValue, digit < radix {
                value = min(value &* UInt32(radix) &+ UInt32(digit), 0x11_0000)
                index += 1
            }
            guard index > digitsStart else { return nil }
            if index < scalars.count, scalars[index] == ";" { index += 1 }
            let decoded = value == 0 ? nil : Unicode.Scalar(value)
            return (decoded ?? "\u{FFFD}", index - start)
        }
        var name = ""
        while index < scalars.count, scalars[index].properties.isAlphabetic, scalars[index].isASCII {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard index < scalars.count, scalars[index] == ";", let decoded = namedReferences[name] else { return nil }
        return (decoded, index + 1 - start)
    }
}
