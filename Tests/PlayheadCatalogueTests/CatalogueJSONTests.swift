import Foundation
import PlayheadCore
import Testing

/// Playback API documents written by hand in the API's shape: every field read, the lenient cases
/// accepted, and each wrong shape named by its JSON path.
@Suite struct CatalogueJSONTests {
    static let url = "https://edge.api.brightcove.com/playback/v1/accounts/57838016001/videos/6140000000001"

    /// A video as the Playback API returns it: HLS over HTTP listed before HLS over HTTPS, MP4 and DASH
    /// (with key systems), text tracks, cue points, custom fields, tags; fields Playhead does not read.
    static let video = #"""
    {
      "description": "A test video",
      "poster_sources": [{"src": "http://cf-images.example/poster.jpg"}, {"src": "https://cf-images.example/poster.jpg"}],
      "tags": ["sports", "demo"],
      "cue_points": [
        {"id": "cp1", "name": "preroll", "type": "AD", "time": 0, "metadata": null, "force_stop": false},
        {"id": "cp2", "name": "chapter 2", "type": "CODE", "time": 12.5, "metadata": "chapter=2", "force_stop": true}
      ],
      "custom_fields": {"bumper_id": "6140000000999", "season": 3, "featured": true},
      "account_id": "57838016001",
      "sources": [
        {"codecs": "avc1,mp4a", "ext_x_version": "4", "src": "http://manifest.prod.boltdns.net/manifest/v1/hls/v4/clear/57838016001/a/master.m3u8", "type": "application/x-mpegURL", "container": "M2TS"},
        {"codecs": "avc1,mp4a", "ext_x_version": "4", "src": "https://manifest.prod.boltdns.net/manifest/v1/hls/v4/clear/57838016001/a/master.m3u8", "type": "application/x-mpegURL", "container": "M2TS"},
        {"codecs": "avc1,mp4a", "profiles": "urn:mpeg:dash:profile:isoff-live:2011", "src": "https://manifest.prod.boltdns.net/manifest/v1/dash/live-baseurl/bccenc/57838016001/a/manifest.mpd", "type": "application/dash+xml", "container": "MP4",
         "key_systems": {"com.widevine.alpha": {"license_url": "https://manifest.prod.boltdns.net/license/v1/cenc/widevine/57838016001/a"}, "com.microsoft.playready": {"license_url": "https://pr.example/rightsmanager.asmx"}}},
        {"avg_bitrate": 1232000, "width": 960, "src": "https://bcbolt-a.akamaihd.net/media/v1/pmp4/a.mp4", "size": 4620000, "height": 540, "duration": 30016, "container": "MP4", "codec": "H264"},
        {"container": "MP4", "codec": "H264", "size": 120000, "width": 320, "height": 180}
      ],
      "name": "Test Video",
      "reference_id": "test-video-1",
      "long_description": null,
      "duration": 30016,
      "economics": "AD_SUPPORTED",
      "text_tracks": [
        {"id": "tt1", "account_id": "57838016001", "src": "http://text.example/en.vtt", "srclang": "en", "label": "English", "kind": "captions", "mime_type": "text/webvtt", "asset_id": null,
         "sources": [{"src": "http://text.example/en.vtt"}, {"src": "https://text.example/en.vtt"}], "default": true},
        {"id": "tt2", "src": "https://text.example/thumbs.vtt", "srclang": null, "label": "thumbnails", "kind": "metadata", "mime_type": "text/vtt", "sources": []}
      ],
      "published_at": "2023-05-02T10:00:00.000Z",
      "id": "6140000000001",
      "thumbnail": "https://cf-images.example/thumb.jpg",
      "poster": "https://cf-images.example/poster.jpg",
      "offline_enabled": false,
      "link": null
    }
    """#

    @Test func readsEveryFieldOfAVideo() throws {
        let video = try CatalogueJSON.video(from: Array(Self.video.utf8), url: Self.url)
        #expect(video.id == "6140000000001")
        #expect(video.referenceId == "test-video-1")
        #expect(video.accountId == "57838016001")
        #expect(video.name == "Test Video")
        #expect(video.description == "A test video")
        #expect(video.longDescription == nil)
        #expect(video.durationSeconds == 30.016)
        #expect(video.posterURL == "https://cf-images.example/poster.jpg")
        #expect(video.thumbnailURL == "https://cf-images.example/thumb.jpg")
        #expect(video.posterSources == ["http://cf-images.example/poster.jpg", "https://cf-images.example/poster.jpg"])
        #expect(video.tags == ["sports", "demo"])
        #expect(video.customFields == ["bumper_id": "6140000000999", "season": "3", "featured": "true"])
        #expect(video.bumperId == "6140000000999")

        #expect(video.sources.count == 5)
        #expect(video.sources.map(\.delivery) == [.hls, .hls, .dash, .mp4, .other])  // the last has no URL
        #expect(video.sources[1].scheme == "https" && video.sources[0].scheme == "http")
        #expect(video.sources[0].codecs == "avc1,mp4a" && video.sources[0].container == "M2TS" && video.sources[0].hlsVersion == "4")
        #expect(video.sources[2].keySystems.map(\.name) == ["com.microsoft.playready", "com.widevine.alpha"])
        #expect(video.sources[2].keySystems[1].licenseURL == "https://manifest.prod.boltdns.net/license/v1/cenc/widevine/57838016001/a")
        #expect(video.sources[2].isProtected && !video.sources[1].isProtected)
        #expect(video.sources[3].width == 960 && video.sources[3].height == 540 && video.sources[3].averageBitrate == 1_232_000)
        #expect(video.sources[3].codecs == "H264")
        #expect(video.sources[4].src == nil)

        #expect(video.textTracks.count == 2)
        #expect(video.textTracks[0] == CatalogueTextTrack(id: "tt1", src: "http://text.example/en.vtt", sources: ["http://text.example/en.vtt", "https://text.example/en.vtt"],
                                                          language: "en", label: "English", kind: "captions", mimeType: "text/webvtt", isDefault: true))
        #expect(video.textTracks[1].kind == "metadata" && video.textTracks[1].language == nil && !video.textTracks[1].isDefault)

        #expect(video.cuePoints == [
            CatalogueCuePoint(id: "cp1", name: "preroll", type: "AD", timeSeconds: 0),
            CatalogueCuePoint(id: "cp2", name: "chapter 2", type: "CODE", timeSeconds: 12.5, metadata: "chapter=2", forceStop: true),
        ])
    }

    @Test func aMinimalVideoAndNumericIdsAreAccepted() throws {
        let video = try CatalogueJSON.video(from: Array(#"{"id": 42, "sources": null, "custom_fields": null}"#.utf8), url: "u")
        #expect(video.id == "42")
        #expect(video.sources.isEmpty && video.textTracks.isEmpty && video.cuePoints.isEmpty && video.customFields.isEmpty)
        #expect(video.name == nil && video.durationSeconds == nil && video.bumperId == nil)
    }

    @Test func readsAPlaylistPage() throws {
        let document = #"""
        {"id": "5555", "account_id": "1", "name": "Top", "reference_id": "top", "type": "EXPLICIT", "description": null, "count": 7,
         "videos": [{"id": "a", "name": "A"}, {"id": "b", "name": "B", "sources": [{"type": "application/x-mpegURL", "src": "https://x/b.m3u8"}]}]}
        """#
        let playlist = try CatalogueJSON.playlist(from: Array(document.utf8), url: "u", limit: 2, offset: 4)
        #expect(playlist.id == "5555" && playlist.referenceId == "top" && playlist.name == "Top" && playlist.type == "EXPLICIT")
        #expect(playlist.videos.map(\.id) == ["a", "b"])
        #expect(playlist.count == 7 && playlist.limit == 2 && playlist.offset == 4)
        #expect(playlist.hasMore == true)
        let last = try CatalogueJSON.playlist(from: Array(document.utf8), url: "u", limit: 2, offset: 5)
        #expect(last.hasMore == false)
    }

    /// Each malformed document fails naming the JSON path of what is wrong and the URL.
    @Test(arguments: [
        (#"{"name": "no id"}"#, "$.id", "missing"),
        (#"{"id": ""}"#, "$.id", "empty"),
        (#"{"id": "1", "sources": {"src": "x"}}"#, "$.sources", "expected an array, found an object"),
        (#"{"id": "1", "sources": [{"src": "a"}, {"src": 7}]}"#, "$.sources[1].src", "expected text, found a number"),
        (#"{"id": "1", "sources": ["http://a.m3u8"]}"#, "$.sources[0]", "expected an object, found text"),
        (#"{"id": "1", "cue_points": [{"name": "x"}]}"#, "$.cue_points[0].time", "needs its time"),
        (#"{"id": "1", "cue_points": [{"time": "soon"}]}"#, "$.cue_points[0].time", "expected a number, found text"),
        (#"{"id": "1", "duration": true}"#, "$.duration", "expected a number, found a boolean"),
        (#"{"id": "1", "text_tracks": [{"default": "yes"}]}"#, "$.text_tracks[0].default", "expected a boolean"),
        (#"{"id": "1", "custom_fields": {"a": [1]}}"#, "$.custom_fields.a", "must be text, a number or a boolean"),
        (#"{"id": "1", "tags": ["a", null]}"#, "$.tags[1]", "missing"),
        (#"[1, 2]"#, "$", "expected an object, found an array"),
        (#"{"id": "1", "#, "$", "not JSON"),
        // Foundation's parser takes a comma before `]` (QA43 #4: the video was played, exit 0).
        (#"{"id": "1", "sources": [{"src": "a.m3u8"},]}"#, "$", "not JSON (it goes wrong at line 1, column 42 (byte offset 41): a comma before ']')"),
        ("", "$", "empty"),
    ])
    func malformedDocumentsNameTheirPath(document: String, path: String, problem: String) {
        do {
            _ = try CatalogueJSON.video(from: Array(document.utf8), url: "http://svc/v/1")
            Issue.record("\(document) parsed")
        } catch {
            guard case let .malformed(url, foundPath, foundProblem) = error else { Issue.record("\(error)"); return }
            #expect(url == "http://svc/v/1")
            #expect(foundPath == path, "\(document): \(error)")
            #expect(foundProblem.contains(problem), "\(document): \(error)")
            #expect(error.description.hasPrefix("http://svc/v/1: \(path): "))
        }
    }

    /// A malformed entry is named by its index and path, and skipped; the others are kept; a playlist that is
    /// itself malformed (its videos not an array) still fails.
    @Test func playlistVideosAreNamedByTheirIndex() throws {
        let document = #"{"id": "p", "videos": [{"id": "a"}, {"id": "b", "sources": [{"type": 3}]}]}"#
        let playlist = try CatalogueJSON.playlist(from: Array(document.utf8), url: "u", offset: 10)
        #expect(playlist.videos.map(\.id) == ["a"])
        #expect(playlist.skipped == [CatalogueSkippedVideo(index: 11, id: "b", reason: "u: $.videos[1].sources[0].type: expected text, found a number")])
        #expect(playlist.entryCount == 2)
        #expect(throws: CatalogueError.malformed(url: "u", path: "$.videos", problem: "expected an array, found a number")) {
            try CatalogueJSON.playlist(from: Array(#"{"id": "p", "videos": 3}"#.utf8), url: "u")
        }
    }

    @Test func errorArraysAreRead() {
        let entry = CatalogueJSON.errorEntry(from: Array(#"[{"error_code": "VIDEO_NOT_FOUND", "message": "The designated resource was not found."}]"#.utf8))
        #expect(entry?.code == "VIDEO_NOT_FOUND" && entry?.message == "The designated resource was not found." && entry?.subcode == nil)
        let single = CatalogueJSON.errorEntry(from: Array(#"{"error_code": "ACCESS_DENIED", "error_subcode": "TOKEN_REQUIRED"}"#.utf8))
        #expect(single?.code == "ACCESS_DENIED" && single?.subcode == "TOKEN_REQUIRED")
        #expect(CatalogueJSON.errorEntry(from: Array("<html>502</html>".utf8)) == nil)
        // Strictly JSON, as every answer (QA46 #6: a comma before "]" was taken).
        #expect(CatalogueJSON.errorEntry(from: Array(#"[{"error_code": "ACCESS_DENIED"},]"#.utf8)) == nil)
        #expect(CatalogueJSON.errorEntry(from: Array("[]".utf8)) == nil)
    }
}

/// The source selection policy: the seed's default (first HLS, HTTPS preferred), configurable, and a
/// clear error when only MP4 or DASH (or DRM-protected HLS) exist.
@Suite struct SourceSelectionTests {
    static func video(_ sources: [CatalogueSource]) -> CatalogueVideo { CatalogueVideo(id: "v1", sources: sources) }
    static let hlsHTTP = CatalogueSource(src: "http://a/master.m3u8", type: "application/x-mpegURL")
    static let hlsHTTPS = CatalogueSource(src: "https://a/master.m3u8", type: "application/x-mpegURL")
    static let hlsHTTPS2 = CatalogueSource(src: "https://b/master.m3u8", type: "application/vnd.apple.mpegurl")
    static let mp4 = CatalogueSource(src: "https://a/v.mp4", type: "video/mp4")
    static let dash = CatalogueSource(src: "https://a/m.mpd", type: "application/dash+xml")
    static let fairplay = CatalogueSource(src: "https://a/fps.m3u8", type: "application/x-mpegURL", keySystems: [CatalogueKeySystem(name: "com.apple.fps.1_0")])

    @Test func theDefaultTakesTheFirstHLSSourceOverHTTPS() throws {
        let policy = SourceSelectionPolicy.default
        #expect(try policy.select(from: Self.video([Self.mp4, Self.hlsHTTP, Self.hlsHTTPS, Self.hlsHTTPS2])) == Self.hlsHTTPS)
        // No HTTPS one: the first HLS source.
        #expect(try policy.select(from: Self.video([Self.dash, Self.hlsHTTP])) == Self.hlsHTTP)
        // Both MIME spellings and an extension without a type are HLS.
        let untyped = CatalogueSource(src: "https://c/index.m3u8?token=1")
        #expect(untyped.delivery == .hls)
        #expect(try policy.select(from: Self.video([Self.mp4, untyped])) == untyped)
        #expect(try policy.select(from: Self.video([Self.hlsHTTPS2])) == Self.hlsHTTPS2)
    }

    @Test func theSchemeIsConfigurable() throws {
        let sources = [Self.hlsHTTPS, Self.hlsHTTP]
        #expect(try SourceSelectionPolicy.hls(scheme: "http").select(from: Self.video(sources)) == Self.hlsHTTP)
        #expect(try SourceSelectionPolicy(preferredScheme: nil).select(from: Self.video([Self.hlsHTTP, Self.hlsHTTPS])) == Self.hlsHTTP)
    }

    @Test func drmProtectedHLSIsPassedOver() throws {
        #expect(try SourceSelectionPolicy.default.select(from: Self.video([Self.fairplay, Self.hlsHTTP])) == Self.hlsHTTP)
        #expect(try SourceSelectionPolicy(allowsProtected: true).select(from: Self.video([Self.fairplay, Self.hlsHTTP])) == Self.fairplay)
        do {
            _ = try SourceSelectionPolicy.default.select(from: Self.video([Self.fairplay, Self.mp4]))
            Issue.record("a FairPlay-only video was given a source")
        } catch {
            #expect(error.description.contains("every HLS source needs DRM (com.apple.fps.1_0)"), "\(error)")
        }
    }

    @Test func mp4OrDashAloneIsAClearError() {
        do {
            _ = try SourceSelectionPolicy.default.select(from: Self.video([Self.mp4, Self.dash]))
            Issue.record("an MP4/DASH video was given a source")
        } catch {
            guard case let .noPlayableSource(id, reason, offered) = error else { Issue.record("\(error)"); return }
            #expect(id == "v1")
            #expect(reason.contains("no HLS source (only MP4 and DASH"), "\(reason)")
            #expect(offered == ["video/mp4 https://a/v.mp4", "application/dash+xml https://a/m.mpd"])
        }
        #expect(throws: CatalogueError.noPlayableSource(videoId: "v1", reason: "no source has a URL", offered: [])) {
            try SourceSelectionPolicy.default.select(from: Self.video([]))
        }
        // An HLS source without a URL cannot be chosen.
        #expect(throws: CatalogueError.self) {
            try SourceSelectionPolicy.default.select(from: Self.video([CatalogueSource(src: nil, type: "application/x-mpegURL")]))
        }
    }

    @Test func aQueueItemFromAVideoCarriesTheChoiceOrTheReason() {
        let good = QueueItem.video(CatalogueVideo(id: "7", name: "Seven", sources: [Self.hlsHTTP, Self.hlsHTTPS]))
        #expect(good.url == "https://a/master.m3u8" && good.videoId == "7" && good.title == "bc:7 (Seven)" && good.failure == nil)
        let bad = QueueItem.video(CatalogueVideo(id: "8", sources: [Self.mp4]))
        #expect(bad.url == nil && bad.failure?.contains("no HLS source") == true)
    }
}
