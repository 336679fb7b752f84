import Foundation
@testable import PlayheadCore
import PlayheadMedia
import PlayheadOrigin
import PlayheadTestFixtures
import Testing

/// VOD playback on the virtual clock: completion, determinism, PSDK statuses, frames, seeks, pauses, rebuffers.
@Suite struct VirtualPlaybackTests {
    @Test func vodPlaysToCompletionAndTwoRunsLogTheSameEvents() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/ts/master.m3u8")
        let first = await PlayerFixtures.playVirtual(url)
        let second = await PlayerFixtures.playVirtual(url)
        #expect(first.report.finalStatus == .completed)
        #expect(first.report.statuses.map(\.status) == [.initializing, .initialized, .ready, .playing, .completed])
        #expect(first.report.framesPresented["video"] == 900)
        #expect(first.report.framesDropped == 0)
        #expect(first.eventLines.count > 50)
        #expect(first.eventLines == second.eventLines, "the virtual clock is deterministic")
        let names = first.events.map(\.kind.name)
        #expect(names.contains("playStarted") && names.last == "notification")
        let codes = first.report.notifications.map(\.code.code)
        #expect(codes.contains(300000) && codes.contains(300001) && codes.contains(300005) && codes.contains(302000))
    }

    @Test func presentedFramesAreTheDecodedFrames() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/fmp4/v1/index.m3u8")
        let run = await PlayerFixtures.playVirtual(url) { $0.hashFrames = true }
        let reference = await PlayerFixtures.ffmpegHashes(url)
        #expect(reference.count == 900)
        #expect(run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" } == reference)
    }

    /// A session without ads reports an empty ad timeline, as it reports empty adBoundaries (it left the key
    /// out, and consumers reading `adTimeline.breaks` failed).
    @Test func aSessionWithoutAdsHasAnEmptyAdTimeline() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8")) { $0.mode = .demux }
        #expect(run.report.adTimeline?.breaks.isEmpty == true)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(run.report)) as? [String: Any])
        #expect((json["adTimeline"] as? [String: Any])?["breaks"] as? [Any] != nil)
    }

    /// Bytes count what crossed the network: encrypted segments and the key once (AES-128), the init section
    /// once (fMP4). They counted the decrypted bytes, and the cached init section again with every segment.
    @Test(arguments: ["aes", "fmp4/v0"])
    func bytesDownloadedAreTheBytesFetched(folder: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/\(folder)/index.m3u8")) { $0.mode = .demux }
        let files = try FileManager.default.contentsOfDirectory(atPath: PlayerFixtures.streams + "/" + folder)
        let size = { (name: String) in (try FileManager.default.attributesOfItem(atPath: PlayerFixtures.streams + "/\(folder)/\(name)")[.size] as? Int) ?? 0 }
        let expected = try files.map(size).reduce(0, +)
        #expect(run.report.finalStatus == .completed)
        #expect(run.report.bytesDownloaded == expected, "every file of the folder once: \(files.sorted())")
    }

    @Test func seekPresentsFirstTheSmallestPTSAtOrAfterTheTarget() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let url = server.url("/ts/v0/index.m3u8")
        let target = 12.34  // frame 370.2 at 30 fps: not a frame boundary, not a keyframe (those are every 2 s)
        let run = await PlayerFixtures.playVirtual(url, configure: { $0.hashFrames = true },
                                                   scheduled: [.init(atPositionSeconds: 3, action: .seek(toSeconds: target))])
        let video = run.presented.filter { $0.kind == .video }
        let reference = await PlayerFixtures.ffmpegHashes(url)
        // 90 frames before the seek (0 ..< 3 s), then frame 371 (12.3667 s) onwards to the end.
        #expect(video.count == 90 + (900 - 371))
        #expect(video[90].md5 == reference[371], "first frame after the seek is frame 371, decoded from the keyframe at 12 s")
        #expect(video[89].md5 == reference[89])
        let seek = try #require(run.report.seeks.first)
        #expect(seek.toSeconds == target)
        #expect(abs((seek.firstFrameSeconds ?? 0) - 371.0 / 30) < 0.001)
        #expect(seek.completedAt != nil)
        let names = run.report.notifications.map(\.name)
        #expect(names.contains("SEEK_START") && names.contains("SEEK_COMPLETE"))
        #expect(run.events.contains { if case .seekCompleted = $0.kind { return true } else { return false } })
        #expect(run.report.finalStatus == .completed)
    }

    @Test func pauseAndResume() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"),
                                                   scheduled: [.init(atPositionSeconds: 10, action: .pause(forSeconds: 5))])
        let statuses = run.report.statuses.map(\.status)
        #expect(statuses == [.initializing, .initialized, .ready, .playing, .paused, .playing, .completed])
        let paused = try #require(run.report.statuses.first { $0.status == .paused })
        let resumed = try #require(run.report.statuses.last { $0.status == .playing })
        #expect(abs(resumed.playerTime - paused.playerTime - 5) < 1e-9)
        #expect(run.report.framesPresented["video"] == 900)
    }

    @Test func aTraceTooSlowRebuffersAndTheTotalIsTheSumOfTheStalls() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        // 0.6 Mbit/s for a rendition of about 0.9 Mbit/s.
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v1/index.m3u8"), link: PlayerFixtures.link(megabits: 0.6))
        let report = run.report
        #expect(report.finalStatus == .completed)
        #expect(report.rebuffers.count >= 2)
        let sum = report.rebuffers.reduce(0) { $0 + $1.durationSeconds }
        #expect(sum > 5)
        #expect(abs(report.totalRebufferSeconds - sum) < 1e-9)
        #expect(abs((report.playbackInformation?.totalBufferingSeconds ?? -1) - sum) < 1e-6)
        #expect(report.playbackInformation?.bufferingCount == report.rebuffers.count)
        #expect(report.framesPresented["video"] == 900, "a rebuffer delays frames, it does not lose them")
        let stalls = run.events.filter { if case .stalled = $0.kind { return true } else { return false } }
        #expect(stalls.count == report.rebuffers.count)
    }

    /// A folder holding a VOD of one good 4 s segment then 1 MB of noise; `body` gets its playlist URL.
    func withGoodThenNoise(_ body: (String) async throws -> Void) async throws {
        let folder = NSTemporaryDirectory() + "playhead-noise-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: folder + "/noise.ts"))
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n\(PlayerFixtures.streams)/ts/v0/seg000.ts\n#EXTINF:4,\nnoise.ts\n#EXT-X-ENDLIST\n"
        try playlist.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        try await body("file://" + folder + "/index.m3u8")
    }

    @Test func aSeekIntoSegmentsThatGiveNoFramesCompletesAtTheTarget() async throws {
        // Seek at 1 s to 6 s, inside the noise: nothing is left to play there, but content did play
        // before, so the item completes at 6 s rather than failing as if nothing could ever play.
        try await withGoodThenNoise { url in
            let run = await PlayerFixtures.playVirtual(url, configure: { $0.mode = .demux },
                                                       scheduled: [ScheduledCommand(atPositionSeconds: 1, action: .seek(toSeconds: 6))],
                                                       maxSessionSeconds: 120)
            #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
            #expect(abs(run.report.positionSeconds - 6) < 0.05)
            #expect(run.report.error == nil)
        }
    }

    @Test func aStallBeforeSegmentsThatGiveNoFramesEndsTheItemThere() async throws {
        // One good 4 s segment, then 1 MB of noise that takes 16 s at 0.5 Mbit/s: playback stalls at
        // 4 s waiting for it, and when it turns out to hold nothing there is nothing left to resume
        // with. The item completes at 4 s, the stall closed unresumed. (It used to wait for ever.)
        // Demux mode: no decoder holds frames back to be drained at the end.
        var captured: PlayerFixtures.Run?
        try await withGoodThenNoise { url in
            captured = await PlayerFixtures.playVirtual(url, configure: { $0.mode = .demux },
                                                        link: PlayerFixtures.link(megabits: 0.5), maxSessionSeconds: 120)
        }
        let run = try #require(captured)
        let report = run.report
        #expect(report.finalStatus == .completed, "\(report.statuses.map(\.status))")
        #expect(report.framesPresented["video"] == 120)
        #expect(abs(report.positionSeconds - 4) < 0.05)
        #expect(report.damage.count == 1 && report.damage[0].contains("noise.ts"))
        let stall = try #require(report.rebuffers.first)
        #expect(report.rebuffers.count == 1 && stall.endSeconds == nil && stall.durationSeconds > 10, "\(report.rebuffers)")
    }

    @Test func demuxModePresentsFromPacketTimestamps() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v2/index.m3u8")) { $0.mode = .demux }
        #expect(run.report.finalStatus == .completed)
        #expect(run.report.framesPresented["video"] == 900)
        #expect(abs(run.report.positionSeconds - 30) < 0.05)
        let keyframes = await PlayerFixtures.playVirtual(server.url("/ts/v2/index.m3u8")) { $0.mode = .keyframes }
        #expect(keyframes.report.framesPresented["video"] == 15, "one keyframe every 2 s")
    }

    /// A segment missing for good ends the session in an error once what was loaded before it played out: all 240
    /// frames of the two segments before it, the decoder's last ones included (two B-frames it held were never shown).
    @Test func missingSegmentIsRetriedThenAnErrorNamingTheURL() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/ts/v0/seg002.ts")
        let run = await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"))
        #expect(run.report.finalStatus == .error)
        let missing = try #require(run.report.notifications.first { $0.code.code == 170006 })
        #expect(missing.metadata["URL"] == server.url("/ts/v0/seg002.ts"))
        #expect(server.requestLog.filter { $0.path == "/ts/v0/seg002.ts" }.count == 1 + PlayerConfiguration.defaultFetchRetries)
        #expect(run.report.framesPresented["video", default: 0] == 240, "what was loaded before the error played: \(run.report.framesPresented)")
        let ended = try #require(run.report.statuses.last { $0.status == .error })
        #expect(abs(run.report.positionSeconds - 8) < 1e-6 && ended.playerTime > 8, "the error came at the end of what was loaded")
    }

    /// A seek back into the buffer (7 s to 2 s) while the segment at 10 s is being retried: the loaded frames play
    /// from 2 s to 10 s, then the 404 ends the session. The retry, due while the buffer was full, stood the virtual
    /// clock still ("the virtual clock stopped advancing", 251 frames; QA42 #1).
    /// A 10 s break at 10 s, where the next content segment fails for good: the ad plays whole and completes, and
    /// its break, before the error ends the session (neither adCompleted nor adBreakCompleted came; QA42 #7).
    @Test func anAdPlayedWholeBeforeAFailureCompletes() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/cues/ts/seg005.ts")
        let url = server.url("/cues/ts/vod.m3u8")
        let map = AdMap(breaks: [AdMap.Entry(time: 10, cueId: nil, ads: [.init(url: "../ad/master.m3u8", duration: 10, id: "ad")])])
        let run = await PlayerFixtures.playVirtual(url) { configuration in
            configuration.ads = PlayerFixtures.ads(map, for: url)
        }
        #expect(run.report.finalStatus == .error)
        #expect(run.report.framesPresented["video", default: 0] == 300 + 300, "\(run.report.framesPresented)")
        for event in ["adCompleted", "adBreakCompleted"] { #expect(run.eventLines.contains { $0.contains("\"\(event)\"") }, "\(event)") }
    }

    /// Paused at 9.5 s for 20 s, past the segment's last retry (10 s to 12 s failing): after the pause what was loaded
    /// plays out to 10 s, then the 404 ends the session. It ended at once, paused, and the frames after 9.5 s were lost.
    @Test(arguments: [false, true])
    func aSeekBackOrAPauseDuringASegmentsRetriesPlaysWhatWasLoaded(pause: Bool) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        server.setFault(.status(404), forPath: "/cues/ts/seg005.ts")
        let command = ScheduledCommand(atPositionSeconds: pause ? 9.5 : 7, action: pause ? .pause(forSeconds: 20) : .seek(toSeconds: 2))
        let run = await PlayerFixtures.playVirtual(server.url("/cues/ts/vod.m3u8"), scheduled: [command])
        #expect(run.report.finalStatus == .error)
        #expect(run.report.notifications.contains { $0.code.code == 170006 }, "\(run.report.error ?? "")")
        // 0 to 10 s; or 0 to 7 s, then 2 to 10 s; at 30 fps.
        #expect(run.report.framesPresented["video", default: 0] == (pause ? 300 : 210 + 240), "\(run.report.framesPresented)")
    }
}

