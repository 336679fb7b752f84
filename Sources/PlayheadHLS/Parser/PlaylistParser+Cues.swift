/// Ad cue tags outside the RFC (kept as unknown tags; the player's cue detector reads them): their
/// values are checked here so that `inspect` names what the detector cannot read.
extension PlaylistParser {
    /// Warns about an `#EXT-X-CUE-OUT` whose duration (`DURATION=`/`Duration=` attribute, or a bare
    /// leading number such as `30.000`) is not a number of seconds: the break is still detected,
    /// without a length.
    mutating func checkCueTag(_ tag: TagLine) {
        guard tag.name == "EXT-X-CUE-OUT", let value = tag.value else { return }
        let text = trimmed(value)
        guard !text.isEmpty else { return }
        let fields = cueFields(text)
        let duration: Substring?
        if let keyed = fields.first(where: { $0.key?.uppercased() == "DURATION" }) {
            duration = keyed.value
        } else if let first = fields.first, first.key == nil {
            duration = first.value
        } else {
            return  // attributes without a duration
        }
        if let d = duration.flatMap({ Double(String($0)) }), d.isFinite, d >= 0 { return }
        warn(tag.line, "bad-value", "#EXT-X-CUE-OUT duration '\((duration ?? "").prefix(40))' is not a number of seconds; "
             + "the break is kept without a duration")
    }

    /// `KEY=VALUE` pairs or bare words, separated by commas or spaces, quotes removed from values.
    private func cueFields(_ text: Substring) -> [(key: Substring?, value: Substring)] {
        var fields: [(key: Substring?, value: Substring)] = []
        var start = text.startIndex
        var i = text.startIndex
        var quoted = false
        func add(_ field: Substring) {
            let f = trimmed(field)
            guard !f.isEmpty else { return }
            if let eq = f.firstIndex(of: "=") {
                var v = trimmed(f[f.index(after: eq)...])
                if v.count >= 2, v.first == "\"", v.last == "\"" { v = v.dropFirst().dropLast() }
                fields.append((trimmed(f[..<eq]), v))
            } else {
                fields.append((nil, f))
            }
        }
        while i < text.endIndex {
            let c = text[i]
            if c == "\"" { quoted.toggle() }
            if !quoted, c == "," || c == " " {
                add(text[start..<i])
                start = text.index(after: i)
            }
            i = text.index(after: i)
        }
        add(text[start...])
        return fields
    }
}
