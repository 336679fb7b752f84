import CFFmpeg

/// FFmpeg's own logging (to standard error), which is global to the process.
public enum MediaLog {
    /// How much FFmpeg prints.
    public enum Level: Int32, Sendable {
        /// Nothing.
        case quiet = -8
        /// Errors that stop something.
        case fatal = 8
        /// Errors FFmpeg recovers from (damaged data).
        case error = 16
        /// Warnings.
        case warning = 24
        /// FFmpeg's default.
        case info = 32
        /// Everything useful for debugging.
        case debug = 48
    }

    /// The current level (FFmpeg's `av_log_get_level`). Damage found while decoding is reported in
    /// `SegmentDecodeReport.damage` whatever this level is.
    public static var level: Level {
        get { Level(rawValue: av_log_get_level()) ?? .info }
        set { av_log_set_level(newValue.rawValue) }
    }
}
