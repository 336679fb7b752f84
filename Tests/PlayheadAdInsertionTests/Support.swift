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
