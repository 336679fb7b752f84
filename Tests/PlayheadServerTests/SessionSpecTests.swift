import Foundation
import PlayheadCore
@testable import PlayheadServer
import Testing

/// The spec parser: defaults, every field read, and the field named in each error.
@Suite struct SessionSpecTests {
    func parse(_ json: String) throws -> SessionSpec { try SessionSpec.parse(Data(json.utf8)) }

    @Test func onlyTheURLIsRequired() throws {
        let spec = try parse(#"{"url": "https://example.com/master.m3u8"}"#)
        #expect(spec == SessionSpec(url: "https://example.com/master.m3u8"))
        #expect(spec.clock == .real && spec.rate == 1 && spec.autoplay)
    }

    @Test func everyFieldIsRead() throws {
        let spec = try parse("""
        {"url": "http://127.0.0.1:8080/a.m3u8", "clock": "virtual", "mode": "demux",
         "abr": {"maxBitsPerSecond": 2000000, "minBufferSeconds": 4, "maxBufferSeconds": 20},
         "ads": {"enabled": true, "adTagURL": "http://127.0.0.1:8080/vmap.xml"}, "subscribedTags": ["#EXT-X-DATERANGE"],
         "dump": {"frameEvents": true}, "durationSeconds": 12.5, "startSeconds": 3, "rate": 2, "autoplay": false,
         "bandwidthMegabitsPerSecond": 8}
        """)
        #expect(spec.clock == .virtual && spec.mode == .demux && spec.abr.maxBitsPerSecond == 2_000_000)
        #expect(spec.ads.enabled && spec.subscribedTags == ["#EXT-X-DATERANGE"] && spec.dump.frameEvents)
        #expect(spec.durationSeconds == 12.5 && spec.startSeconds == 3 && spec.rate == 2 && !spec.autoplay)
        let configuration = spec.playerConfiguration
        #expect(configuration.buffer.minimumSeconds == 4 && configuration.buffer.maximumSeconds == 20 && configuration.perFrameEvents)
        #expect(configuration.subscribedTags == ["#EXT-X-DATERANGE"])
    }

    /// `keys` (custom key delivery, as play --key) become the configuration's key provider.
    @Test func keysAreRead() async throws {
        let spec = try parse(#"{"url": "http://h/a.m3u8", "keys": [{"uri": "skd://asset-1", "key": "0x000102030405060708090A0B0C0D0E0F"}]}"#)
        #expect(spec.keys == [SessionKey(uri: "skd://asset-1", key: "0x000102030405060708090A0B0C0D0E0F")])
        let provider = try #require(spec.playerConfiguration.keyProvider)
        let request = KeyRequest(uri: "skd://asset-1", url: "skd://asset-1", method: "SAMPLE-AES", keyFormat: "com.apple.streamingkeydelivery",
                                 keyFormatVersions: "1", resourceURL: "http://h/s0.ts")
        #expect(try await provider.key(for: request) == Array(0..<16))
        #expect(try parse(#"{"url": "http://h/a.m3u8"}"#).playerConfiguration.keyProvider == nil)
        #expect(try JSONDecoder().decode(SessionSpec.self, from: JSONEncoder().encode(spec)) == spec)
    }

    @Test func subtitleFieldsAreRead() throws {
        let spec = try parse(#"{"url": "http://h/a.m3u8", "subtitles": "fr", "sidecarSubtitles": [{"url": "http://h/s.vtt", "language": "de", "name": "Deutsch"}]}"#)
        #expect(spec.subtitles == .track("fr"))
        #expect(try parse(#"{"url": "http://h/a.m3u8", "audio": "de"}"#).playerConfiguration.audio == .track("de"))
        #expect(spec.playerConfiguration.audio == .automatic)
        #expect(spec.sidecarSubtitles == [SidecarSubtitle(url: "http://h/s.vtt", language: "de", name: "Deutsch")])
        let configuration = spec.playerConfiguration
        #expect(configuration.subtitles == .track("fr") && configuration.sidecarSubtitles.first?.option.name == "Deutsch")
        #expect(try parse(#"{"url": "http://h/a.m3u8", "subtitles": "off"}"#).playerConfiguration.subtitles == .off)
        #expect(try parse(#"{"url": "http://h/a.m3u8"}"#).playerConfiguration.subtitles == .automatic)
        // Stored specs are JSON: the new fields round-trip, and a spec stored before them still reads.
        let stored = try JSONDecoder().decode(SessionSpec.self, from: JSONEncoder().encode(spec))
        #expect(stored == spec)
        var old = try JSONSerialization.jsonObject(with: JSONEncoder().encode(SessionSpec(url: "http://h/a.m3u8"))) as? [String: Any] ?? [:]
        old["subtitles"] = nil
        old["sidecarSubtitles"] = nil
        #expect(try JSONDecoder().decode(SessionSpec.self, from: JSONSerialization.data(withJSONObject: old)).url == "http://h/a.m3u8")
    }

    @Test func blackoutFieldsAreRead() throws {
        let spec = try parse(##"{"url": "http://h/a.m3u8", "blackout": {"tag": "#EXT-X-BLACKOUT", "alternateURL": "http://h/slate.m3u8"}}"##)
        #expect(spec.blackout == BlackoutSettings(tag: "#EXT-X-BLACKOUT", alternateURL: "http://h/slate.m3u8"))
        #expect(spec.playerConfiguration.blackout == spec.blackout)
        #expect(try JSONDecoder().decode(SessionSpec.self, from: JSONEncoder().encode(spec)) == spec)
        #expect(try parse(#"{"url": "http://h/a.m3u8"}"#).playerConfiguration.blackout == nil)
    }

    @Test func ssaiFieldsAreRead() throws {
        let spec = try parse(#"{"url": "http://h/a.m3u8", "ssai": {"trackingURL": "http://h/t.json"}}"#)
        #expect(spec.ssai == SSAISettings(trackingURL: "http://h/t.json"))
        #expect(spec.playerConfiguration.ssai == spec.ssai)
        #expect(try JSONDecoder().decode(SessionSpec.self, from: JSONEncoder().encode(spec)) == spec)
        #expect(try parse(#"{"url": "http://h/a.m3u8", "ssai": {}}"#).playerConfiguration.ssai == SSAISettings())
        #expect(try parse(#"{"url": "http://h/a.m3u8"}"#).playerConfiguration.ssai == nil)
    }

    @Test func errorsNameTheField() {
        let cases: [(String, String?)] = [
            (#"[1, 2]"#, nil), (#"{"url": "http://h/a", "abr": {"variant": 1.5}}"#, "abr.variant"),
            (#"{"url": "http://h/a", "abr": {"variant": 1, "maxBitsPerSecond": 5}}"#, "abr.maxBitsPerSecond"),
            (#"{"url": "http://h/a", "ads": {"adTagURL": "javascript:x"}}"#, "ads.adTagURL"),
            (#"{"url": "http://h/a", "rate": -1}"#, "rate"), (#"{"url": "http://h/a", "dump": []}"#, "dump"),
            (#"{"url": "http://h/a", "rate": 0.005}"#, "rate"), (#"{"url": "http://h/a", "rate": 1000}"#, "rate"),
            (#"{"url": "http://h/a", "durationSeconds": 1e12}"#, "durationSeconds"),
            (#"{"url": "http://h/a", "startSeconds": 1e12}"#, "startSeconds"),
            (#"{"url": "http://h/a", "bandwidthMegabitsPerSecond": 1e300}"#, "bandwidthMegabitsPerSecond"),
            (#"{"url": "http://h/a", "rate": 1e400}"#, "rate"), (#"{"url": "http://h/a", "abr": {"variant": -1e999}}"#, "abr.variant"),
            (##"{"url": "http://h/a", "subscribedTags": ["#EXT-X-CUE", "EXT-X-FOO"]}"##, "subscribedTags[1]"),
            (##"{"url": "http://h/a", "subscribedTags": ["#"]}"##, "subscribedTags[0]"),
            (##"{"url": "http://h/a", "subscribedTags": ["#EXT-X-FOO:A=1"]}"##, "subscribedTags[0]"),
            (##"{"url": "http://h/a", "subscribedTags": ["#EXT-X-CUE", "#EXTINF"]}"##, "subscribedTags[1]"),
            (#"{"url": "http://h/a", "subtitles": 1}"#, "subtitles"), (#"{"url": "http://h/a", "audio": ""}"#, "audio"), (#"{"url": "http://h/a", "subtitles": " "}"#, "subtitles"),
            (#"{"url": "http://h/a", "sidecarSubtitles": {"url": "http://h/s.vtt"}}"#, "sidecarSubtitles"),
            (#"{"url": "http://h/a", "ssai": {"trackingURL": "ftp://h/t.json"}}"#, "ssai.trackingURL"),
            (#"{"url": "http://h/a", "ssai": {"tracking": "http://h/t.json"}}"#, "ssai.tracking"),
            (#"{"url": "http://h/a", "ssai": {}, "ads": {"enabled": true, "adTagURL": "http://h/ads"}}"#, "ssai"),
            (#"{"url": "http://h/a", "sidecarSubtitles": [{"url": "http://h/s.vtt"}, {"language": "en"}]}"#, "sidecarSubtitles[1].url"),
            (#"{"url": "http://h/a", "sidecarSubtitles": [{"url": "file:///etc/passwd"}]}"#, "sidecarSubtitles[0].url"),
            (#"{"url": "http://h/a", "sidecarSubtitles": [{"url": "http://h/s.vtt", "kind": "x"}]}"#, "sidecarSubtitles[0].kind"),
            (##"{"url": "http://h/a", "blackout": {"tag": "#EXT-X-BLACKOUT"}}"##, "blackout.alternateURL"),
            (##"{"url": "http://h/a", "blackout": {"alternateURL": "http://h/s.m3u8"}}"##, "blackout.tag"),
            (##"{"url": "http://h/a", "blackout": {"tag": "EXT-X-BLACKOUT", "alternateURL": "http://h/s.m3u8"}}"##, "blackout.tag"),
            (##"{"url": "http://h/a", "blackout": {"tag": "#EXT-X-B", "alternateURL": "file:///etc/passwd"}}"##, "blackout.alternateURL"),
            (##"{"url": "http://h/a", "blackout": {"tag": "#EXT-X-B", "alternateURL": "http://h/s", "loop": true}}"##, "blackout.loop"),
            (#"{"url": "http://h/a", "keys": [{"uri": "k.key", "key": "0011"}]}"#, "keys[0].key"),
            (#"{"url": "http://h/a", "keys": [{"key": "00112233445566778899aabbccddeeff"}]}"#, "keys[0].uri"),
            (#"{"url": "http://h/a", "keys": [{"uri": "k", "key": "00112233445566778899aabbccddeeff", "iv": "0"}]}"#, "keys[0].iv"),
            (#"{"url": "http://h/a", "keys": {"uri": "k"}}"#, "keys"),
            // null is no field's type (it was taken as absent: QA44 #5).
            (#"{"url": "http://h/a", "clock": null}"#, "clock"), (#"{"url": "http://h/a", "abr": {"variant": null}}"#, "abr.variant"),
            (#"{"url": "http://h/a", "subscribedTags": null}"#, "subscribedTags"), (#"{"url": null}"#, "url"),
            (#"{"url": "http://h/a", "resumeAfterFailure": {"attempts": 0}}"#, "resumeAfterFailure.attempts"),
            (#"{"url": "http://h/a", "resumeAfterFailure": {"attempts": 1.5}}"#, "resumeAfterFailure.attempts"),
            (#"{"url": "http://h/a", "resumeAfterFailure": {"attempts": 1, "delaySeconds": -1}}"#, "resumeAfterFailure.delaySeconds"),
        ]
        for (json, field) in cases {
            #expect(throws: APIError.self) { try parse(json) }
            do { _ = try parse(json) } catch let error as APIError { #expect(error.field == field, "\(json)") } catch {}
        }
    }

    @Test func aNumberBeyondADoubleIsNamed() {
        do {
            _ = try parse(#"{"url": "http://h/a", "rate": 1e400}"#)
            Issue.record("rate 1e400 was accepted")
        } catch let error as APIError { #expect(error.message == "field \"rate\": a number a double cannot hold (beyond ±1.8e308, or too near 0 to tell from it)") } catch { Issue.record("\(error)") }
    }

    @Test func aSeekBeyondAnyItemIsRefused() throws {
        #expect(try SeekBody.parse(Data(#"{"seconds": 12.5}"#.utf8)) == (12.5, false))
        #expect(try SeekBody.parse(Data(#"{"seconds": 12.5, "local": true}"#.utf8)) == (12.5, true))
        do {
            _ = try SeekBody.parse(Data(#"{"seconds": 1e12}"#.utf8))
            Issue.record("a seek to 1e12 s was accepted")
        } catch { #expect(error.field == "seconds" && error.message.contains("at most")) }
    }
}
