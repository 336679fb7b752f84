/// One event of server-side ad tracking, as the Nowtilus SSAI SDK names them, posted at a presented
/// frame; it carries the beacon URLs it fires.
public struct SSAIEvent: Sendable, Equatable, Codable {
    /// The event: `adCueTimelineAdded`, `adCueTimelineStart`, `adImpression`, `adStarted`,
    /// `adFirstQuartile`, `adMidpoint`, `adThirdQuartile`, `adComplete`, `adCueTimelineEnd`,
    /// `adRemainingTime` (twice a second of ad), `adSkipped`, `adClicked`.
    public var name: String
    /// The avail's id.
    public var availId: String
    /// The ad's id (none for the avail's own events).
    public var adId: String?
    /// The ad's number in its avail, from 1 (Nowtilus' "Ad Number").
    public var adNumber: Int?
    /// How many ads the avail holds.
    public var adsInAvail: Int
    /// The ad's title.
    public var adTitle: String?
    /// Content time of the presented frame the event was posted at, seconds (for `adCueTimelineAdded`:
    /// the avail's start).
    public var contentSeconds: Double
    /// Seconds into the ad at that frame.
    public var offsetSeconds: Double?
    /// The ad's duration (ad events), or the avail's (`adCueTimelineAdded`, when known), seconds.
    public var durationSeconds: Double?
    /// Seconds left in the ad at that frame (the ad's end minus the playhead).
    public var remainingSeconds: Double?
    /// The tracking event whose URLs fire (`impression`, `start`, quartiles, `complete`, `skip`,
    /// `click`, `breakStart`, `breakEnd`), if any.
    public var beaconEvent: String?
    /// The URLs to call.
    public var beaconURLs: [String]
    /// The tracking event of each of ``beaconURLs`` (`adStarted` fires `creativeView` and `start` URLs);
    /// empty when they are all ``beaconEvent``'s.
    public var beaconEvents: [String] = []
    /// For `adClicked`: where the click leads.
    public var clickThrough: String?
    /// The presented frame's own presentation time, seconds (its media's clock), when a frame brought the event.
    public var framePTS: Double?
    /// That frame's MD5 (as `ffmpeg -f framemd5`), when frames are hashed (`--framemd5`).
    public var frameMD5: String?

    /// Creates an event.
    public init(name: String, availId: String, adId: String? = nil, adNumber: Int? = nil, adsInAvail: Int, adTitle: String? = nil,
                contentSeconds: Double, offsetSeconds: Double? = nil, remainingSeconds: Double? = nil,
                beaconEvent: String? = nil, beaconURLs: [String] = [], clickThrough: String? = nil) {
        self.name = name
        self.availId = availId
        self.adId = adId
        self.adNumber = adNumber
        self.adsInAvail = adsInAvail
        self.adTitle = adTitle
        self.contentSeconds = contentSeconds
        self.offsetSeconds = offsetSeconds
        self.remainingSeconds = remainingSeconds
        self.beaconEvent = beaconEvent
        self.beaconURLs = beaconURLs
        self.clickThrough = clickThrough
    }

    /// The payload of the player's `custom` event for this one (numbers as `%g` text, URLs one per line).
    public var payload: [String: String] {
        var payload = ["ssai": "1", "availId": availId, "adsInAvail": String(adsInAvail),
                       "contentSeconds": String(format: "%.6g", contentSeconds)]
        payload["adId"] = adId
        payload["adNumber"] = adNumber.map(String.init)
        payload["adTitle"] = adTitle
        payload["offsetSeconds"] = offsetSeconds.map { String(format: "%.6g", $0) }
        payload["remainingSeconds"] = remainingSeconds.map { String(format: "%.6g", $0) }
        payload["durationSeconds"] = durationSeconds.map { String(format: "%.6g", $0) }
        payload["beaconEvent"] = beaconEvent
        if !beaconURLs.isEmpty { payload["beaconUrls"] = beaconURLs.joined(separator: "\n") }
        if beaconEvents.count == beaconURLs.count, !beaconEvents.isEmpty { payload["beaconEvents"] = beaconEvents.joined(separator: "\n") }
        payload["clickThrough"] = clickThrough
        payload["framePTS"] = framePTS.map { String(format: "%.6f", $0) }
        payload["frameMD5"] = frameMD5
        return payload
    }
}