/// Discontinuities: content from one encode, an ad from another, content again.
@Suite struct DiscontinuityPlaybackTests {
    /// Plays, with frame hashes, a VOD playlist of `entries` (EXTINF, DISCONTINUITY and URI lines; `media` gives
    /// the URL of a path of the generated streams) served from a folder of its own; also returns FFmpeg's hashes
    /// of the content (`ts/v0`) and of the ad (`ad/v0`).
    func play(_ entries: (_ media: (String) -> String) -> String) async throws -> (run: PlayerFixtures.Run, content: [String], ad: [String]) {
        let media = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { media.stop() }
        let folder = NSTemporaryDirectory() + "playhead-disc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + entries { media.url($0) } + "#EXT-X-ENDLIST\n"
        try playlist.write(toFile: folder + "/index.m3u8", atomically: true, encoding: .utf8)
        let server = try LoopbackHTTPServer(root: folder)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/index.m3u8")) { $0.hashFrames = true }
        return (run, await PlayerFixtures.ffmpegHashes(media.url("/ts/v0/index.m3u8")), await PlayerFixtures.ffmpegHashes(media.url("/ad/v0/index.m3u8")))
    }

    @Test func timestampsAreReanchoredPerDiscontinuitySequence() async throws {
        let (run, content, ad) = try await play { media in
            "#EXTINF:4.0,\n\(media("/ts/v0/seg000.ts"))\n#EXTINF:4.0,\n\(media("/ts/v0/seg001.ts"))\n#EXT-X-DISCONTINUITY\n"
                + "#EXTINF:4.0,\n\(media("/ad/v0/seg000.ts"))\n#EXTINF:4.0,\n\(media("/ad/v0/seg001.ts"))\n#EXT-X-DISCONTINUITY\n"
                + "#EXTINF:4.0,\n\(media("/ts/v0/seg002.ts"))\n"
        }
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video"] == 600)
        #expect(run.report.rebuffers.isEmpty)
        #expect(abs(run.report.positionSeconds - 20) < 0.05, "the timeline runs on across both discontinuities")
        // Every frame in order, the ad's first frame right after the content's 8 s.
        let expected = Array(content[0..<240]) + Array(ad[0..<240]) + Array(content[240..<360])
        #expect(run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" } == expected)
    }

