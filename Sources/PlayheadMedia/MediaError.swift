import CFFmpeg
import CPlayheadShims

/// An error from the FFmpeg edge, carrying FFmpeg's code and message and where it happened.
public enum MediaError: Error, Equatable, CustomStringConvertible {
    /// libavformat could not open or probe the segment's bytes.
    case openFailed(code: Int32, message: String, byteCount: Int)
    /// libavformat read the bytes as something no HLS segment is (an image, text): `format` is the
    /// demuxer it chose.
    case notASegment(format: String, byteCount: Int)
    /// Reading a packet failed at the given byte offset of the segment.
    case demuxFailed(code: Int32, message: String, byteOffset: Int64)
    /// A sample the segment's index lists lies past the end of its bytes (an fMP4 segment cut short); the
    /// demuxer reads on after it.
    case samplePastEnd(byteOffset: Int64)
    /// No decoder exists in this FFmpeg build for the named codec.
    case decoderNotFound(codec: String)
    /// The decoder could not be set up.
    case decoderOpenFailed(codec: String, code: Int32, message: String)
    /// Decryption failed (AES-128 or SAMPLE-AES, said in the reason): bad length, bad key size or bad padding.
    case decryptionFailed(String)
    /// A resource could not be allocated by FFmpeg.
    case outOfMemory(String)
    /// An fMP4 segment whose media part is empty: only its initialization section (of
    /// `initializationBytes`) would reach the demuxer, which opens it and finds no samples.
    case emptyMedia(initializationBytes: Int)
    /// A still picture could not be decoded, converted, cropped or encoded (thumbnails, PNG output).
    case imageFailed(String)

    /// A one-line human-readable description.
    public var description: String {
        switch self {
        case let .openFailed(code, message, count):
            return "cannot open segment (\(count) bytes): \(message) [\(code)]"
        case let .notASegment(format, count):
            return "not a media segment (\(count) bytes): libavformat reads it as \(format); HLS segments are MPEG-TS, "
                + "fragmented MP4 or packed audio"
        case let .demuxFailed(code, message, offset):
            return "demux error at byte \(offset): \(message) [\(code)]"
        case let .samplePastEnd(offset):
            return "demux error at byte \(offset): a sample lies past the end of the segment's bytes (cut short) [\(AVError.eof)]"
        case let .decoderNotFound(codec):
            return "no decoder for codec \(codec)"
        case let .decoderOpenFailed(codec, code, message):
            return "cannot open \(codec) decoder: \(message) [\(code)]"
        case let .decryptionFailed(why):
            return "decryption failed: \(why)"
        case let .outOfMemory(what):
            return "out of memory allocating \(what)"
        case let .emptyMedia(initializationBytes):
            return "empty media segment (0 bytes after its \(initializationBytes)-byte initialization section)"
        case let .imageFailed(why):
            return "image: \(why)"
        }
    }
}

/// FFmpeg error helpers.
enum AVError {
    /// FFmpeg's text for an error code.
    static func message(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    static let eof = ph_averror_eof()
    static let again = ph_averror_eagain()
}

/// The value FFmpeg uses for "no timestamp" (`AV_NOPTS_VALUE`).
let noPTS = Int64.min
