import ArgumentParser
import Foundation
import PlayheadCore

/// `playhead play`'s server-side ad tracking options (F18): find the ads stitched into the stream,
/// post the Nowtilus SDK's ad events at the presented frames, fire the tracking URLs; skip and click.
struct SSAIOptions: ParsableArguments {
    @Flag(name: .customLong("ssai"),
          help: "Server-side ads: track the ads stitched into the stream (cue markers split at discontinuities, or --ssai-tracking's document) instead of inserting any. The item may be a resolver URL (…/resolver/…, asked where the stream and its tracking document are), a view URL or a playlist.")
    var enabled = false

    @Option(name: .customLong("ssai-tracking"),
            help: "Server-side ads: the client-side tracking document (MediaTailor-style JSON: avails, ads, trackingEvents with beaconUrls; URL or path, relative to the item); its beacons are fired at the presented frames. Implies --ssai.")
    var tracking: String?

    @Option(name: .customLong("skip-ad"), parsing: .unconditionalSingleValue,
            help: "Server-side ads: AT — when the playhead reaches AT seconds by playing, skip the ad playing (VOD, at least 5 s into the ad; refused otherwise, as an adSkipRefused event). Repeatable.")
    var skipAt: [Double] = []

    @Option(name: .customLong("click-ad"), parsing: .unconditionalSingleValue,
            help: "AT — when the playhead reaches AT seconds by playing, click the ad playing (its click tracking is fired; adClicked names the click-through). Repeatable.")
    var clickAt: [Double] = []

    /// Whether server-side ad tracking is on.
    var isOn: Bool { enabled || tracking != nil }

    func validate() throws {
        for (option, values) in [("--skip-ad", skipAt), ("--click-ad", clickAt)] {
            if let bad = values.first(where: { !($0 >= 0 && $0.isFinite) }) {
                throw ValidationError("\(option) takes a finite non-negative position in seconds, got \(bad)")
            }
        }
        if let tracking, tracking.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--ssai-tracking needs the tracking document's URL or path")
        }
        if !skipAt.isEmpty, !isOn { throw ValidationError("--skip-ad skips server-side ads: give --ssai (or --ssai-tracking)") }
    }

    /// The scheduled skips and clicks.
    var scheduled: [ScheduledCommand] {
        skipAt.map { ScheduledCommand(atPositionSeconds: $0, action: .skipAd) } + clickAt.map { ScheduledCommand(atPositionSeconds: $0, action: .clickAd) }
    }
}