    /// EXTINF is a hint: content listed 0.1 s short before a discontinuity still plays all its frames, and the
    /// run after the discontinuity goes on where that media really ended (its first three frames were lost:
    /// pinned at the listed 3.9 s, they fell before the content's last frames and were never presented).
    @Test func extinfThatUndercountsBeforeADiscontinuityLosesNoFrame() async throws {
        let (run, content, ad) = try await play { media in
            "#EXTINF:3.9,\n\(media("/ts/v0/seg000.ts"))\n#EXT-X-DISCONTINUITY\n#EXTINF:4.0,\n\(media("/ad/v0/seg000.ts"))\n"
        }
        #expect(run.report.finalStatus == .completed, "\(run.report.error ?? "")")
        #expect(run.report.framesPresented["video"] == 240)
        #expect(abs(run.report.positionSeconds - 8) < 0.05, "\(run.report.positionSeconds)")
        let shifts = run.events.compactMap { event -> [String: String]? in
            if case let .custom(name, payload) = event.kind, name == "timelineShift" { return payload } else { return nil }
        }
        #expect(shifts.map { $0["seconds"] } == ["0.1"] && shifts.first?["mediaSequence"] == "1", "\(shifts)")
        let presented = run.presented.filter { $0.kind == .video }.map { $0.md5 ?? "" }
        let expected = Array(content[0..<120]) + Array(ad[0..<120])
        #expect(presented == expected, "first frame that differs: \(presented.indices.first { $0 >= expected.count || presented[$0] != expected[$0] } ?? presented.count)")
    }
}

