import PlayheadHLS
import PlayheadMedia
import PlayheadNet

/// What a stream offers for thumbnails: its ordinary rendition (duration, fallback), an I-frame playlist
/// and a WebVTT thumbnail track, each when there is one.
public struct ThumbnailSources: Sendable {
    /// The URL the stream was asked for.
    public var url: String
    /// The ordinary media playlist (a variant's, or the URL's own when it is not I-frames-only), with its URL.
    public var media: (playlist: MediaPlaylist, url: String)?
    /// The I-frame playlist, when the stream has one.
    public var iFrames: IFrameTrack?
    /// The WebVTT thumbnail track, when one was given.
    public var track: ThumbnailTrack?
    /// Why the multivariant playlist's I-frame playlist could not be read (the other sources still serve).
    public var iFramesError: ThumbnailError?
    /// Why its ordinary variant playlist could not be read.
    public var mediaError: ThumbnailError?

    /// The timeline's length: the ordinary playlist's, else the I-frame playlist's, else the track's end.
    public var duration: Double {
        if let media { return media.playlist.totalDurationSeconds }
        if let iFrames { return iFrames.duration }
        return track?.covered?.upperBound ?? 0
    }

    /// The source used when none is asked for: the WebVTT track when given, else the I-frame playlist,
    /// else the ordinary segments.
    public var preferred: ThumbnailSourceKind {
        track != nil ? .vtt : iFrames != nil ? .iframe : .segment
    }
}

/// Makes thumbnails of an HLS stream: from its I-frame playlist, a WebVTT thumbnail track, or the keyframe
/// at or before a time in its ordinary segments; fetched over ``PlayheadNet/HTTPClient`` and decoded with FFmpeg.
public struct ThumbnailMaker: Sendable {
    /// The client every fetch goes through.
    public let client: HTTPClient

    /// Creates a maker on `client`.
    public init(client: HTTPClient) { self.client = client }

    /// Loads what `url` (a multivariant or media playlist) offers, and the WebVTT track at `trackURL` (absolute,
    /// or relative to `url`).
    /// - Parameter width: The wanted picture width: picks the I-frame variant and the ordinary variant whose
    ///   RESOLUTION width is closest; without it, the lowest BANDWIDTH of each.
    /// - Throws: ``ThumbnailError`` naming the playlist or track that failed.
    public func sources(of url: String, trackURL: String? = nil, width: Int? = nil) async throws(ThumbnailError) -> ThumbnailSources {
        let loader = PlaylistLoader(client: client)
        var sources = ThumbnailSources(url: url)
        let first: LoadedPlaylist
        do { first = try await loader.load(url) } catch { throw .load(error) }
        switch first.parsed.playlist {
        case let .media(media):
            if media.iFramesOnly {
                sources.iFrames = try IFrameTrack(playlist: media, url: first.effectiveURL)
            } else {
                sources.media = (media, first.effectiveURL)
            }
        case let .multivariant(multivariant):
            // Each source is read on its own: one that fails leaves the others (and is said when asked for).
            if let chosen = IFrameTrack.choose(multivariant.iFrameVariants, width: width) {
                do {
                    let (playlist, resolved) = try await loadMedia(chosen.uri, base: first.effectiveURL, imported: multivariant.variableValues)
                    sources.iFrames = try IFrameTrack(playlist: playlist, url: resolved, variant: chosen)
                } catch { sources.iFramesError = error }
            }
            let playable = multivariant.variants.filter { !$0.isAudioOnly }
            if let chosen = IFrameTrack.choose(playable.isEmpty ? multivariant.variants : playable, width: width) {
                do {
                    let (playlist, resolved) = try await loadMedia(chosen.uri, base: first.effectiveURL, imported: multivariant.variableValues)
                    sources.media = (playlist, resolved)
                } catch { sources.mediaError = error }
            }
            if sources.iFrames == nil, sources.media == nil, let failure = sources.iFramesError ?? sources.mediaError { throw failure }
        }
        if let trackURL {
            // An absolute URL is taken as given (a local file named by the user too); a relative one is
            // resolved against the stream's URL, which keeps a remote stream from naming local files.
            var resolved = trackURL
            if !trackURL.contains("://") {
                do { resolved = try ResourceURL.resolve(trackURL, against: url) } catch { throw .load(error) }
            }
            let response: HTTPResponse
            do { response = try await client.get(resolved) } catch { throw .load(.network(error)) }
            sources.track = try ThumbnailTrack(bytes: response.body, url: response.effectiveURL)
        }
        return sources
    }

    private func loadMedia(_ uri: String, base: String, imported: [String: String]) async throws(ThumbnailError) -> (MediaPlaylist, String) {
        do throws(PlayheadError) {
            let url = try ResourceURL.resolve(uri, against: base)
            let loaded = try await PlaylistLoader(client: client).load(url, imported: imported)
            guard case let .media(media) = loaded.parsed.playlist else {
                throw PlayheadError.unexpectedPlaylist(url: url, detail: "a multivariant playlist where a media playlist was expected")
            }
            return (media, loaded.effectiveURL)
        } catch { throw .load(error) }
    }

