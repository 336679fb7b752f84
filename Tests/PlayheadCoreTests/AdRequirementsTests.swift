import PlayheadCore
import PlayheadHLS
import Testing

/// The guide's advertising requirements: one test per code, each nested as the tables say, and the
/// choice of the ad rendition matching the content's bitrate.
@Suite struct AdRequirementsTests {
    static func parse(_ text: String) -> Playlist { try! Playlist.parse(text).playlist }

    static func media(version: Int = 3, target: Int = 6, segments: [Double] = [6, 6]) -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:\(version)\n#EXT-X-TARGETDURATION:\(target)\n"
        for (index, duration) in segments.enumerated() { text += "#EXTINF:\(duration),\ns\(index).ts\n" }
        return parse(text + "#EXT-X-ENDLIST\n").media!
    }

    static func multivariant(_ bandwidths: [Int], audioOnly: Bool = false, alternateAudio: Bool = false, version: Int = 3) -> MultivariantPlaylist {
        var text = "#EXTM3U\n#EXT-X-VERSION:\(version)\n"
        if alternateAudio { text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"en\",URI=\"en.m3u8\"\n" }
        for bandwidth in bandwidths {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=640x360\nv\(bandwidth).m3u8\n"
        }
        if audioOnly { text += "#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n" }
        return parse(text).multivariant!
    }

    let content = HLSStreamProfile(multivariant: multivariant([800_000, 1_600_000, 3_000_000]), mediaPlaylists: [media()], url: "content.m3u8")

    func ad(_ bandwidths: [Int] = [800_000, 1_600_000, 3_000_000], audioOnly: Bool = false, version: Int = 3, target: Int = 6,
            segments: [Double] = [6, 4]) -> HLSStreamProfile {
        HLSStreamProfile(multivariant: Self.multivariant(bandwidths, audioOnly: audioOnly, version: version),
                         mediaPlaylists: [Self.media(version: version, target: target, segments: segments)], url: "ad.m3u8")
    }

    @Test func aConformingAdPasses() {
        let result = AdRequirements.check(ad: ad(), content: content, contentBitsPerSecond: 1_600_000)
        #expect(result.canInsert && result.notifications.isEmpty)
        #expect(result.matchingVariant?.bandwidth == 1_600_000)
    }

    @Test func adVersionAboveTheContentsGives170000() {
        let result = AdRequirements.check(ad: ad(version: 6), content: content, contentBitsPerSecond: 1_600_000, breakId: "b", adId: "a")
        #expect(result.codes == [.adVersionIncompatible])
        #expect(chain(result.notifications[0]) == [170_000, 104_005, 270_001])
        #expect(result.notifications[0][.description] == "ad HLS version 6 is above the content's 3")
        #expect(result.notifications[0][.adId] == "a" && result.notifications[0][.breakId] == "b")
        #expect(result.notifications[0][.url] == "ad.m3u8" && result.notifications[0][.vastErrorCode] == "403")
    }

    /// Like with like: an ad whose multivariant playlist says 6 over media playlists of 3 fits a content
    /// played from its version-3 media playlist; it was rejected, so no stock ad fitted a media-playlist URL.
    @Test func versionsAreComparedLikeWithLike() {
        let adTop6 = HLSStreamProfile(multivariant: Self.multivariant([1_600_000], version: 6), mediaPlaylists: [Self.media(version: 3)])
        let mediaOnly = HLSStreamProfile(playlist: .media(Self.media(version: 3)))
        #expect(AdRequirements.check(ad: adTop6, content: mediaOnly, contentBitsPerSecond: nil).canInsert)
        // Against a content multivariant playlist of version 3, its 6 is above.
        let result = AdRequirements.check(ad: adTop6, content: content, contentBitsPerSecond: 1_600_000)
        #expect(result.codes == [.adVersionIncompatible])
        #expect(result.notifications.first?[.description] == "ad multivariant playlist version 6 is above the content's 3")
    }

    @Test func adTargetDurationAboveTheContentsGives170011() {
        let result = AdRequirements.check(ad: ad(target: 10, segments: [10, 10]), content: content, contentBitsPerSecond: 1_600_000)
        #expect(result.codes == [.adTargetDurationTooLong])
        #expect(chain(result.notifications[0]) == [170_011, 104_005, 270_001])
        // A segment longer than the content's target duration, under a target duration that lies, also fails.
        let lying = AdRequirements.check(ad: ad(target: 6, segments: [6, 8]), content: content, contentBitsPerSecond: 1_600_000)
        #expect(lying.codes == [.adTargetDurationTooLong])
    }

    @Test func missingAudioOnlyWhereRequiredGives270002() {
        let withAudioOnly = HLSStreamProfile(multivariant: Self.multivariant([800_000, 1_600_000], audioOnly: true), mediaPlaylists: [Self.media()])
        let result = AdRequirements.check(ad: ad(), content: withAudioOnly, contentBitsPerSecond: 800_000)
        #expect(result.codes == [.adHlsAudioOnlyMissing])
        #expect(chain(result.notifications[0]) == [270_002, 270_001])
        #expect(result.notifications[0].type == .warning)
        #expect(AdRequirements.check(ad: ad(audioOnly: true), content: withAudioOnly, contentBitsPerSecond: 800_000).canInsert)
        let alternate = HLSStreamProfile(multivariant: Self.multivariant([800_000], alternateAudio: true), mediaPlaylists: [Self.media()])
        #expect(AdRequirements.check(ad: ad(), content: alternate, contentBitsPerSecond: 800_000).codes == [.adHlsAudioOnlyMissing])
        // Not required for content without audio-only or alternate audio, unless asked.
        #expect(AdRequirements.check(ad: ad(), content: content, contentBitsPerSecond: 800_000).canInsert)
        #expect(AdRequirements.check(ad: ad(), content: content, contentBitsPerSecond: 800_000,
                                     options: .init(alwaysRequireAudioOnly: true)).codes == [.adHlsAudioOnlyMissing])
    }

    @Test func noAdVariantNearTheContentBitrateGives270003() {
        let result = AdRequirements.check(ad: ad([500_000, 2_400_000]), content: content, contentBitsPerSecond: 1_600_000)
        #expect(result.codes == [.adHlsMatchingBitrateMissing])
        #expect(chain(result.notifications[0]) == [270_003, 270_001])
        #expect(result.notifications[0][.description] == "no ad variant within 10 % of the content's 1600000 bit/s (ad offers 500000, 2400000)")
        #expect(result.matchingVariant == nil)
        // A single-playlist ad cannot match multi-bitrate content, but may go into single-bitrate content.
        let single = HLSStreamProfile(playlist: .media(Self.media()))
        #expect(AdRequirements.check(ad: single, content: content, contentBitsPerSecond: 1_600_000).codes == [.adHlsMatchingBitrateMissing])
        let singleContent = HLSStreamProfile(playlist: .media(Self.media()))
        #expect(AdRequirements.check(ad: single, content: singleContent, contentBitsPerSecond: 1_600_000).canInsert)
    }

    @Test func everyFailedRequirementIsReportedInTheTablesOrder() {
        let result = AdRequirements.check(ad: ad([5_000_000], version: 7, target: 12, segments: [12]),
                                          content: HLSStreamProfile(multivariant: Self.multivariant([1_600_000], audioOnly: true),
                                                                    mediaPlaylists: [Self.media()]),
                                          contentBitsPerSecond: 1_600_000)
        #expect(result.codes == [.adVersionIncompatible, .adTargetDurationTooLong, .adHlsAudioOnlyMissing, .adHlsMatchingBitrateMissing])
    }

    @Test func matchingRenditionIsTheClosestWithinTheTolerance() {
        let offered = ad([700_000, 760_000, 850_000, 1_700_000, 2_000_000])
        #expect(AdRequirements.matchingVariant(ad: offered, contentBitsPerSecond: 800_000)?.bandwidth == 760_000)
        #expect(AdRequirements.matchingVariant(ad: offered, contentBitsPerSecond: 1_600_000)?.bandwidth == 1_700_000)
        #expect(AdRequirements.matchingVariant(ad: offered, contentBitsPerSecond: 1_600_000, tolerance: 0.05) == nil)
        #expect(AdRequirements.matchingVariant(ad: ad([750_000, 850_000]), contentBitsPerSecond: 800_000)?.bandwidth == 750_000, "ties go to the lower")
        #expect(AdRequirements.matchingVariant(ad: ad([800_000], audioOnly: true), contentBitsPerSecond: 64_000) == nil, "audio-only never matches video")
    }

    func chain(_ notification: PlayerNotification) -> [Int] {
        var codes = [notification.code.code]
        var inner = notification.innerNotification
        while let next = inner { codes.append(next.code.code); inner = next.innerNotification }
        return codes
    }
}
