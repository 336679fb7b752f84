/// Server-side ad tracking driven by presented frames: it knows the avails of the stream and, frame by
/// frame, says which SSAI events happen (see ``SSAIEvent``). It neither plays nor fetches anything.
///
/// - An avail is announced (`adCueTimelineAdded`) once, when it is first learnt.
/// - The first frame presented inside an avail starts it (`adCueTimelineStart`, `breakStart` URLs); the
///   first frame outside it ends it (`adCueTimelineEnd`, `breakEnd`).
/// - The first frame inside an ad gives `adImpression` (impression URLs) and `adStarted` (`creativeView`
///   and `start`); each quartile fires at the first frame at or past its share of the ad; `adComplete` at
///   the first frame at or past the ad's end (the next ad's first frame, or content) or at the end of
///   playback when the last frame reached it. `adRemainingTime` is posted at the ad's first frame and
///   then every half second of ad played (Nowtilus' `notifyAdRemainingTime`).
/// - Joining an ad after its start (a seek, a live join) starts it there; quartiles already behind are
///   not fired (one the landing frame is exactly at is). Leaving an ad by a seek fires neither its later
///   quartiles nor its completion. A seek forward inside the ad goes on with its play, the quartiles
///   jumped over not fired; a seek back (inside the ad or into it) is a new play.
/// - Each play of an ad fires each event once.
public struct SSAIAdTracker: Sendable {
    /// How far into an ad the viewer may skip it (the Nowtilus demo's VOD skip button): 5 s.
    public static let skippableAfterSeconds = 5.0
    /// The quartile events and their shares of an ad.
    static let quartiles: [(name: String, beacon: String, share: Double)] = [
        ("adFirstQuartile", "firstQuartile", 0.25), ("adMidpoint", "midpoint", 0.5), ("adThirdQuartile", "thirdQuartile", 0.75),
    ]
    /// Seconds between two `adRemainingTime` events: twice a second.
    public static let remainingTimeInterval = 0.5

    /// Every avail known, in content order.
    public private(set) var avails: [SSAIAvail] = []
    private var announced: Set<String> = []
    private var currentAvail: String?
    private var play: AdPlay?
    private var jumped = false
    private var lastFrame: (seconds: Double, end: Double)?

    private struct AdPlay: Sendable {
        var availId: String
        var adId: String
        var fired: Set<String>
        var nextRemaining: Double
    }

    /// Creates a tracker with no avails.
    public init() {}

    /// Replaces the known avails with `new` (sorted by start); announces those not seen before.
    public mutating func update(_ new: [SSAIAvail]) -> [SSAIEvent] {
        avails = new.sorted { $0.startSeconds < $1.startSeconds }
        var events: [SSAIEvent] = []
        for avail in avails where announced.insert(avail.id).inserted {
            var added = SSAIEvent(name: "adCueTimelineAdded", availId: avail.id, adsInAvail: avail.ads.count, contentSeconds: avail.startSeconds)
            added.durationSeconds = avail.durationSeconds
            events.append(added)
        }
        return events
    }

    /// The next presented frame does not follow the last one (a seek, a new start): what plays is left
    /// where it was, without completing.
    public mutating func jump() { jumped = true }

    /// The avail and ad presenting now, if any.
    public var current: (avail: SSAIAvail, adIndex: Int)? {
        guard let play, let avail = avails.first(where: { $0.id == play.availId }),
              let index = avail.ads.firstIndex(where: { $0.id == play.adId }) else { return nil }
        return (avail, index)
    }

