import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet
import PlayheadTestFixtures
import Testing

/// Subscribed tags (F19, the PSDK's `PTTimedMetadata`): each subscribed tag of the playlist becomes one
/// `timedMetadata` event and one report entry, at the content time of the segment it precedes.
@Suite struct TimedMetadataTests {
    /// /ts/v0 (eight segments, 30 s) as file URLs, with custom tags before segments 0 and 5 and after the last,
    /// and a date range starting at 13 s (by program date-time) listed before segment 2.
    func writePlaylist() throws -> String {
        let folder = NSTemporaryDirectory() + "playhead-tags-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let rendition = PlayerFixtures.streams + "/ts/v0"
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for index in 0..<8 {
            if index == 0 { lines += ["#EXT-X-ASSET:CAID=0x0001,ID=\"asset-1\"", "#EXT-X-PROGRAM-DATE-TIME:2026-11-26T00:00:00.000Z"] }
            if index == 2 { lines.append("#EXT-X-DATERANGE:ID=\"dr-1\",START-DATE=\"2026-11-26T00:00:13.000Z\",DURATION=5,X-COM-EXAMPLE-ID=\"a b\"") }
            if index == 5 { lines += ["#EXT-X-ASSET:CAID=0x0002", "#EXT-X-ASSET:CAID=0x0002", "#EXT-CUSTOM-FLAG", "#EXT-X-NOT-SUBSCRIBED:1"] }
            lines.append("#EXTINF:\(index == 7 ? 2 : 4),")
            lines.append("file://\(rendition)/seg00\(index).ts")
        }
        lines += ["#EXT-X-ASSET:CAID=end", "#EXT-X-ENDLIST"]
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        return folder
    }

    static let subscribed = ["#EXT-X-ASSET", "#EXT-CUSTOM-FLAG"]

    func metadataEvents(_ run: PlayerFixtures.Run) -> [(time: Double, metadata: TimedMetadata)] {
        run.events.compactMap { event in
            if case let .timedMetadata(metadata) = event.kind { return (event.playerTime, metadata) }
            return nil
        }
    }

