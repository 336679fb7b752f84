import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadNet
import PlayheadOrigin

/// Records what a resolver tells its delegate, in order.
final class RecordingDelegate: ContentResolverDelegate, @unchecked Sendable {
    enum Call: Equatable {
        case resolved(String, [AdBreak])
        case failed(String, PlayerNotification)
        case warned(String, PlayerNotification)
    }

    private let lock = NSLock()
    private var recorded: [Call] = []
    private var waiters: [(Int, CheckedContinuation<Void, Never>)] = []

    var calls: [Call] { lock.withLock { recorded } }
    var failures: [PlayerNotification] { calls.compactMap { if case let .failed(_, n) = $0 { n } else { nil } } }
    var warnings: [PlayerNotification] { calls.compactMap { if case let .warned(_, n) = $0 { n } else { nil } } }
    var resolved: [AdBreak] {
        calls.flatMap { call -> [AdBreak] in
            if case let .resolved(_, breaks) = call { return breaks }
            return []
        }
    }

    func resolver(_ resolver: any ContentResolver, didResolve opportunity: PlacementOpportunity, into breaks: [AdBreak]) {
        record(.resolved(opportunity.id, breaks), final: true)
    }

    func resolver(_ resolver: any ContentResolver, didFail opportunity: PlacementOpportunity, with notification: PlayerNotification) {
        record(.failed(opportunity.id, notification), final: true)
    }

    func resolver(_ resolver: any ContentResolver, didWarn opportunity: PlacementOpportunity, with notification: PlayerNotification) {
        record(.warned(opportunity.id, notification), final: false)
    }

    /// Returns once `count` answers (resolved or failed) have arrived.
    func waitForAnswers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock { () -> Bool in
                if answers >= count { return true }
                waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private var answers: Int {
        recorded.filter { if case .warned = $0 { false } else { true } }.count
    }

    private func record(_ call: Call, final: Bool) {
        let ready: [CheckedContinuation<Void, Never>] = lock.withLock {
            recorded.append(call)
            let count = answers
            let done = waiters.filter { $0.0 <= count }.map(\.1)
            waiters.removeAll { $0.0 <= count }
            return done
        }
        ready.forEach { $0.resume() }
    }
}

/// The codes of a notification and its inner chain, outermost first.
func codeChain(_ notification: PlayerNotification?) -> [Int] {
    var codes: [Int] = []
    var current = notification
    while let n = current {
        codes.append(n.code.code)
        current = n.innerNotification
    }
    return codes
}

/// The resolver timeout of tests that are not about timeouts: the default 5 s is real time on the
/// cooperative pool, and a loaded 2-core machine has run a wrapper chain past it (and past 30 s, in a
/// fresh-clone run beside another heavy job: the wrapper-loop test's answer came after its timeout).
let generousResolverTimeout = 120.0

/// Metadata pointing the resolver at `server`.
func metadata(for server: AdServer, mode: AdSignalingMode = .default, preroll: Bool = true, dvr: Bool = false) -> AdMetadata {
    AdMetadata(zoneId: "zone 7", domain: server.baseURL, mediaId: "movie-1", targetingParameters: ["device": "linux"],
               customParameters: ["NW_ID": "nw&1"], signalingMode: mode, enableLivePreroll: preroll, enableDVRAds: dvr)
}

/// A cue as the detector reports `#EXT-X-CUE-OUT:DURATION=…,ID=…`.
func cue(_ id: String, at seconds: Double, duration: Double?) -> PlacementOpportunity {
    PlacementOpportunity(id: id, kind: .breakStart, contentSeconds: seconds, durationSeconds: duration, mediaSequence: 10,
                         tag: "#EXT-X-CUE-OUT", rawText: "#EXT-X-CUE-OUT:DURATION=\(duration ?? 0)", attributes: [:])
}

/// What a player posts for one ad at `fps`: adStarted at frame 0, adProgress once per second of ad
/// and at the first frame at or past each quartile, adCompleted at the end. `pts` is the ad's own
/// media time, starting at `ptsBase`.
func adEvents(_ timeline: AdTimeline, breakIndex: Int, adIndex: Int, fps: Double, ptsBase: Double = 10) -> [PlayerEventKind] {
    let adBreak = timeline.breaks[breakIndex]
    let ad = adBreak.ads[adIndex]
    func info(_ frame: Int) -> AdEventInfo {
        let offset = Double(frame) / fps
        return AdEventInfo(breakId: adBreak.id, breakIndex: breakIndex, adId: ad.id, adIndex: adIndex, url: ad.url,
                           durationSeconds: ad.durationSeconds, offsetSeconds: offset, pts: ptsBase + offset)
    }
    let frames = Int((ad.durationSeconds * fps).rounded())
    var kinds: [PlayerEventKind] = [.adStarted(info(0))]
    var pending = [0.25, 0.5, 0.75].map { $0 * ad.durationSeconds }
    for frame in 1..<frames {
        let offset = Double(frame) / fps
        let quartile = pending.first.map { offset >= $0 } ?? false
        if quartile { pending.removeFirst() }
        if quartile || frame % Int(fps) == 0 { kinds.append(.adProgress(info(frame))) }
    }
    kinds.append(.adCompleted(info(frames)))
    return kinds
}

/// `HH:MM:SS.mmm` in seconds.
func clockSeconds(_ text: String?) -> Double? {
    guard let parts = text?.split(separator: ":"), parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]),
          let s = Double(parts[2]) else { return nil }
    return h * 3600 + m * 60 + s
}