    /// The thumbnail for `time` (seconds on the stream's timeline, from 0).
    /// - Parameters:
    ///   - source: The source to use; nil for ``ThumbnailSources/preferred``.
    ///   - width: Scale the picture to this width (aspect kept, even sides); nil keeps its size.
    /// - Throws: ``ThumbnailError`` naming what failed and where.
    public func thumbnail(at time: Double, from sources: ThumbnailSources, source: ThumbnailSourceKind? = nil,
                          width: Int? = nil) async throws(ThumbnailError) -> Thumbnail {
        let duration = sources.duration
        guard time.isFinite, time >= 0, time <= duration + 1e-9 else {
            throw .timeOutOfRange(time: time, duration: duration, url: sources.media?.url ?? sources.iFrames?.url ?? sources.url)
        }
        var thumbnail: Thumbnail
        switch source ?? sources.preferred {
        case .iframe:
            guard let track = sources.iFrames else { throw sources.iFramesError ?? .noIFramePlaylist(url: sources.url) }
            thumbnail = try await fromIFrames(track, at: time)
        case .vtt:
            guard let track = sources.track else { throw .noThumbnailTrack }
            thumbnail = try await fromTrack(track, at: time)
        case .segment:
            guard let media = sources.media else {
                if let failure = sources.mediaError { throw failure }
                throw .load(.unexpectedPlaylist(url: sources.url, detail: "no ordinary media playlist (only an I-frame playlist) to take a segment from"))
            }
            thumbnail = try await fromSegments(media.playlist, url: media.url, at: time)
        }
        if let width {
            do { thumbnail.image = try thumbnail.image.scaled(toWidth: width) } catch { throw .image(error) }
        }
        return thumbnail
    }

    /// The segment with its init section in front; an unusable init section (cut short, no moov) is the error,
    /// not the "no video packets" the demuxer would find.
    private func fetch(_ segment: MediaSegment, base: String) async throws(ThumbnailError) -> FetchedSegment {
        let fetched: FetchedSegment
        do { fetched = try await SegmentFetcher(network: LiveNetwork(client: client)).fetch(segment, baseURL: base, at: 0) } catch { throw .load(error) }
        if let problem = fetched.initializationProblem {
            throw .undecodableMedia(url: fetched.url, byteRange: Self.rangeText(segment.byteRange), detail: problem)
        }
        return fetched
    }

    private static func rangeText(_ range: ByteRange?) -> String? { range.map { "\($0.length)@\($0.offset)" } }

    private func fromIFrames(_ track: IFrameTrack, at time: Double) async throws(ThumbnailError) -> Thumbnail {
        guard let entry = track.entry(at: time) else { throw .timeOutOfRange(time: time, duration: track.duration, url: track.url) }
        let fetched = try await fetch(entry.segment, base: track.url)
        let grab = try Self.grab(fetched.bytes, atOrBefore: nil, url: entry.url, range: entry.segment.byteRange)
        return Thumbnail(source: .iframe, listURL: track.url, entryIndex: entry.index, entryStart: entry.start, entryDuration: entry.duration,
                         resourceURL: entry.url, byteRange: entry.segment.byteRange, rect: nil, framePTS: grab.frame.pts,
                         timeBase: grab.frame.timeBase, pixelFormat: grab.frame.formatName, decodedWidth: grab.frame.width,
                         decodedHeight: grab.frame.height, md5: grab.frame.md5 ?? "", image: grab.image)
    }