    @Test func vodReportsEachSubscribedTagOnceAtItsSegment() async throws {
        let folder = try writePlaylist()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: {
            $0.mode = .demux
            $0.subscribedTags = Self.subscribed
        }, maxSessionSeconds: 90)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let events = metadataEvents(run)
        #expect(events.map(\.metadata.id) == ["asset-1", "#EXT-X-ASSET@5", "#EXT-X-ASSET@5#2", "#EXT-CUSTOM-FLAG@5", "#EXT-X-ASSET@end"])
        #expect(events.map(\.metadata.timeSeconds) == [0, 20, 20, 20, 30])
        #expect(events.map(\.metadata.mediaSequence) == [0, 5, 5, 5, nil])
        #expect(events.allSatisfy { $0.metadata.type == .tag })
        // The PSDK parses the attribute list and keeps the raw value.
        #expect(events[0].metadata.metadata == ["CAID": "0x0001", "ID": "asset-1"])
        #expect(events[0].metadata.content == "CAID=0x0001,ID=\"asset-1\"")
        #expect(events[3].metadata.name == "#EXT-CUSTOM-FLAG" && events[3].metadata.content.isEmpty && events[3].metadata.metadata.isEmpty)
        // A VOD's tags are all known once its playlist is parsed, before the first frame.
        let firstFrameAt = run.events.first { $0.kind == .playStarted }?.playerTime ?? 0
        #expect(events.allSatisfy { $0.time <= firstFrameAt })
        #expect(run.report.timedMetadata == events.map(\.metadata))
        // An unsubscribed tag is not reported.
        #expect(!run.eventLines.contains { $0.contains("EXT-X-NOT-SUBSCRIBED") })
        // The event's JSON line reads back as the same event.
        let line = try #require(run.events.first { $0.kind.name == "timedMetadata" })
        #expect(try PlayerEvent(jsonLine: line.jsonLine()).kind == line.kind)
    }

    @Test func withoutSubscriptionsNothingIsReported() async throws {
        let folder = try writePlaylist()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.mode = .demux }, maxSessionSeconds: 90)
        #expect(run.report.finalStatus == .completed)
        #expect(metadataEvents(run).isEmpty && run.report.timedMetadata.isEmpty)
    }

    @Test func liveReportsATagWhenAReloadFirstListsItAndNeverAgain() async throws {
        let folder = try writePlaylist()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: {
            $0.mode = .demux
            $0.subscribedTags = Self.subscribed
        }, maxSessionSeconds: 120, liveUnder: "file://\(folder)/", initialSegments: 2)
        let report = run.report
        #expect(report.isLive)
        #expect(report.finalStatus == .completed, "\(report.error ?? "")")
        #expect(report.playlistReloads >= 6)
        let events = run.events.compactMap { event -> (Double, TimedMetadata)? in
            if case let .timedMetadata(metadata) = event.kind { return (event.playerTime, metadata) }
            return nil
        }
        // Every tag once, though each reload lists it again.
        #expect(events.map(\.1.id) == ["asset-1", "#EXT-X-ASSET@5", "#EXT-X-ASSET@5#2", "#EXT-CUSTOM-FLAG@5", "#EXT-X-ASSET@end"])
        // The first window lists segments 0 and 1: the tag of segment 5 comes with the reload that lists it
        // (segments 2–5 are out after 16 s of session), the one after the last with the end of the list
        // (every segment is out after 22 s).
        #expect(events[0].0 < 1)
        #expect(events[1].0 >= 16 && events[1].0 < 21, "\(events[1].0)")
        #expect(events[4].0 >= 22, "\(events[4].0)")
        #expect(report.timedMetadata.map(\.id) == events.map(\.1.id))
    }

    @Test func dateRangesAreReportedWhenSubscribedAtTheirStartDate() async throws {
        let folder = try writePlaylist()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: {
            $0.mode = .demux
            $0.subscribedTags = ["#EXT-X-DATERANGE"]
        }, maxSessionSeconds: 90)
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let events = metadataEvents(run)
        #expect(events.count == 1)
        let range = try #require(events.first?.metadata)
        #expect(range.id == "dr-1" && range.name == "#EXT-X-DATERANGE" && range.type == .tag)
        #expect(abs(range.timeSeconds - 13) < 1e-9 && range.mediaSequence == 3)
        #expect(range.metadata["ID"] == "dr-1" && range.metadata["DURATION"] == "5" && range.metadata["X-COM-EXAMPLE-ID"] == "a b")
        #expect(range.content.hasPrefix("ID=\"dr-1\",START-DATE=\"2026-11-26T00:00:13"), "\(range.content)")
    }

    /// Timed ID3 in fMP4 (CMAF `emsg` boxes of the AOM ID3 scheme before a fragment's moof, which
    /// libavformat skips): version 1 at its presentation time on the track's timeline, version 0 that
    /// many ticks after the segment's first media; a box of another scheme is not ID3. Frames play on.
    @Test func timedID3InFMP4EventMessagesIsReported() async throws {
        let folder = NSTemporaryDirectory() + "playhead-emsg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rendition = PlayerFixtures.streams + "/fmp4/v0"
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MAP:URI=\"file://\(rendition)/init.mp4\""]
        // The video's first PTS is 1014/15360 s: 9 s of content is 139 254 ticks of 15 360 on the track.
        let boxes: [Int: [EventMessageBox]] = [
            2: [EventMessageBox(version: 1, schemeIdURI: EventMessageBox.id3Scheme, value: "", timescale: 15360, presentationTime: 1014 + 9 * 15360,
                                eventDuration: 0, id: 7, messageData: TimedID3Injector.tag(description: "tag", value: "v1 at 9 s")),
                EventMessageBox(version: 0, schemeIdURI: "urn:scte:scte35:2013:bin", value: "", timescale: 1000, presentationTime: 0,
                                eventDuration: 0, id: 8, messageData: [0xFC, 0x30])],
            3: [EventMessageBox(version: 0, schemeIdURI: EventMessageBox.id3Scheme, value: "", timescale: 1000, presentationTime: 500,
                                eventDuration: 0, id: 9, messageData: TimedID3Injector.tag(description: "tag", value: "v0 at 12.5 s"))],
        ]
        for index in 0..<5 {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: rendition + "/seg00\(index).m4s")))
            try Data((boxes[index] ?? []).flatMap(\.bytes) + original).write(to: URL(fileURLWithPath: folder + "/seg\(index).m4s"))
            lines += ["#EXTINF:4,", "seg\(index).m4s"]
        }
        lines.append("#EXT-X-ENDLIST")
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let run = await PlayerFixtures.playVirtual("file://\(folder)/index.m3u8", configure: { $0.mode = .demux })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let events = metadataEvents(run).map(\.metadata)
        #expect(events.map { $0.metadata["TXXX:tag"] } == ["v1 at 9 s", "v0 at 12.5 s"])
        #expect(events.count == 2 && abs(events[0].timeSeconds - 9) < 1e-6 && abs(events[1].timeSeconds - 12.5) < 1e-6, "\(events.map(\.timeSeconds))")
        #expect(events.map(\.mediaSequence) == [2, 3] && events.allSatisfy { $0.type == .id3 })
        #expect(run.report.framesPresented["video"] == 600 && run.report.damage.isEmpty)
    }

    /// Timed ID3 in the media (a TXXX frame at the first frame of each of three TS segments): each is a
    /// `timedMetadata` event of type ID3, subscribed or not, at its PTS on the content timeline, with its
    /// frames as metadata and the tag in base64 as content; once each, though a seek fetches them again.
    @Test func timedID3InTheSegmentsIsReported() async throws {
        let folder = NSTemporaryDirectory() + "playhead-id3-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
        for index in 0..<3 {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: PlayerFixtures.streams + "/ts/v0/seg00\(index).ts")))
            let tag = TimedID3Injector.tag(description: "tag", value: "segment-\(index)")
            let patched = try #require(TimedID3Injector.inject(tag, into: original))
            try Data(patched).write(to: URL(fileURLWithPath: folder + "/seg\(index).ts"))
            lines += ["#EXTINF:4,", "seg\(index).ts"]
        }
        lines.append("#EXT-X-ENDLIST")
        try lines.joined(separator: "\n").write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let url = "file://\(folder)/index.m3u8"
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.mode = .demux; $0.buffer.backBufferSeconds = 0 },
                                                   scheduled: [.init(atPositionSeconds: 9, action: .seek(toSeconds: 1))])
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        let events = metadataEvents(run).map(\.metadata)
        #expect(events.map { $0.metadata["TXXX:tag"] } == ["segment-0", "segment-1", "segment-2"])
        #expect(events.allSatisfy { $0.type == .id3 && $0.name == nil })
        for (index, event) in events.enumerated() {
            #expect(abs(event.timeSeconds - Double(index) * 4) < 1e-6, "\(event.timeSeconds)")
            #expect(event.mediaSequence == index && event.id == "ID3@\(index)")
            #expect(Data(base64Encoded: event.content).map { [UInt8]($0) } == TimedID3Injector.tag(description: "tag", value: "segment-\(index)"))
        }
        #expect(run.report.segmentsDownloaded > 3, "the seek fetched segments again")
        #expect(run.report.timedMetadata == events)
        // FFmpeg sees the same stream: a timed_id3 data stream.
        let probe = await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", folder + "/seg1.ts"])
        #expect(probe.stdout.contains("timed_id3"))
    }

    /// Timed ID3 in the segments of the alternate audio rendition playing (packagers often put it there in
    /// demuxed streams) is reported as the video's own is, on the same timestamps: a tag at PTS 6 s of the
    /// audio comes 4 s before one at PTS 10 s of the video. Before, the rendition's data stream was dropped
    /// as its audio was joined to the video (QA43 #1).
    @Test(arguments: [DecodeMode.demux, .decode])
    func timedID3InTheAlternateAudioRenditionIsReported(mode: DecodeMode) async throws {
        let folder = NSTemporaryDirectory() + "playhead-id3-alt-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = PlayerFixtures.streams + "/altaudio/ts"
        for rendition in ["fr", "v0"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + rendition, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: source + "/" + rendition) {
                var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(source)/\(rendition)/\(name)")))
                if rendition == "fr", name == "seg001.ts" {
                    bytes = try #require(TimedID3Injector.inject(TimedID3Injector.tag(description: "where", value: "audio"), into: bytes, pts: 6 * 90_000))
                }
                if rendition == "v0", name == "seg002.ts" {
                    bytes = try #require(TimedID3Injector.inject(TimedID3Injector.tag(description: "where", value: "video"), into: bytes, pts: 10 * 90_000))
                }
                try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(rendition)/\(name)"))
            }
        }
        try """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Francais",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,URI="fr/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=510400,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=416x234,AUDIO="aud"
            v0/index.m3u8
            """.write(toFile: folder + "/master.m3u8", atomically: true, encoding: .utf8)
        let run = await PlayerFixtures.playVirtual("file://\(folder)/master.m3u8", configure: { $0.mode = mode; $0.abr = nil })
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.audio?.selected == 0 && run.report.audio?.segmentsLoaded == 8)
        let events = metadataEvents(run).map(\.metadata)
        #expect(events.map { $0.metadata["TXXX:where"] } == ["audio", "video"])
        #expect(events.allSatisfy { $0.type == .id3 })
        if events.count == 2 {
            #expect(abs(events[1].timeSeconds - events[0].timeSeconds - 4) < 1e-6, "\(events.map(\.timeSeconds))")
            #expect(events[0].mediaSequence == 1 && events[1].mediaSequence == 2)
        }
        #expect(run.report.timedMetadata == events)
    }

    @Test func aSubscribedTagNeedsItsHash() {
        #expect(throws: SubscribedTagError.missingHash("EXT-X-ASSET")) { try TimedMetadataScanner(tags: ["#EXT-X-CUE", "EXT-X-ASSET"]) }
        #expect(throws: SubscribedTagError.empty) { try TimedMetadataScanner(tags: ["#"]) }
        // Names that could never match a line, and the spec's own tags, are refused rather than silently kept.
        #expect(throws: SubscribedTagError.malformed("#EXT-X-FOO:A=1")) { try TimedMetadataScanner(tags: ["#EXT-X-FOO:A=1"]) }
        #expect(throws: SubscribedTagError.malformed("#EXT-X-FOO ")) { try TimedMetadataScanner(tags: ["#EXT-X-FOO "]) }
        #expect(throws: SubscribedTagError.specTag("#EXTINF")) { try TimedMetadataScanner(tags: ["#EXTINF"]) }
        #expect(throws: Never.self) { try TimedMetadataScanner(tags: ["#EXT-X-DATERANGE", "#EXT-OATCLS-SCTE35"]) }
    }

    /// Ids are unique in a session: a tag's ID attribute given twice, or the same place in two variants'
    /// playlists, gets `#2`.
    @Test func idsAreUniqueInASession() {
        var used: Set<String> = []
        #expect(TimedMetadata.unique("foo-a", in: &used) == "foo-a")
        #expect(TimedMetadata.unique("foo-a", in: &used) == "foo-a#2")
        #expect(TimedMetadata.unique("foo-a", in: &used) == "foo-a#3")
        #expect(TimedMetadata.unique("#T@0", in: &used) == "#T@0")
    }
}
