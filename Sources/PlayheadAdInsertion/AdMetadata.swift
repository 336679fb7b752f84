import Foundation
import PlayheadCore

/// The ad metadata of a media item (PSDK `PTAuditudeMetadata`): who asks the ad server, for which
/// content, with which targeting, and how ads are signalled.
///
/// Request URLs (``AdRequestURLs``) are `BASE + path + ?query`, where BASE is ``domain`` when it
/// starts with `http://` or `https://`, else `https://` + ``domain``.
public struct AdMetadata: Sendable, Equatable, Codable {
    /// The zone id: the publisher or site (required).
    public var zoneId: String
    /// The ad server: a host (`ads.example.com`, `127.0.0.1:8080`) or a base URL (required).
    public var domain: String
    /// The content's id at the ad server (required).
    public var mediaId: String
    /// Targeting key-values, sent as query parameters of their own.
    public var targetingParameters: [String: String]
    /// Custom key-values, sent together in one `cust_params` parameter (`k1=v1&k2=v2`, encoded).
    public var customParameters: [String: String]
    /// Where placement comes from.
    public var signalingMode: AdSignalingMode
    /// Whether a live stream (or a VOD in manifest-cue mode) asks for a pre-roll at the start.
    public var enableLivePreroll: Bool
    /// Whether cues before the live point at join time are resolved too (PSDK `enableDVRAds`).
    public var enableDVRAds: Bool
    /// Path of the server-map (VMAP) request. Default `/vmap`.
    public var serverMapPath: String
    /// Path of a per-cue or pre-roll (VAST) request. Default `/vast`.
    public var cuePath: String

    /// Creates metadata; call ``validate()`` (the resolver does) to learn of bad values.
    public init(zoneId: String, domain: String, mediaId: String, targetingParameters: [String: String] = [:],
                customParameters: [String: String] = [:], signalingMode: AdSignalingMode = .default,
                enableLivePreroll: Bool = true, enableDVRAds: Bool = false, serverMapPath: String = "/vmap",
                cuePath: String = "/vast") {
        self.zoneId = zoneId
        self.domain = domain
        self.mediaId = mediaId
        self.targetingParameters = targetingParameters
        self.customParameters = customParameters
        self.signalingMode = signalingMode
        self.enableLivePreroll = enableLivePreroll
        self.enableDVRAds = enableDVRAds
        self.serverMapPath = serverMapPath
        self.cuePath = cuePath
    }

    /// Checks that required fields are set, paths start with `/`, the domain has no spaces or
    /// query, and no targeting key uses one of ``AdRequestURLs/reservedKeys``.
    ///
    /// - Throws: ``AdMetadataError`` naming the field.
    public func validate() throws(AdMetadataError) {
        for (field, value) in [("zoneId", zoneId), ("domain", domain), ("mediaId", mediaId)]
        where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .missing(field: field)
        }
        if domain.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" }) {
            throw .invalid(field: "domain", value: domain, reason: "a host or base URL without spaces, query or fragment")
        }
        for (field, path) in [("serverMapPath", serverMapPath), ("cuePath", cuePath)] where !path.hasPrefix("/") {
            throw .invalid(field: field, value: path, reason: "must start with /")
        }
        for key in targetingParameters.keys.sorted() {
            if key.isEmpty { throw .invalid(field: "targetingParameters", value: key, reason: "empty key") }
            if AdRequestURLs.reservedKeys.contains(key) {
                throw .invalid(field: "targetingParameters", value: key, reason: "collides with a reserved query key")
            }
        }
        if customParameters.keys.contains("") { throw .invalid(field: "customParameters", value: "", reason: "empty key") }
    }
}

/// Why ad metadata cannot be used (reported as AD_RESOLUTION_INVALID, 104001).
public enum AdMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A required field is empty.
    case missing(field: String)
    /// A field has a value that cannot be used.
    case invalid(field: String, value: String, reason: String)
    /// The signalling mode is not supported for this kind of stream (a server map for live).
    case unsupportedMode(AdSignalingMode, isLive: Bool)

    /// What is wrong and where.
    public var description: String {
        switch self {
        case let .missing(field): "ad metadata: \(field) is required"
        case let .invalid(field, value, reason): "ad metadata: \(field) \"\(value)\": \(reason)"
        case let .unsupportedMode(mode, isLive):
            "ad metadata: signalingMode \(mode.rawValue) is not supported for \(isLive ? "live" : "VOD") streams"
        }
    }
}