    /// A frame of content time `seconds` lasting `durationSeconds` was presented: the events it brings.
    public mutating func presented(seconds: Double, durationSeconds: Double) -> [SSAIEvent] {
        var events: [SSAIEvent] = []
        let continuous = !jumped
        jumped = false
        let availIndex = avails.firstIndex { $0.contains(seconds) }
        let adIndex = availIndex.flatMap { avails[$0].adIndex(at: seconds) }
        let adKey = adIndex.map { (avails[availIndex!].id, avails[availIndex!].ads[$0].id) }
        let back = !continuous && lastFrame.map { seconds < $0.seconds - 1e-6 } ?? false
        // Leave the ad that was playing (a seek back inside it leaves it too: a new play begins).
        if let current = play, back || adKey.map({ $0 != (current.availId, current.adId) }) ?? true {
            if continuous, let (avail, index) = self.current, seconds >= avail.ads[index].endSeconds - 1e-3 {
                events += complete(avail, index, at: seconds)
            }
            play = nil
        }
        // Leave the avail, enter the next.
        let availId = availIndex.map { avails[$0].id }
        if currentAvail != availId {
            if let left = currentAvail, let avail = avails.first(where: { $0.id == left }) {
                events.append(Self.breakEvent("adCueTimelineEnd", avail, at: seconds))
            }
            if let availIndex { events.append(Self.breakEvent("adCueTimelineStart", avails[availIndex], at: seconds)) }
            currentAvail = availId
        }
        lastFrame = (seconds, seconds + durationSeconds)
        guard let availIndex, let adIndex else { return events }
        let avail = avails[availIndex], ad = avail.ads[adIndex]
        let offset = max(0, seconds - ad.startSeconds)
        if play == nil {
            var fired: Set<String> = []
            // Joined after the start: the quartiles behind are not this play's.
            if offset > durationSeconds + 1e-3 {
                for quartile in Self.quartiles where quartile.share * ad.durationSeconds < offset - 1e-6 { fired.insert(quartile.name) }
            }
            play = AdPlay(availId: avail.id, adId: ad.id, fired: fired, nextRemaining: 0)
            events.append(event("adImpression", avail, adIndex, at: seconds, beacon: "impression", urls: ad.trackingEvents["impression"] ?? []))
            let creativeView = ad.trackingEvents["creativeView"] ?? [], start = ad.trackingEvents["start"] ?? []
            var started = event("adStarted", avail, adIndex, at: seconds, beacon: "start", urls: creativeView + start)
            if !creativeView.isEmpty { started.beaconEvents = creativeView.map { _ in "creativeView" } + start.map { _ in "start" } }
            events.append(started)
        }
        if !continuous, !back {
            // A seek forward inside the ad: the quartiles it jumped over are not fired.
            for quartile in Self.quartiles where quartile.share * ad.durationSeconds < offset - 1e-6 { play!.fired.insert(quartile.name) }
        }
        for quartile in Self.quartiles where offset + 1e-9 >= quartile.share * ad.durationSeconds && play!.fired.insert(quartile.name).inserted {
            events.append(event(quartile.name, avail, adIndex, at: seconds, beacon: quartile.beacon, urls: ad.trackingEvents[quartile.beacon] ?? []))
        }
        if offset + 1e-9 >= play!.nextRemaining {
            events.append(event("adRemainingTime", avail, adIndex, at: seconds))
            play!.nextRemaining = (offset / Self.remainingTimeInterval + 1e-9).rounded(.down) * Self.remainingTimeInterval + Self.remainingTimeInterval
        }
        return events
    }

    /// Playback ended (completed or stopped): an ad whose last presented frame reached its end completes,
    /// and its avail ends.
    public mutating func finish() -> [SSAIEvent] {
        var events: [SSAIEvent] = []
        if let (avail, index) = current, let lastFrame, lastFrame.end >= avail.ads[index].endSeconds - 1e-3 {
            events += complete(avail, index, at: lastFrame.end)
        }
        play = nil
        if let left = currentAvail, let avail = avails.first(where: { $0.id == left }), let lastFrame,
           avail.endSeconds.map({ lastFrame.end >= $0 - 1e-3 }) ?? false {
            events.append(Self.breakEvent("adCueTimelineEnd", avail, at: lastFrame.end))
        }
        currentAvail = nil
        return events
    }

