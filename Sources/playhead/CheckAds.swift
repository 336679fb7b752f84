import ArgumentParser
import Foundation
import PlayheadCore
import PlayheadMedia
import PlayheadNet

/// `playhead check-ads URL --ad-map FILE`: plays with ads on the virtual clock and checks every splice
/// boundary against FFmpeg's decode of the content and of the ad, frame by frame.
struct CheckAds: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-ads",
        abstract: "Play with ads on the virtual clock and check every ad boundary frame by frame.",
        discussion: """
        The ad map (JSON) says which ads play at which cue: \
        {"breaks":[{"time":10,"ads":[{"url":"…/ad.m3u8","duration":10}]},{"cueId":"splice-17","ads":[…]}]}; \
        relative ad URLs are resolved against the item's URL. VOD inserts the ads (content resumes at the cue's \
        frame); --live plays the playlist as a growing live window, where ads replace content (content resumes \
        at cue + duration). For every break it reports the cue, the expected and actual first ad frame, the \
        content frames on each side and their error in frames and milliseconds, and the audio gap or overlap, \
        then what did not play: each ad map entry no break played for, and each ad failure. \
        Exit status: 0 when every boundary is exact and nothing was missed, 3 when one is not exact or an entry \
        or ad did not play, 1 when playback or a reference decode failed or no break played, 2 on usage errors.
        """
    )

    @Argument(help: "The item: a multivariant or media playlist URL, or a file path.")
    var source: String

    @Option(help: "The ad map (JSON file).")
    var adMap: String?

    @Option(name: .customLong("blackout-tag"), help: "Also check blackouts signalled by this tag (with its #), as play --blackout-tag does.")
    var blackoutTag: String?

    @Option(name: .customLong("blackout-alternate"), help: "The alternate content of those blackouts (URL or path, relative to the item's URL).")
    var blackoutAlternate: String?

    @Flag(name: .customLong("ssai"), help: "Check the server-side ads stitched into the stream instead (as play --ssai): each adStarted and adCueTimelineEnd must come at the first frame at or after its time, FFmpeg's frame there (one variant, the first, throughout).")
    var ssai = false

    @Option(name: .customLong("ssai-tracking"), help: "With --ssai: the client-side tracking document (URL or path, relative to the item). Implies --ssai.")
    var ssaiTracking: String?

    @Flag(help: "Play as live (a window growing with session time): ads replace content.")
    var live = false

    @Option(help: "Signalling mode: default, manifestCues or serverMap.")
    var signalingMode: String = "default"

    @Option(parsing: .unconditional, help: "Constant link bandwidth of the virtual clock, Mbit/s (ABR picks the renditions from it).")
    var bandwidth: Double = 50

    @Flag(help: "Print the verdicts and the boundary records as JSON.")
    var json = false

    func run() async throws {
        MediaLog.level = .quiet
        guard let mode = AdSignalingMode(rawValue: signalingMode) else {
            printError("unknown --signaling-mode \"\(signalingMode)\"; one of \(AdSignalingMode.allCases.map(\.rawValue).joined(separator: ", "))")
            throw ExitCode(2)
        }
        guard bandwidth > 0, bandwidth.isFinite else {
            printError("--bandwidth must be a positive number of Mbit/s, got \(bandwidth)")
            throw ExitCode(2)
        }
        if (blackoutTag == nil) != (blackoutAlternate == nil) {
            printError("--blackout-tag and --blackout-alternate go together")
            throw ExitCode(2)
        }
        if ssai || ssaiTracking != nil {
            if adMap != nil || blackoutTag != nil || live {
                printError("--ssai checks the ads already in the stream: not with --ad-map, --blackout-tag or --live")
                throw ExitCode(2)
            }
            try await runSSAI()
            return
        }
        if adMap == nil, blackoutTag == nil {
            printError("give --ad-map FILE (the ads to splice) or --blackout-tag and --blackout-alternate (the blackouts to check), or both")
            throw ExitCode(2)
        }
        var map: AdMap?
        if let adMap {
            do {
                map = try AdMap.load(path: adMap)
            } catch {
                printError("\(error)")
                throw ExitCode(2)
            }
        }
        let url = ResourceURL.fromArgument(source)
        var blackout: BlackoutSettings?
        if let blackoutTag, let blackoutAlternate {
            let alternate = argumentURL(blackoutAlternate, against: url)
            blackout = BlackoutSettings(tag: blackoutTag, alternateURL: alternate)
            do { try blackout?.validate() } catch {
                printError("\(error == .noAlternate ? "--blackout-alternate" : "--blackout-tag"): \(error)")
                throw ExitCode(2)
            }
        }
        let client = HTTPClient()
        defer { client.shutdown() }
        let result: AdBoundaryChecker.Result
        do {
            result = try await AdBoundaryChecker(client: client).check(url: url, adMap: map, blackout: blackout, live: live, mode: mode,
                                                                    megabitsPerSecond: bandwidth)
        } catch {
            printError("check-ads: \(error)")
            throw ExitCode(1)
        }
        if json {
            try Self.printJSON(["boundaries": AnyEncodable(result.boundaries), "records": AnyEncodable(result.report.adBoundaries),
                                "missed": AnyEncodable(result.missed), "allExact": AnyEncodable(result.allExact)])
        } else {
            print(Self.table(result.boundaries))
            if !result.boundaries.isEmpty, !result.missed.isEmpty {
                print("did not play — NOT EXACT")
                for line in result.missed { print("  \(line)") }
            }
        }
        if result.boundaries.isEmpty {
            // Say why when the player said why: an ad that failed is not a cue that matched nothing.
            let failures = AdBoundaryChecker.adFailures(in: result.report)
            if adMap == nil {
                let said = result.report.blackouts.isEmpty ? "no blackout tag was read (is --blackout-tag the playlist's tag?)"
                    : "the blackouts showed no alternate content" + (result.report.damage.first.map { ": \($0)" } ?? "")
                printError("check-ads: no blackout was played: \(said)")
            } else if failures.isEmpty {
                printError("check-ads: no ad break was played (no cue matched the ad map?)")
            } else {
                printError("check-ads: no ad break was played; the ads failed:")
                for failure in failures.prefix(5) { printError("  \(AdBoundaryChecker.describe(failure))") }
            }
            throw ExitCode(1)
        }
        if !result.allExact { throw ExitCode(3) }
    }

    /// Prints `body` as pretty, key-sorted JSON on standard output.
    static func printJSON(_ body: [String: AnyEncodable]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        FileHandle.standardOutput.write(try encoder.encode(body) + Data("\n".utf8))
    }

    /// `--ssai`: the stitched ads' boundaries.
    func runSSAI() async throws {
        var url = ResourceURL.fromArgument(source)
        let client = HTTPClient()
        defer { client.shutdown() }
        var tracking = ssaiTracking.map { argumentURL($0, against: url) }
        let result: AdBoundaryChecker.SSAIResult
        do {
            let entry = try await SSAIEntry.resolve(url, client: client)
            url = entry.playlistURL
            tracking = tracking ?? entry.trackingURL
            result = try await AdBoundaryChecker(client: client).checkSSAI(url: url, trackingURL: tracking, megabitsPerSecond: bandwidth)
        } catch {
            printError("check-ads: \(error)")
            throw ExitCode(1)
        }
        if json {
            try Self.printJSON(["boundaries": AnyEncodable(result.boundaries), "ssai": AnyEncodable(result.report.ssai),
                                "allExact": AnyEncodable(result.allExact)])
        } else {
            print(Self.ssaiTable(result.boundaries))
        }
        if let failure = result.report.ssai?.trackingFailures.first { printError("check-ads: the tracking document was not used: \(failure)") }
        if result.boundaries.isEmpty {
            printError("check-ads: no server-side ad was found (no cue markers in the playlist\(tracking == nil ? "; give --ssai-tracking for a tracking document" : ", none in the tracking document"))")
            throw ExitCode(1)
        }
        if !result.allExact { throw ExitCode(3) }
    }

    /// The SSAI verdicts, a line or two each.
    static func ssaiTable(_ verdicts: [SSAIBoundaryVerdict]) -> String {
        func f(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "–" }
        var lines: [String] = []
        for v in verdicts {
            let what = v.adId.map { "ad \($0) starts" } ?? "avail \(v.availId) ends"
            lines.append("\(what) at \(f(v.boundarySeconds)) s\(v.onSegmentStart ? "" : " (inside a segment)") — \(v.exact ? "EXACT" : "NOT EXACT")")
            let hashes = v.actualMD5 == nil && v.expectedMD5 == nil ? "none" : (v.actualMD5 == v.expectedMD5 ? "equal" : "DIFFERENT")
            lines.append("  event at \(f(v.actualSeconds)) s, FFmpeg's frame at \(f(v.expectedSeconds)) s\(v.expectedIsKeyframe == true ? " (keyframe)" : ""), hash \(hashes), error \(v.errorFrames.map(String.init) ?? "–") frames")
            for problem in v.problems { lines.append("  problem: \(problem)") }
        }
        return lines.joined(separator: "\n")
    }

    /// The human-readable report: one block per break.
    static func table(_ verdicts: [AdBoundaryVerdict]) -> String {
        func f(_ value: Double?, _ digits: Int = 3) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "–" }
        var lines: [String] = []
        for v in verdicts {
            lines.append("break \(v.breakId) (\(v.kind)) cue \(f(v.cueSeconds)) s, cue on keyframe: \(v.cueOnKeyframe.map { $0 ? "yes" : "no" } ?? "?") — \(v.exact ? "EXACT" : "NOT EXACT")")
            lines.append("  first ad frame: pts \(f(v.actualFirstAdPTS)) s (expected \(f(v.expectedFirstAdPTS)) s), hash \(v.firstAdFrameMatches ? "equal" : "DIFFERENT"), keyframe \(v.firstAdFrameIsKeyframe.map { $0 ? "yes" : "no" } ?? "?"), at timeline \(f(v.actualBreakTimelineSeconds)) s (expected \(f(v.expectedBreakTimelineSeconds)) s)")
            lines.append("  last content frame before: \(f(v.lastContentBefore)) s (expected \(f(v.expectedLastContentBefore)) s) \(v.lastContentBeforeMatches ? (v.expectedLastContentBefore == nil ? "none: a pre-roll" : "right frame") : "WRONG"), error \(v.outErrorFrames.map(String.init) ?? "–") frames / \(f(v.outErrorMilliseconds)) ms")
            lines.append("  first content frame after: \(f(v.firstContentAfter)) s (expected \(f(v.expectedFirstContentAfter)) s) \(v.firstContentAfterMatches ? (v.expectedFirstContentAfter == nil ? "none: a post-roll" : "right frame") : "WRONG"), error \(v.inErrorFrames.map(String.init) ?? "–") frames / \(f(v.inErrorMilliseconds)) ms")
            lines.append("  video gap out/in: \(f(v.videoGapOutMilliseconds)) / \(f(v.videoGapInMilliseconds)) ms; audio gap(+)/overlap(−) out/in: \(f(v.audioGapOutMilliseconds)) / \(f(v.audioGapInMilliseconds)) ms")
            for problem in v.problems { lines.append("  problem: \(problem)") }
            for note in v.notes { lines.append("  note: \(note)") }
        }
        return lines.joined(separator: "\n")
    }
}

/// Type erasure for encoding a heterogeneous JSON object.
struct AnyEncodable: Encodable {
    private let encodeValue: (any Encoder) throws -> Void
    init(_ value: some Encodable) { encodeValue = value.encode }
    func encode(to encoder: any Encoder) throws { try encodeValue(encoder) }
}
