import CFFmpeg
/// The FFmpeg edge.
public enum PlayheadMediaInfo {
    /// The libavformat version string this build links against.
    public static var libavformatVersion: String { String(cString: av_version_info()) }
}
