extension LoopbackHTTPServer {
    /// A fault for every request whose path matches a glob, limited to a number of requests or drawn
    /// at random for a share of them (see ``LoopbackHTTPServer/addFaultRule(_:)``).
    public struct FaultRule: Sendable, Equatable {
        /// The glob the decoded URL path must match (``Glob``: `*`, `?`, `[a-z]`, `[!0-9]`; `*` also
        /// matches `/`, so `*.ts` is every TS segment). A path without glob characters matches itself.
        public var pattern: String
        /// The misbehaviour.
        public var fault: Fault
        /// How many requests it is applied to at most (nil: no limit).
        public var times: Int?
        /// The chance, 0…1, that a matching request gets it (nil: every one), drawn from a generator
        /// seeded with ``seed``, so the same requests in the same order get the same faults.
        public var probability: Double?
        /// The generator's seed for ``probability``.
        public var seed: UInt64
        /// The name the request log and its observers show (e.g. the command line's spec).
        public var name: String

        /// Creates a rule.
        /// - Parameters:
        ///   - pattern: The glob the decoded URL path must match.
        ///   - fault: The misbehaviour.
        ///   - times: At most this many requests get it (nil: no limit; else at least 1).
        ///   - probability: The chance a matching request gets it (nil: every one).
        ///   - seed: Seeds the draws for `probability`.
        ///   - name: Shown in the request log; the pattern when nil.
        public init(pattern: String, fault: Fault, times: Int? = nil, probability: Double? = nil, seed: UInt64 = 0, name: String? = nil) {
            precondition(times.map { $0 >= 1 } ?? true, "FaultRule(times:) needs at least 1, got \(times ?? 0)")
            self.pattern = pattern
            self.fault = fault
            self.times = times
            self.probability = probability
            self.seed = seed
            self.name = name ?? pattern
        }
    }
}

/// Shell-style globs over URL paths: `*` (any run of characters, `/` included), `?` (one character),
/// `[abc]`, `[a-z]` and `[!a-z]` (or `[^a-z]`: one character of, or not of, a set); `\` quotes the next
/// character. Case matters.
public enum Glob {
    /// Why `pattern` is not a glob (an unclosed `[`, an empty set, a trailing `\`), or nil.
    public static func problem(in pattern: String) -> String? {
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case "\\":
                guard index + 1 < characters.count else { return "a '\\' ends the pattern" }
                index += 2
            case "[":
                guard let end = setEnd(characters, from: index) else { return "a '[' at character \(index + 1) is never closed" }
                index = end + 1
            default: index += 1
            }
        }
        return nil
    }

    /// Whether `text` matches `pattern` as a whole.
    public static func matches(_ pattern: String, _ text: String) -> Bool {
        let pattern = Array(pattern), text = Array(text)
        // Iterative matching with one backtrack point for the last `*`.
        var p = 0, t = 0
        var star: (p: Int, t: Int)?
        while t < text.count {
            if p < pattern.count, let width = matchOne(pattern, at: p, text[t]) {
                p += width
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = (p, t)
                p += 1
            } else if let last = star {
                star = (last.p, last.t + 1)
                p = last.p + 1
                t = last.t + 1
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// If the element at `p` (a character, `?`, an escape or a set, not `*`) matches `character`, how
    /// many pattern characters it takes; else nil.
    private static func matchOne(_ pattern: [Character], at p: Int, _ character: Character) -> Int? {
        switch pattern[p] {
        case "*": return nil
        case "?": return 1
        case "\\" where p + 1 < pattern.count: return pattern[p + 1] == character ? 2 : nil
        case "[":
            guard let end = setEnd(pattern, from: p) else { return pattern[p] == character ? 1 : nil }
            var index = p + 1
            let negated = pattern[index] == "!" || pattern[index] == "^"
            if negated { index += 1 }
            var found = false
            while index < end {
                if index + 2 < end, pattern[index + 1] == "-" {
                    if pattern[index] <= character && character <= pattern[index + 2] { found = true }
                    index += 3
                } else {
                    if pattern[index] == character { found = true }
                    index += 1
                }
            }
            return found != negated ? end - p + 1 : nil
        default: return pattern[p] == character ? 1 : nil
        }
    }

    /// The index of the `]` closing the set opened at `start` (a `]` first in the set is a member), or nil.
    private static func setEnd(_ pattern: [Character], from start: Int) -> Int? {
        var index = start + 1
        if index < pattern.count, pattern[index] == "!" || pattern[index] == "^" { index += 1 }
        if index < pattern.count, pattern[index] == "]" { index += 1 }
        while index < pattern.count {
            if pattern[index] == "]" { return index }
            index += 1
        }
        return nil
    }
}

/// SplitMix64: a small seeded generator, the same on every platform: the origin's fault draws and
/// corruption, and the benchmark's bootstrap resamples.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state.
    public var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
