import PlayheadAds
import Testing

@Suite("VASTResolver")
struct ResolverTests {
    func chain(wrappers: Int, tags: [String]? = nil, media: [(mime: String, url: String)] = [Build.hls]) throws -> [VASTDocument] {
        var documents: [VASTDocument] = []
        for level in 0..<wrappers {
            documents.append(try Build.parse(Build.wrapperXML(tag: tags?[level] ?? "https://tag.example/\(level + 1)", level: level)))
        }
        documents.append(try Build.parse(Build.vast(Build.inlineXML(media: media))))
        return documents
    }

    @Test("three wrapper levels merge impressions, errors, tracking and clicks, outermost first")
    func threeLevels() throws {
        let resolution = try VASTResolver.resolve(chain: try chain(wrappers: 3), initialTagURI: "https://tag.example/0")
        #expect(resolution.warnings.isEmpty)
        let resolved = try #require(resolution.ads.first)
        #expect(resolution.ads.count == 1)
        #expect(resolved.wrapperDepth == 3)
        let inline = try #require(resolved.ad.inline)
        #expect(inline.impressions.map(\.url) == ["https://w0.example/imp", "https://w1.example/imp", "https://w2.example/imp",
                                                  "https://inline.example/final/imp"])
        #expect(inline.errorURLs.count == 4)
        #expect(resolved.linear.trackingEvents.urls(for: "start") == ["https://w0.example/start", "https://w1.example/start",
                                                                      "https://w2.example/start", "https://inline.example/start"])
        #expect(resolved.linear.trackingEvents.filter { $0.event == "progress" }.map(\.offset) == Array(repeating: .seconds(5), count: 3))
        #expect(resolved.linear.videoClicks.clickTracking.map(\.id) == ["c0", "c1", "c2", nil])
        #expect(resolved.linear.videoClicks.clickThrough?.url == "https://advertiser.example/")
        #expect(resolved.linear.durationSeconds == 20.5)
        #expect(resolved.linear.skipOffsetSeconds == 5.125)
        #expect(resolved.media.url == Build.hls.url)
        let companion = try #require(inline.creatives.flatMap(\.companionAds).first)
        #expect(companion.trackingEvents.urls(for: "creativeView").count == 4)
    }

    @Test("five wrappers are followed, a sixth exceeds the depth limit")
    func depthLimit() throws {
        #expect(VASTResolver.maxWrapperDepth == 5)
        #expect(try VASTResolver.resolve(chain: try chain(wrappers: 5)).ads.count == 1)
        #expect(throws: VASTResolveError.wrapperDepthExceeded(limit: 5, tagURI: "https://tag.example/6")) {
            try VASTResolver.resolve(chain: try chain(wrappers: 6))
        }
    }

    @Test("the same tag URI twice is a loop, including the initial request")
    func loops() throws {
        let tags = ["https://a.example", "https://b.example", "https://a.example"]
        #expect(throws: VASTResolveError.wrapperLoop(tagURI: "https://a.example", firstDepth: 1, repeatDepth: 3)) {
            try VASTResolver.resolve(chain: try chain(wrappers: 3, tags: tags))
        }
        #expect(throws: VASTResolveError.wrapperLoop(tagURI: "https://start.example", firstDepth: 0, repeatDepth: 1)) {
            try VASTResolver.resolve(chain: try chain(wrappers: 1, tags: ["https://start.example"]), initialTagURI: "https://start.example")
        }
    }

    @Test("HLS media is preferred over MP4; an MP4-only ad is skipped with a warning")
    func mediaSelection() throws {
        let mixed = try VASTResolver.resolve(chain: try chain(wrappers: 0, media: [Build.mp4, Build.hls]))
        #expect(mixed.ads.first?.media.mimeType == "application/x-mpegURL")
        let byExtension = VASTMediaSelector.select([VASTMediaFile(url: "https://x.example/a.mp4", mimeType: "video/mp4"),
                                                     VASTMediaFile(url: "https://x.example/b.M3U8?t=1", mimeType: nil)])
        #expect(byExtension == .hls(VASTMediaFile(url: "https://x.example/b.M3U8?t=1")))
        #expect(VASTMediaFile(url: "u", mimeType: "application/vnd.apple.mpegurl").isHLS)
        let mp4Only = try VASTResolver.resolve(chain: try chain(wrappers: 1, media: [Build.mp4]))
        #expect(mp4Only.ads.isEmpty)
        #expect(mp4Only.warnings == [VASTResolveWarning(adId: "final", message: "skipped: no HLS media file (found video/mp4)")])
    }

    @Test("chain failures are typed: empty chain, no ads, chain ending on a wrapper, forbidden wrapper")
    func failures() throws {
        #expect(throws: VASTResolveError.emptyChain) { try VASTResolver.resolve(chain: []) }
        let wrapper = try Build.parse(Build.wrapperXML(tag: "https://t.example/1", level: 0))
        let empty = try Build.parse("<VAST version=\"3.0\"><Error>https://root.example/e</Error></VAST>")
        #expect(throws: VASTResolveError.noAds(errorURLs: ["https://w0.example/error?c=[ERRORCODE]", "https://root.example/e"])) {
            try VASTResolver.resolve(chain: [wrapper, empty])
        }
        #expect(throws: VASTResolveError.unresolvedWrapper(tagURI: "https://t.example/1", depth: 0)) {
            try VASTResolver.resolve(chain: [wrapper])
        }
        let noFollow = try Build.parse(Build.wrapperXML(tag: "https://t.example/a", level: 0, follow: false))
        let second = try Build.parse(Build.wrapperXML(tag: "https://t.example/b", level: 1))
        let final = try Build.parse(Build.vast(Build.inlineXML(media: [Build.hls])))
        #expect(throws: VASTResolveError.additionalWrapperNotAllowed(depth: 2)) {
            try VASTResolver.resolve(chain: [noFollow, second, final])
        }
        #expect(VASTResolveError.wrapperDepthExceeded(limit: 5, tagURI: "x").vastErrorCode == 302)
    }

    @Test("allowMultipleAds=false keeps one ad of a pod")
    func allowMultipleAds() throws {
        let wrapper = try Build.parse(Build.wrapperXML(tag: "https://t.example/1", level: 0))
        let pod = try Build.parse(Build.vast(Build.inlineXML(id: "a", media: [Build.hls], sequence: 1),
                                             Build.inlineXML(id: "b", media: [Build.hls], sequence: 2)))
        let trimmed = try VASTResolver.resolve(chain: [wrapper, pod])
        #expect(trimmed.ads.map(\.ad.id) == ["a"])
        #expect(trimmed.warnings.count == 1)
        let allowing = try Build.parse(Build.wrapperXML(tag: "https://t.example/1", level: 0, allowMultiple: true))
        #expect(try VASTResolver.resolve(chain: [allowing, pod]).ads.map(\.ad.sequence) == [1, 2])
    }
}