/// ABR inside the player: switches at segment boundaries, BITRATE_CHANGE, and the PSDK controls.
@Suite struct PlayerABRTests {
    func switches(_ megabits: Double, _ configure: (inout ABRSettings) -> Void = { _ in }) async throws -> PlaybackReport {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        var settings = ABRSettings()
        configure(&settings)
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), configure: { $0.abr = settings },
                                                   link: PlayerFixtures.link(megabits: megabits))
        #expect(run.report.finalStatus == .completed)
        #expect(run.report.framesPresented["video"] == 900)
        return run.report
    }

    @Test func climbsOnAFastLinkAndStaysLowOnASlowOne() async throws {
        let fast = try await switches(50)
        #expect(fast.bitrateSwitches.last?.toBitsPerSecond == 3_370_400)
        #expect(fast.notifications.filter { $0.code.code == 302000 }.count == fast.bitrateSwitches.count)
        #expect(fast.notifications.first { $0.code.code == 302000 }?.metadata["BITRATE"] == "510400")
        // 1.2 Mbit/s: nothing above 950 kbit/s until the plan sees the video's end (the last 5 of the 8
        // segments); from there the default may spend its buffer on a higher rung, but must not stall.
        let slow = try await switches(1.2)
        let lastPlan = 8 - MPCPlanner.defaultHorizonCount
        #expect(slow.bitrateSwitches.allSatisfy { $0.toBitsPerSecond <= 950_400 || ($0.mediaSequence ?? 0) >= lastPlan },
                "\(slow.bitrateSwitches.map { ($0.mediaSequence ?? -1, $0.toBitsPerSecond) })")
        #expect(slow.rebuffers.isEmpty)
    }

    @Test func psdkControls() async throws {
        let locked = try await switches(50) { $0.controls.lockedIndex = 1 }
        #expect(locked.bitrateSwitches.map(\.toBitsPerSecond) == [950_400])
        let capped = try await switches(50) { $0.controls.maximumBitsPerSecond = 2_000_000 }
        #expect(capped.bitrateSwitches.map(\.toBitsPerSecond).max() == 1_830_400)
        let floor = try await switches(50) { $0.controls.minimumBitsPerSecond = 1_000_000 }
        #expect(floor.bitrateSwitches.map(\.toBitsPerSecond).min() == 1_830_400)
        // The first fragment follows the initial bitrate (closest at or below), ignoring min and max.
        let initial = try await switches(50) {
            $0.controls.initialBitsPerSecond = 1_000_000
            $0.controls.maximumBitsPerSecond = 600_000
        }
        #expect(initial.bitrateSwitches.first?.toBitsPerSecond == 950_400)
        #expect(initial.bitrateSwitches.first?.reason == "initial")
        #expect(initial.bitrateSwitches.last?.toBitsPerSecond == 510_400)
        let peak = try await switches(50) { $0.controls.preferredPeakBitsPerSecond = 1_000_000 }
        #expect(peak.bitrateSwitches.map(\.toBitsPerSecond).max() == 950_400)
    }

    /// The initial bitrate picks the first segment's rung for every policy, before the caps apply (QA:
    /// six policies started on their own choice, and with a cap every policy announced the initial
    /// rung, then switched to the capped one before loading anything from it).
    @Test(arguments: ABRPolicies.names)
    func theFirstSegmentComesFromTheInitialRung(policy: String) async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        var settings = ABRSettings()
        settings.policy = policy
        settings.controls.initialBitsPerSecond = 1_000_000
        settings.controls.maximumBitsPerSecond = 600_000
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), configure: { $0.abr = settings; $0.mode = .demux },
                                                   link: PlayerFixtures.link(megabits: 50))
        let loaded = run.events.compactMap { if case let .segmentLoaded(url, sequence, _, _, _) = $0.kind { (url, sequence) } else { nil } }
        #expect(loaded.first?.0.hasSuffix("/v1/seg000.ts") == true, "\(loaded.prefix(2))")
        let switches = run.report.bitrateSwitches
        #expect(switches.first?.toBitsPerSecond == 950_400 && switches.first?.reason == "initial", "\(switches)")
        // The cap applies from the second segment on; no switch is announced before a segment is loaded.
        #expect(switches.dropFirst().allSatisfy { ($0.mediaSequence ?? 0) >= 1 }, "\(switches.map { ($0.mediaSequence ?? -1, $0.toBitsPerSecond) })")
        #expect(switches.dropFirst().first?.toBitsPerSecond == 510_400)
        #expect(run.report.notifications.filter { $0.code.code == 302000 }.count == switches.count)
    }

    /// The QoS profile bitrate is the rung of the frames on screen: after a switch is decided (and announced),
    /// the samples keep the old rung until the new rung's first frame is presented (QA: the samples named the
    /// rung being fetched while the other's frames played).
    @Test func theProfileBitrateIsTheRungOnScreen() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        var settings = ABRSettings()
        settings.customPolicy = CyclingPolicy()
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), configure: { $0.abr = settings; $0.mode = .demux; $0.perFrameEvents = true })
        #expect(run.report.finalStatus == .completed)
        let rungs = [510_400, 950_400, 1_830_400, 3_370_400]
        var rungOfSequence: [Int: Int] = [:]
        var shown: [(time: Double, bitrate: Int)] = []
        for event in run.events {
            switch event.kind {
            case let .segmentLoaded(url, sequence, _, _, _):
                rungOfSequence[sequence] = (0..<4).first { url.contains("/v\($0)/") }.map { rungs[$0] }
            case let .framePresented(pts, _):
                if let bitrate = rungOfSequence[Int(pts / 4)], shown.last?.bitrate != bitrate { shown.append((event.playerTime, bitrate)) }
            default: break
            }
        }
        #expect(shown.count >= 4, "\(shown)")
        var checked = 0
        for sample in run.report.samples {
            guard let onScreen = shown.last(where: { $0.time <= sample.playerTime }) else { continue }
            #expect(sample.profileBitrate == onScreen.bitrate, "at \(sample.playerTime) s")
            checked += 1
        }
        #expect(checked >= 20)
    }

    /// The session's time limit holds while the item's playlists load: on a link so slow that the master
    /// playlist alone takes seconds, a 2 s session stops at 2 s, stopped and not in error (QA: it ran to
    /// 8.27 s, and to 81 s at a tenth of the rate).
    @Test func aTimeLimitStopsTheSessionWhileItsPlaylistsLoad() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), link: PlayerFixtures.link(megabits: 0.001),
                                                   maxSessionSeconds: 2)
        #expect(run.report.finalStatus == .stopped)
        #expect(run.report.sessionSeconds == 2)
        #expect(run.report.error == nil)
        #expect(run.report.notifications.allSatisfy { $0.type != .error }, "\(run.report.notifications.map(\.name))")
        // A limit past the load is as before: the playlists load, and playback stops at the limit.
        let longer = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), link: PlayerFixtures.link(megabits: 0.5),
                                                      maxSessionSeconds: 3)
        #expect(longer.report.finalStatus == .stopped && longer.report.sessionSeconds == 3)
        #expect(longer.report.mediaPlaylistURL != nil)
    }

    /// One decision per segment boundary, and every switch announced is the rung then fetched: a policy
    /// that answers another rung at every call is asked once per segment, so no media sequence has two
    /// switches (QA: a switch whose playlist had to load was decided again at the same boundary, announcing
    /// rungs never fetched: 1830400 then 950400 at one segment, on frame drops).
    @Test func eachBoundaryIsDecidedOnceAndAnnouncesTheRungFetched() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        var settings = ABRSettings()
        settings.customPolicy = CyclingPolicy()
        let run = await PlayerFixtures.playVirtual(server.url("/ts/master.m3u8"), configure: { $0.abr = settings; $0.mode = .demux })
        #expect(run.report.finalStatus == .completed)
        let switches = run.report.bitrateSwitches
        let sequences = switches.compactMap(\.mediaSequence)
        #expect(Set(sequences).count == sequences.count, "\(switches.map { ($0.mediaSequence ?? -1, $0.toBitsPerSecond, $0.reason) })")
        let rungs = [510_400, 950_400, 1_830_400, 3_370_400]
        let loaded = run.events.compactMap { event -> (Int, Int)? in
            guard case let .segmentLoaded(url, sequence, _, _, _) = event.kind,
                  let rung = (0..<4).first(where: { url.contains("/v\($0)/") }) else { return nil }
            return (sequence, rungs[rung])
        }
        #expect(loaded.count == 8)
        for (sequence, bitrate) in loaded {
            let announced = switches.last { ($0.mediaSequence ?? 0) <= sequence }?.toBitsPerSecond
            #expect(announced == bitrate, "segment \(sequence) came from \(bitrate), the last switch said \(String(describing: announced))")
        }
    }

    /// Keyframes mode buffers and starts as the other modes do: a keyframe stands for its group of
    /// pictures, and each comes out of the decoder at once. QA: on a 50 Mbit/s link it stalled at 2.03 s
    /// and 6.03 s with seconds of media buffered, and started only once the second segment was in.
    @Test func keyframesModeBuffersAsTheOtherModesDo() async throws {
        let server = try LoopbackHTTPServer(root: PlayerFixtures.streams)
        defer { server.stop() }
        func run(_ mode: DecodeMode) async -> PlayerFixtures.Run {
            await PlayerFixtures.playVirtual(server.url("/ts/v0/index.m3u8"), configure: { $0.mode = mode })
        }
        let keyframes = await run(.keyframes), demux = await run(.demux)
        #expect(keyframes.report.finalStatus == .completed)
        #expect(keyframes.report.rebuffers.isEmpty, "\(keyframes.report.rebuffers)")
        func started(_ run: PlayerFixtures.Run) -> Double? { run.events.first { $0.kind.name == "playStarted" }?.playerTime }
        #expect(started(keyframes) != nil && started(keyframes) == started(demux))
        #expect(abs(keyframes.report.positionSeconds - 30) < 1e-6)
    }

    /// Stays on the lowest rung and keeps every context it was asked with (the loop asks one at a time).
    struct LoggingPolicy: ABRPolicy {
        let name = "logging"
        let log: LockedBox<[ABRContext]>
        mutating func choose(_ context: ABRContext) -> Int {
            log.set(log.get() + [context])
            return 0
        }
    }

    @Test func vodPolicyKnowsHowMuchVideoRemains() async throws {
        let log = LockedBox<[ABRContext]>([])
        _ = try await switches(50) { $0.customPolicy = LoggingPolicy(log: log) }
        let contexts = log.get()
        #expect(contexts.count >= 8)
        // The first choice (the variant to start with) comes before any media playlist is loaded.
        #expect(contexts.first?.upcomingChunkBytes == nil)
        for context in contexts.dropFirst() {
            // The generated ladder: 30 s in 4 s segments, the last one 2 s.
            #expect(context.knownUpcomingCount == 8 - context.segmentIndex, "segment \(context.segmentIndex)")
            let last = try #require(context.upcomingChunkBytes?.last)
            #expect(last == context.ladderBitsPerSecond.map { Int((Double($0) * 2 / 8).rounded()) })
        }
    }
}

/// A policy that answers the next rung at every call (3, 0, 2, 1, 3, …): asked twice at one boundary, it
/// changes its mind.
struct CyclingPolicy: ABRPolicy {
    let name = "cycling"
    var calls = 0
    mutating func choose(_ context: ABRContext) -> Int {
        defer { calls += 1 }
        return [3, 0, 2, 1][calls % 4]
    }
}
