/// `<MediaFile>`: one encoding of a linear ad.
public struct VASTMediaFile: Sendable, Equatable, Encodable {
    /// The file's URL.
    public var url: String
    /// The `id` attribute.
    public var id: String?
    /// `delivery`: `progressive` or `streaming`.
    public var delivery: String?
    /// `type`: the MIME type (`video/mp4`, `application/x-mpegURL`…).
    public var mimeType: String?
    /// `width` in pixels.
    public var width: Int?
    /// `height` in pixels.
    public var height: Int?
    /// `bitrate` in kbit/s (constant-bitrate files).
    public var bitrateKbps: Int?
    /// `minBitrate` in kbit/s (variable-bitrate files).
    public var minBitrateKbps: Int?
    /// `maxBitrate` in kbit/s (variable-bitrate files).
    public var maxBitrateKbps: Int?
    /// `codec` (RFC 6381 string, or whatever the server wrote).
    public var codec: String?
    /// `apiFramework` (e.g. `VPAID`).
    public var apiFramework: String?
    /// `scalable`.
    public var scalable: Bool?
    /// `maintainAspectRatio`.
    public var maintainAspectRatio: Bool?
    /// `fileSize` in bytes (VAST 4.1).
    public var fileSizeBytes: Int?
    /// `mediaType` (VAST 4.1: `2D`, `3D`, `360`).
    public var mediaType: String?

    /// Creates a media file.
    public init(url: String, id: String? = nil, delivery: String? = nil, mimeType: String? = nil,
                width: Int? = nil, height: Int? = nil, bitrateKbps: Int? = nil, minBitrateKbps: Int? = nil,
                maxBitrateKbps: Int? = nil, codec: String? = nil, apiFramework: String? = nil,
                scalable: Bool? = nil, maintainAspectRatio: Bool? = nil, fileSizeBytes: Int? = nil,
                mediaType: String? = nil) {
        self.url = url
        self.id = id
        self.delivery = delivery
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.bitrateKbps = bitrateKbps
        self.minBitrateKbps = minBitrateKbps
        self.maxBitrateKbps = maxBitrateKbps
        self.codec = codec
        self.apiFramework = apiFramework
        self.scalable = scalable
        self.maintainAspectRatio = maintainAspectRatio
        self.fileSizeBytes = fileSizeBytes
        self.mediaType = mediaType
    }

    /// MIME types that name an HLS playlist, compared case-insensitively.
    public static let hlsMIMETypes: Set<String> = ["application/x-mpegurl", "application/vnd.apple.mpegurl",
                                                   "audio/mpegurl", "audio/x-mpegurl"]

    /// Whether the file is an HLS playlist: an HLS MIME type, or a URL path ending in `.m3u8`.
    public var isHLS: Bool {
        if let mime = mimeType?.lowercased(), Self.hlsMIMETypes.contains(mime) { return true }
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return path.lowercased().hasSuffix(".m3u8")
    }
}
