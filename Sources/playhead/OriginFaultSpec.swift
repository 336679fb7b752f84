import PlayheadOrigin

/// `playhead origin --fault PATH_OR_GLOB=KIND[:ARG][,times=N][,p=P]`: one fault rule for the origin.
enum OriginFaultSpec {
    /// The kinds and what they take, for error messages and the help.
    static let kinds = "status:CODE, delay:SECONDS, truncate:BYTES, corrupt[:SEED], stall:BYTES, ignore-range, ignore-if-range, close, redirect:LOCATION"

    /// The rule `spec` describes, or why it does not describe one.
    /// - Parameters:
    ///   - spec: The option's value.
    ///   - index: Its position among the `--fault` options (0-based): each rule draws from its own generator.
    ///   - seed: `--seed`: the draws for `p=` and the default seed of `corrupt`.
    static func parse(_ spec: String, index: Int, seed: UInt64) -> Result<LoopbackHTTPServer.FaultRule, SpecError> {
        func failure(_ why: String) -> Result<LoopbackHTTPServer.FaultRule, SpecError> { .failure(SpecError(spec: spec, reason: why)) }
        guard let equals = spec.firstIndex(of: "=") else { return failure("give PATH_OR_GLOB=KIND[:ARG][,times=N][,p=P]") }
        let pattern = String(spec[..<equals])
        guard !pattern.isEmpty else { return failure("the path is empty") }
        guard let first = pattern.first, "/*?[".contains(first) else {
            return failure("the path \"\(pattern)\" must be a URL path starting with '/' or a glob such as *.ts")
        }
        if let problem = Glob.problem(in: pattern) { return failure("the glob \"\(pattern)\" is malformed: \(problem)") }
        // Options come last; a redirect's location may itself hold commas.
        var parts = spec[spec.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var times: Int?
        var probability: Double?
        while parts.count > 1, let last = parts.last, last.hasPrefix("times=") || last.hasPrefix("p=") {
            parts.removeLast()
            if last.hasPrefix("times=") {
                guard times == nil else { return failure("times= is given twice") }
                guard let value = Int(last.dropFirst(6)), value >= 1 else { return failure("times= takes a whole number of requests, at least 1, got \"\(last.dropFirst(6))\"") }
                times = value
            } else {
                guard probability == nil else { return failure("p= is given twice") }
                guard let value = Double(last.dropFirst(2)), value > 0, value <= 1 else {
                    return failure("p= takes a probability above 0 and at most 1, got \"\(last.dropFirst(2))\"")
                }
                probability = value
            }
        }
        // Outside a redirect's location, a comma can only start an option: one not known is named as such.
        if !(parts.first ?? "").hasPrefix("redirect:"), parts.count > 1 {
            let unknown = parts[1]
            let name = unknown.split(separator: "=").first.map(String.init) ?? unknown
            return failure("unknown option \"\(name)\" after the fault kind (the options are times=N and p=P)")
        }
        let kindText = parts.joined(separator: ",")
        let (kind, argument): (String, String?) = kindText.firstIndex(of: ":").map {
            (String(kindText[..<$0]), String(kindText[kindText.index(after: $0)...]))
        } ?? (kindText, nil)
        let fault: LoopbackHTTPServer.Fault
        switch kind {
        case "status":
            guard let code = argument.flatMap({ Int($0) }), (100...599).contains(code) else {
                return failure("status takes an HTTP status code 100…599, got \"\(argument ?? "")\"")
            }
            fault = .status(code)
        case "delay":
            guard let seconds = argument.flatMap({ Double($0) }), seconds >= 0, seconds.isFinite else {
                return failure("delay takes a number of seconds, got \"\(argument ?? "")\"")
            }
            fault = .delay(seconds: seconds)
        case "truncate", "stall":
            guard let bytes = argument.flatMap({ Int($0) }), bytes >= 0 else {
                return failure("\(kind) takes a number of body bytes, got \"\(argument ?? "")\"")
            }
            fault = kind == "truncate" ? .truncate(afterBytes: bytes) : .stallAfter(bytes: bytes)
        case "corrupt":
            guard let corruptSeed = argument == nil ? seed : argument.flatMap({ UInt64($0) }) else {
                return failure("corrupt takes an optional seed, a whole number, got \"\(argument ?? "")\"")
            }
            fault = .corrupt(seed: corruptSeed)
        case "ignore-range", "ignore-if-range", "close":
            guard argument == nil else { return failure("\(kind) takes no argument, got \"\(argument ?? "")\"") }
            fault = ["close": .closeConnection, "ignore-range": .ignoreRange][kind] ?? .ignoreIfRange
        case "redirect":
            guard let location = argument, !location.isEmpty else { return failure("redirect takes a location, e.g. redirect:/other.m3u8") }
            fault = .redirect(location)
        case "":
            return failure("no fault kind after '='; give one of \(kinds)")
        default:
            return failure("unknown fault kind \"\(kind)\"; give one of \(kinds)")
        }
        // Each rule draws from its own generator, so adding a rule does not change another's draws.
        let ruleSeed = seed ^ (UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15)
        return .success(LoopbackHTTPServer.FaultRule(pattern: pattern, fault: fault, times: times, probability: probability,
                                                     seed: ruleSeed, name: spec))
    }

    /// A `--fault` value that is not a fault rule.
    struct SpecError: Error, CustomStringConvertible {
        /// The value as given.
        var spec: String
        /// What is wrong with it.
        var reason: String
        /// `--fault "SPEC": reason`.
        var description: String { "--fault \"\(spec)\": \(reason)" }
    }
}
