import CFFmpeg

/// Writes decoded sound as a WAV file: RIFF/WAVE, 16-bit PCM little-endian, channels interleaved,
/// converted with libswresample as `ffmpeg -f s16le` (and framemd5) does. The first frame fixes the
/// file's sample rate and channel count; later frames with another rate, format or channel count are
/// converted to them. The header's sizes are patched on ``close()``. Video frames are ignored.
///
/// A RIFF header counts in 32 bits, so data stops at ``defaultDataByteLimit`` (about 4 GiB): later
/// samples are dropped and ``close()`` throws ``DumpError/tooLarge(path:limitBytes:)``, the file
/// staying valid. Not thread-safe.
public final class WAVWriter: FrameDumpSink {
    /// Most sample data bytes a WAV header can describe: `UInt32.max - 36` (the RIFF size field counts
    /// the 36 header bytes after it, plus the data).
    public static let defaultDataByteLimit = Int(UInt32.max) - 36
    /// Sample rate written in the header of a file that received no frame: 48 000 Hz.
    public static let emptyFileSampleRate = 48_000
    /// Size of the header written: 44 bytes (RIFF, `fmt ` with 16 bytes, `data`).
    public static let headerBytes = 44

    /// The file written.
    public var path: String { file.path }
    /// Sample data bytes written so far.
    public private(set) var dataBytes = 0
    /// Most sample data bytes this writer writes.
    public let dataByteLimit: Int
    private let file: DumpFile
    private var output: (rate: Int, channels: Int)?
    private var input: (format: String, rate: Int, channels: Int)?
    private var resampler: OpaquePointer?
    private var buffer: [UInt8] = []
    private var failure: DumpError?

    /// Creates (or truncates) the file at `path`.
    /// - Parameters:
    ///   - dataByteLimit: Most sample data bytes to write. Default ``defaultDataByteLimit``; smaller
    ///     limits exist for tests.
    /// - Throws: ``DumpError/cannotOpen(path:reason:)``.
    public init(path: String, dataByteLimit: Int = defaultDataByteLimit) throws(DumpError) {
        file = try DumpFile(path: path)
        self.dataByteLimit = min(dataByteLimit, Self.defaultDataByteLimit)
    }

    deinit { swr_free(&resampler) }

    /// Ignored: WAV holds sound only.
    public func video(_ frame: RawVideoFrame) {}

    /// Converts and appends one frame of sound (the first also writes a provisional header).
    public func audio(_ frame: RawAudioFrame) {
        guard failure == nil, frame.sampleCount > 0, frame.channels > 0 else { return }
        do throws(DumpError) {
            if output == nil {
                output = (frame.sampleRate, frame.channels)
                try file.write(header(dataBytes: 0))
            }
            if input.map({ $0 != (frame.sampleFormatName, frame.sampleRate, frame.channels) }) ?? true {
                try drain()
                try makeResampler(for: frame)
            }
            var pointers = frame.planes.map { $0.baseAddress?.assumingMemoryBound(to: UInt8.self) }
            let outCount = try convert(&pointers, count: Int32(frame.sampleCount))
            try append(outCount)
        } catch {
            failure = error
        }
    }

    /// Flushes the converter, patches the header's sizes and closes the file.
    /// - Throws: The first error met while writing (including ``DumpError/tooLarge(path:limitBytes:)``),
    ///   or a writing or closing error.
    public func close() throws(DumpError) {
        let finished = Result { () throws(DumpError) in
            if failure == nil { try drain() }
            if output == nil { try file.write(header(dataBytes: 0)) }
            try file.overwrite(at: 0, with: header(dataBytes: dataBytes))
            try file.close()
        }
        swr_free(&resampler)
        if let failure { throw failure }
        try finished.get()
    }

    /// Converts `count` input samples per channel (nil pointers: flush) into ``buffer``; returns the
    /// samples per channel produced.
    private func convert(_ pointers: inout [UnsafePointer<UInt8>?], count: Int32) throws(DumpError) -> Int {
        guard let output, resampler != nil else { return 0 }
        let capacity = Int(swr_get_out_samples(resampler, count)) + 32
        if buffer.count < capacity * output.channels * 2 { buffer = [UInt8](repeating: 0, count: capacity * output.channels * 2) }
        let produced = buffer.withUnsafeMutableBufferPointer { out -> Int32 in
            var target: UnsafeMutablePointer<UInt8>? = out.baseAddress
            if pointers.isEmpty { return swr_convert(resampler, &target, Int32(capacity), nil, 0) }
            return pointers.withUnsafeMutableBufferPointer { input in
                swr_convert(resampler, &target, Int32(capacity), input.baseAddress, count)
            }
        }
        guard produced >= 0 else { throw .conversionFailed(path: path, detail: AVError.message(produced)) }
        return Int(produced)
    }

    /// Writes `samples` samples per channel from ``buffer``, up to the data limit.
    private func append(_ samples: Int) throws(DumpError) {
        guard let output, samples > 0 else { return }
        let blockAlign = output.channels * 2
        let limit = dataByteLimit - dataByteLimit % blockAlign
        let wanted = samples * blockAlign
        let allowed = min(wanted, limit - dataBytes)
        try buffer.withUnsafeBytes { (raw) -> Result<Void, DumpError> in
            Result { () throws(DumpError) in try file.write(UnsafeRawBufferPointer(rebasing: raw[0..<allowed])) }
        }.get()
        dataBytes += allowed
        if allowed < wanted { throw .tooLarge(path: path, limitBytes: limit) }
    }

    /// Writes out what the current converter still holds, and frees it.
    private func drain() throws(DumpError) {
        guard resampler != nil else { return }
        var none: [UnsafePointer<UInt8>?] = []
        try append(try convert(&none, count: 0))
        swr_free(&resampler)
        input = nil
    }

    private func makeResampler(for frame: RawAudioFrame) throws(DumpError) {
        guard let output else { return }
        let format = av_get_sample_fmt(frame.sampleFormatName)
        guard format != AV_SAMPLE_FMT_NONE else {
            throw .conversionFailed(path: path, detail: "unknown sample format \(frame.sampleFormatName)")
        }
        var inLayout = AVChannelLayout()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(frame.channels))
        av_channel_layout_default(&outLayout, Int32(output.channels))
        var code = swr_alloc_set_opts2(&resampler, &outLayout, AV_SAMPLE_FMT_S16, Int32(output.rate),
                                       &inLayout, format, Int32(frame.sampleRate), 0, nil)
        if code >= 0 { code = swr_init(resampler) }
        guard code >= 0 else {
            swr_free(&resampler)
            throw .conversionFailed(path: path, detail: AVError.message(code))
        }
        input = (frame.sampleFormatName, frame.sampleRate, frame.channels)
    }

    /// The 44-byte header for `dataBytes` bytes of sample data.
    private func header(dataBytes: Int) -> [UInt8] {
        let channels = output?.channels ?? 1
        let rate = output?.rate ?? Self.emptyFileSampleRate
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerBytes)
        func put(_ text: String) { bytes += Array(text.utf8) }
        func put32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        func put16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
        put("RIFF"); put32(36 + dataBytes); put("WAVE")
        put("fmt "); put32(16); put16(1); put16(channels); put32(rate)
        put32(rate * channels * 2); put16(channels * 2); put16(16)
        put("data"); put32(dataBytes)
        return bytes
    }
}
