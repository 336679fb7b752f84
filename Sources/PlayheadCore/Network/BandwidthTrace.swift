import Foundation

/// A network bandwidth trace: one sample a line, `time_seconds<whitespace>throughput_Mbit/s` (time may
/// not start at 0), as in `/work/shared/traces/{norway-test,fcc-test}`.
///
/// Sample `i`'s throughput holds over the interval from sample `i-1`'s time to sample `i`'s time, as
/// Pensieve's `fixed_env.py` reads it (it charges `cooked_bw[ptr]` for the span ending at
/// `cooked_time[ptr]`); so the first sample's throughput is never used, only its time.
public struct BandwidthTrace: Sendable, Equatable {
    /// The trace's name: its file name when loaded from disk.
    public var name: String
    /// Sample times in seconds, strictly increasing (as written in the file; the first need not be 0).
    public var times: [Double]
    /// Throughput of each sample in megabits (10^6 bits) per second, never negative.
    public var megabitsPerSecond: [Double]

    /// Creates a trace from samples. ``parse(_:name:)`` checks what this initializer takes on trust:
    /// equal counts, at least two samples, increasing times, no negative throughput.
    public init(name: String, times: [Double], megabitsPerSecond: [Double]) {
        self.name = name
        self.times = times
        self.megabitsPerSecond = megabitsPerSecond
    }

    /// A link of `megabitsPerSecond` throughout (the virtual clock's default link, `--bandwidth`).
    public static func constant(megabitsPerSecond: Double) -> BandwidthTrace {
        BandwidthTrace(name: "constant", times: [0, 1], megabitsPerSecond: [megabitsPerSecond, megabitsPerSecond])
    }

    /// Bits in one megabit, as the trace files and `fixed_env.py` (`B_IN_MB`) count them.
    public static let bitsPerMegabit = 1_000_000.0

    /// Parses a trace's text. Lines may end with LF, CRLF or a lone CR; blank lines are skipped; fields are
    /// separated by spaces or tabs.
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - name: The name errors and the trace carry.
    /// - Throws: ``TraceError`` naming the 1-based line: malformed line, bad number, non-increasing time,
    ///   negative throughput; or too few samples, or no throughput at all after the first sample.
    public static func parse(_ text: String, name: String) throws(TraceError) -> BandwidthTrace {
        var times: [Double] = []
        var rates: [Double] = []
        var lineNumber = 0
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: isLineEnd) {
            lineNumber += 1
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            guard fields.count == 2 else {
                throw .malformedLine(trace: name, line: lineNumber, text: String(line))
            }
            guard let time = Double(fields[0]), time.isFinite else {
                throw .badNumber(trace: name, line: lineNumber, text: String(fields[0]))
            }
            guard let rate = Double(fields[1]), rate.isFinite else {
                throw .badNumber(trace: name, line: lineNumber, text: String(fields[1]))
            }
            if let previous = times.last, time <= previous {
                throw .nonIncreasingTime(trace: name, line: lineNumber, seconds: time, previousSeconds: previous)
            }
            guard rate >= 0 else { throw .negativeThroughput(trace: name, line: lineNumber, megabitsPerSecond: rate) }
            times.append(time)
            rates.append(rate)
        }
        guard times.count >= 2 else { throw .tooFewSamples(trace: name, count: times.count) }
        guard rates.dropFirst().contains(where: { $0 > 0 }) else { throw .carriesNoData(trace: name) }
        return BandwidthTrace(name: name, times: times, megabitsPerSecond: rates)
    }

    /// Whether `character` ends a line: LF, CR, or CRLF (which Swift reads as one Character, so a split
    /// on "\n" alone does not see it).
    static func isLineEnd(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n" || character == "\r"
    }

    /// Reads and parses one trace file; the trace is named after the file.
    /// - Throws: ``TraceError/unreadable(path:reason:)``, or a parse error.
    public static func load(path: String) throws(TraceError) -> BandwidthTrace {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw .unreadable(path: path, reason: "it is a folder, not a trace file")
        }
        // Read through a descriptor to its end, so a pipe (`--trace <(…)`) reads as a file does.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "it is not UTF-8 text")
        }
        return try parse(text, name: (path as NSString).lastPathComponent)
    }

    /// Loads every regular, non-hidden file of a folder as a trace, sorted by name (byte order, so
    /// `bus_10` comes before `bus_2`).
    /// - Throws: ``TraceError/unreadable(path:reason:)``, or the first file's parse error.
    public static func loadDirectory(_ path: String) throws(TraceError) -> [BandwidthTrace] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        var traces: [BandwidthTrace] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let file = (path as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            traces.append(try load(path: file))
        }
        return traces
    }

    /// Seconds from the first sample to the last: the length of one pass through the trace.
    public var durationSeconds: Double { (times.last ?? 0) - (times.first ?? 0) }

    /// The trace's throughput in bits per second at `seconds` after its first sample, wrapping around
    /// (time `durationSeconds` is time 0 again); negative times count back from the end. The sample
    /// whose interval `[times[i-1], times[i])` holds the time gives the value.
    public func throughputBitsPerSecond(at seconds: Double) -> Double {
        guard times.count >= 2, durationSeconds > 0 else { return (megabitsPerSecond.last ?? 0) * Self.bitsPerMegabit }
        var offset = seconds.truncatingRemainder(dividingBy: durationSeconds)
        if offset < 0 { offset += durationSeconds }
        return megabitsPerSecond[intervalIndex(containing: times[0] + offset)] * Self.bitsPerMegabit
    }

    /// The index `i >= 1` of the interval `[times[i-1], times[i])` holding `time` (trace time, as in the
    /// file); 1 for times before the second sample, the last index for times at or after the last.
    func intervalIndex(containing time: Double) -> Int {
        var low = 1
        var high = times.count - 1
        while low < high {  // first i >= 1 with times[i] > time
            let middle = (low + high) / 2
            if times[middle] > time { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