    private func fromSegments(_ playlist: MediaPlaylist, url: String, at time: Double) async throws(ThumbnailError) -> Thumbnail {
        var starts: [Double] = []
        var start = 0.0
        for segment in playlist.segments { starts.append(start); start += max(0, segment.duration) }
        guard var index = IFrameTrack.span(holding: time, in: zip(starts, playlist.segments.map { max(0, $0.duration) }).map { ($0, $1) }) else {
            throw .timeOutOfRange(time: time, duration: start, url: url)
        }
        // Media timestamps map onto the timeline from the first video timestamp of the first segment of the
        // discontinuity run holding the time (as the player anchors them). A segment holding no keyframe at or
        // before the time (long GOPs) gives way to the last keyframe of an earlier one.
        let anchorIndex = playlist.segments[...index].lastIndex(where: \.discontinuity) ?? 0
        var anchorSeconds: Double?
        while true {
            let segment = playlist.segments[index]
            let segmentURL: String
            do { segmentURL = try ResourceURL.resolve(segment.uri, against: url) } catch { throw .load(error) }
            if segment.gap {
                throw .undecodableMedia(url: segmentURL, byteRange: Self.rangeText(segment.byteRange), detail: "an EXT-X-GAP segment has no media")
            }
            if anchorSeconds == nil, index != anchorIndex {
                let anchor = playlist.segments[anchorIndex]
                let anchorURL: String
                do { anchorURL = try ResourceURL.resolve(anchor.uri, against: url) } catch { throw .load(error) }
                anchorSeconds = try Self.firstVideoSeconds(try await fetch(anchor, base: url).bytes, url: anchorURL, range: anchor.byteRange)
            }
            let bytes = try await fetch(segment, base: url).bytes
            if anchorSeconds == nil { anchorSeconds = try Self.firstVideoSeconds(bytes, url: segmentURL, range: segment.byteRange) }
            let anchor = anchorSeconds!
            switch KeyframeGrabber.grab(bytes, atOrBefore: anchor + time - starts[anchorIndex]) {
            case let .success(grab):
                return Thumbnail(source: .segment, listURL: url, entryIndex: index,
                                 entryStart: starts[anchorIndex] + grab.keyframeSeconds - anchor,
                                 entryDuration: max(0, segment.duration), resourceURL: segmentURL, byteRange: segment.byteRange,
                                 rect: nil, framePTS: grab.frame.pts, timeBase: grab.frame.timeBase, pixelFormat: grab.frame.formatName,
                                 decodedWidth: grab.frame.width, decodedHeight: grab.frame.height, md5: grab.frame.md5 ?? "", image: grab.image)
            case .failure(.noKeyframe) where index > anchorIndex:
                index -= 1
            case let .failure(failure):
                throw Self.error(failure, url: segmentURL, range: segment.byteRange)
            }
        }
    }

    /// The earliest video timestamp of a segment's bytes, seconds; the segment named in the error when it has none.
    private static func firstVideoSeconds(_ bytes: [UInt8], url: String, range: ByteRange?) throws(ThumbnailError) -> Double {
        switch KeyframeGrabber.firstVideoSeconds(bytes) {
        case let .success(first?): return first
        case .success(nil): throw .undecodableMedia(url: url, byteRange: rangeText(range), detail: "no timed video packet")
        case let .failure(error): throw .undecodableMedia(url: url, byteRange: rangeText(range), detail: error.description)
        }
    }

    private static func grab(_ bytes: [UInt8], atOrBefore offset: Double?, url: String, range: ByteRange?) throws(ThumbnailError) -> KeyframeGrabber.Grab {
        switch KeyframeGrabber.grab(bytes, atOrBefore: offset) {
        case let .success(grab): return grab
        case let .failure(failure): throw error(failure, url: url, range: range)
        }
    }

    private static func error(_ failure: KeyframeGrabber.Failure, url: String, range: ByteRange?) -> ThumbnailError {
        let text = rangeText(range)
        switch failure {
        case let .open(error): return .undecodableMedia(url: url, byteRange: text, detail: error.description)
        case let .noKeyframe(packets): return .undecodableMedia(url: url, byteRange: text, detail: "no video keyframe among its \(packets) video packets")
        case let .noFrame(detail): return .undecodableMedia(url: url, byteRange: text, detail: detail)
        case let .image(error): return .image(error)
        }
    }

    private func fromTrack(_ track: ThumbnailTrack, at time: Double) async throws(ThumbnailError) -> Thumbnail {
        guard let cue = track.cue(at: time) else { throw .noCue(time: time, url: track.url, cueCount: track.cues.count, covered: track.covered, skipped: track.skipped) }
        if let problem = cue.problem { throw .badCue(url: track.url, line: cue.line, detail: problem) }
        let response: HTTPResponse
        do { response = try await client.get(cue.imageURL) } catch {
            throw .cueImage(url: track.url, line: cue.line, image: cue.imageURL, detail: PlayheadError.network(error).description)
        }
        let decoded: (image: RGBImage, pixelFormat: String)
        do { decoded = try RGBImage.decoding(response.body) } catch {
            throw .cueImage(url: track.url, line: cue.line, image: cue.imageURL, detail: error.description)
        }
        var image = decoded.image
        if let rect = cue.rect {
            do { image = try image.cropped(x: rect.x, y: rect.y, width: rect.width, height: rect.height) } catch {
                throw .rectangleOutside(url: track.url, line: cue.line, rect: rect, image: cue.imageURL, width: image.width, height: image.height)
            }
        }
        return Thumbnail(source: .vtt, listURL: track.url, entryIndex: cue.index, entryStart: cue.start, entryDuration: cue.end - cue.start,
                         resourceURL: cue.imageURL, byteRange: nil, rect: cue.rect, framePTS: nil, timeBase: nil,
                         pixelFormat: decoded.pixelFormat, decodedWidth: decoded.image.width, decodedHeight: decoded.image.height,
                         md5: image.md5, image: image)
    }
}