    /// Why the ad presenting now may not be skipped, or `nil` when it may (VOD, at least
    /// ``skippableAfterSeconds`` into it, as the Nowtilus demo's skip button).
    public func skipRefusal(isLive: Bool) -> String? {
        guard let (avail, index) = current, let lastFrame else { return "no server-side ad is playing" }
        if isLive { return "ads of a live stream cannot be skipped" }
        // The playhead is at the end of the last frame presented.
        let offset = lastFrame.end - avail.ads[index].startSeconds
        if offset + 1e-9 < Self.skippableAfterSeconds {
            return String(format: "ad %@ has played %.2f s; it may be skipped after %g s", avail.ads[index].id, offset, Self.skippableAfterSeconds)
        }
        return nil
    }

    /// The viewer skips the ad presenting now: `adSkipped` (its `skip` URLs) and the content time to seek
    /// to, the ad's end; `nil` when ``skipRefusal(isLive:)`` refuses.
    public mutating func skip(isLive: Bool) -> (event: SSAIEvent, toSeconds: Double)? {
        guard skipRefusal(isLive: isLive) == nil, let (avail, index) = current, let lastFrame else { return nil }
        let ad = avail.ads[index]
        let skipped = event("adSkipped", avail, index, at: lastFrame.end, beacon: "skip", urls: ad.trackingEvents["skip"] ?? [])
        play = nil
        jumped = true
        return (skipped, ad.endSeconds)
    }

    /// The ad presenting now and the playhead (the end of the last frame presented), for what a refused skip names.
    public var playhead: (availId: String, adId: String, seconds: Double)? {
        guard let (avail, index) = current, let lastFrame else { return nil }
        return (avail.id, avail.ads[index].id, lastFrame.end)
    }

    /// The viewer clicks the ad presenting now: `adClicked` with its click-through and click-tracking URLs;
    /// `nil` when no ad is playing.
    public func click() -> SSAIEvent? {
        guard let (avail, index) = current, let lastFrame else { return nil }
        let ad = avail.ads[index]
        var clicked = event("adClicked", avail, index, at: min(lastFrame.end, ad.endSeconds), beacon: "click", urls: ad.clickTracking)
        clicked.clickThrough = ad.clickThrough
        return clicked
    }

    private mutating func complete(_ avail: SSAIAvail, _ index: Int, at seconds: Double) -> [SSAIEvent] {
        let ad = avail.ads[index]
        var events: [SSAIEvent] = []
        // A frame longer than a quarter of the ad may jump a quartile: it is reached at the end all the same.
        for quartile in Self.quartiles where play?.fired.insert(quartile.name).inserted ?? false {
            events.append(event(quartile.name, avail, index, at: seconds, beacon: quartile.beacon, urls: ad.trackingEvents[quartile.beacon] ?? []))
        }
        events.append(event("adComplete", avail, index, at: seconds, beacon: "complete", urls: ad.trackingEvents["complete"] ?? []))
        return events
    }

    /// An avail's own event: `adCueTimelineStart` (its `breakStart` URLs) or `adCueTimelineEnd` (`breakEnd`).
    private static func breakEvent(_ name: String, _ avail: SSAIAvail, at seconds: Double) -> SSAIEvent {
        let beacon = name == "adCueTimelineStart" ? "breakStart" : "breakEnd"
        return SSAIEvent(name: name, availId: avail.id, adsInAvail: avail.ads.count, contentSeconds: seconds,
                         beaconEvent: beacon, beaconURLs: avail.trackingEvents[beacon] ?? [])
    }

    private func event(_ name: String, _ avail: SSAIAvail, _ index: Int, at seconds: Double, beacon: String? = nil,
                       urls: [String] = []) -> SSAIEvent {
        let ad = avail.ads[index]
        // Microseconds: differences of frame times carry float noise (3.5e-15 for 0).
        func rounded(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
        let offset = rounded(min(max(0, seconds - ad.startSeconds), ad.durationSeconds))
        var event = SSAIEvent(name: name, availId: avail.id, adId: ad.id, adNumber: index + 1, adsInAvail: avail.ads.count,
                              adTitle: ad.title, contentSeconds: seconds, offsetSeconds: offset,
                              remainingSeconds: rounded(max(0, ad.endSeconds - seconds)), beaconEvent: beacon, beaconURLs: urls)
        event.durationSeconds = ad.durationSeconds
        return event
    }
}
