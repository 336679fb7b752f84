import Foundation
import Hummingbird
import NIOCore
import PlayheadCore

/// `GET /v1/sessions/{id}/thumbnail?time=T[&width=W][&source=iframe|segment]`: a PNG thumbnail of the
/// session's item at T seconds, from its I-frame playlist or else its segments (``ThumbnailMaker``).
enum ThumbnailRoute {
    /// Widest picture the route scales to.
    static let maxWidth = 4096

    /// The query parameters the route takes.
    static let parameterNames = ["time", "width", "source"]

    /// Refuses a query that names a parameter the route does not know (a misspelled width would be dropped
    /// without a word) or one more than once (which one was meant is unknown); `names` as the query gives them.
    static func checkParameters(names: [String]) throws(APIError) {
        if let unknown = names.sorted().first(where: { !parameterNames.contains($0) }) { throw .unknownField(unknown) }
        for name in parameterNames {
            let count = names.count { $0 == name }
            if count > 1 { throw .invalidField(name, "is given \(count) times; give it once") }
        }
    }

    /// `text` as decimal seconds (`7`, `7.25`, `.5`), or nil: Swift's `Double(_:)` alone would also take
    /// `0x10` (16), `1e1`, `+3` and `inf`.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !text.isEmpty, text != ".", parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        return Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The PNG, with headers naming where it came from (`X-Playhead-Thumbnail-Source`, `-Entry-Start`,
    /// `-Resource`, `-PTS` when known, `-MD5`).
    /// - Throws: ``APIError``: 404 for an unknown session; 400 naming `time`, `width` or `source`
    ///   (a time outside the item too); 422 `thumbnailUnavailable` when the item gives no picture there
    ///   (no I-frame playlist when one is asked for, a range that does not decode); 502 `upstreamFailed`
    ///   when a playlist or segment cannot be fetched.
    static func response(manager: SessionManager, id: String, query: (String) -> String?) async throws -> Response {
        let (stored, _) = try manager.describe(id)
        guard let text = query("time") else { throw APIError.missingField("time") }
        guard let time = seconds(text) else {
            throw APIError.invalidField("time", "must be a number of seconds, 0 or more, got \"\(text)\"")
        }
        var width: Int?
        if let text = query("width") {
            guard let value = Int(text), (2...maxWidth).contains(value) else {
                throw APIError.invalidField("width", "must be a whole number of pixels from 2 to \(maxWidth), got \"\(text)\"")
            }
            width = value
        }
        var source: ThumbnailSourceKind?
        if let text = query("source") {
            guard let kind = ThumbnailSourceKind(rawValue: text), kind != .vtt else {
                throw APIError.invalidField("source", "must be iframe or segment, got \"\(text)\"")
            }
            source = kind
        }
        let maker = ThumbnailMaker(client: manager.client)
        let thumbnail: Thumbnail
        let png: [UInt8]
        do throws(ThumbnailError) {
            let sources = try await maker.sources(of: stored.spec.url, width: width)
            thumbnail = try await maker.thumbnail(at: time, from: sources, source: source, width: width)
            do { png = try thumbnail.image.pngData() } catch { throw .image(error) }
        } catch {
            switch error {
            case .timeOutOfRange: throw APIError.invalidField("time", error.description)
            case .load: throw APIError(status: 502, code: "upstreamFailed", message: error.description)
            default: throw APIError(status: 422, code: "thumbnailUnavailable", message: error.description)
            }
        }
        var headers = HTTPFields()
        headers[.contentType] = "image/png"
        func set(_ name: String, _ value: String) { headers[HTTPFields.Element.Name(name)!] = value }
        set("X-Playhead-Thumbnail-Source", thumbnail.source.rawValue)
        set("X-Playhead-Thumbnail-Entry-Start", String(format: "%.6f", thumbnail.entryStart))
        set("X-Playhead-Thumbnail-Resource", thumbnail.resourceURL + (thumbnail.byteRange.map { " bytes \($0.length)@\($0.offset)" } ?? ""))
        if let pts = thumbnail.framePTS, let base = thumbnail.timeBase { set("X-Playhead-Thumbnail-PTS", "\(pts) \(base)") }
        set("X-Playhead-Thumbnail-MD5", thumbnail.md5)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: png)))
    }
}
