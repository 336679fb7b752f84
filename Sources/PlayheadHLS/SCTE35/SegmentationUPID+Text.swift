extension SegmentationUPID {
    /// A readable rendering of the UPID.
    ///
    /// - Text types (ISCI, Ad-ID, TID, ADI, ADS Information, URI, SCR, user defined): the text when
    ///   every byte is printable ASCII, else `0x` and lower-case hex.
    /// - EIDR: `10.<prefix>/XXXX-XXXX-XXXX-XXXX-XXXX-C` with the ISO 7064 Mod 37,36 check character.
    /// - ISAN: `XXXX-XXXX-XXXX-XXXX-C-XXXX-XXXX-C` (deprecated 8-byte form: `XXXX-XXXX-XXXX-XXXX-C`).
    /// - UUID: `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`. UMID: hex in 4-byte groups joined by `.`.
    /// - TI (AiringID) and other binary forms: `0x` and hex.
    /// - ATSC: `TSID=…;endOfDay=…;uniqueFor=…;contentId=…`. MPU: `<format>:0x<hex>` where the
    ///   format is its four characters when printable. MID: the sub-UPIDs as `<type name>=<form>`
    ///   joined by `; `.
    ///
    /// A fixed-size type with a wrong length falls back to `0x` and hex.
    public var stringForm: String {
        switch self {
        case .notUsed(let b): return b.isEmpty ? "" : Self.hexForm(b)
        case .userDefined(let b), .isci(let b), .adID(let b), .tid(let b), .adi(let b),
             .adsInformation(let b), .uri(let b), .scr(let b):
            return Self.textForm(b)
        case .umid(let b):
            guard b.count == 32 else { return Self.hexForm(b) }
            return stride(from: 0, to: 32, by: 4).map { hexString(Array(b[$0..<$0 + 4])) }.joined(separator: ".")
        case .isanDeprecated(let b):
            guard b.count == 8 else { return Self.hexForm(b) }
            let digits = hexString(b).uppercased()
            return Self.groups(digits) + "-" + String(Self.mod37_36(digits))
        case .isan(let b):
            guard b.count == 12 else { return Self.hexForm(b) }
            let digits = hexString(b).uppercased()
            let root = String(digits.prefix(16)), version = String(digits.suffix(8))
            return Self.groups(root) + "-" + String(Self.mod37_36(root)) + "-" + Self.groups(version)
                + "-" + String(Self.mod37_36(digits))
        case .ti(let b), .other(_, let b):
            return Self.hexForm(b)
        case .eidr(let b):
            guard b.count == 12 else { return Self.hexForm(b) }
            let prefix = UInt16(b[0]) << 8 | UInt16(b[1])
            let suffix = hexString(Array(b[2...])).uppercased()
            return "10.\(prefix)/" + Self.groups(suffix) + "-" + String(Self.mod37_36(suffix))
        case .uuid(let b):
            guard b.count == 16 else { return Self.hexForm(b) }
            let digits = Array(hexString(b))
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
        case .atsc(let id):
            return "TSID=\(id.tsid);endOfDay=\(id.endOfDay);uniqueFor=\(id.uniqueFor);contentId=\(Self.textForm(id.contentId))"
        case .mpu(let format, let data):
            let name = fourCharacterCode(format) ?? String(format, radix: 16)
            return name + ":" + Self.hexForm(data)
        case .mid(let upids):
            return upids.map { Self.name(ofType: $0.type) + "=" + $0.stringForm }.joined(separator: "; ")
        }
    }

    /// `0x` and lower-case hex; empty input gives "".
    static func hexForm(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "" : "0x" + hexString(bytes)
    }

    /// The ASCII text when every byte is printable, else `hexForm`.
    static func textForm(_ bytes: [UInt8]) -> String {
        bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? String(decoding: bytes, as: UTF8.self) : hexForm(bytes)
    }

    /// Hex digits in groups of four joined by `-`.
    private static func groups(_ digits: String) -> String {
        let characters = Array(digits)
        return stride(from: 0, to: characters.count, by: 4)
            .map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: "-")
    }

    /// The ISO/IEC 7064 Mod 37,36 check character of upper-case alphanumeric `text` (as EIDR and ISAN use).
    static func mod37_36(_ text: String) -> Character {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var product = 36
        for character in text {
            let value = alphabet.firstIndex(of: character) ?? 0
            var sum = (product + value) % 36
            if sum == 0 { sum = 36 }
            product = (sum * 2) % 37
        }
        return alphabet[(37 - product) % 36]
    }
}
