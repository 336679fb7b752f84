import ArgumentParser
import Foundation
import PlayheadAds
import PlayheadCore
import PlayheadNet

/// `playhead inspect vast URL|FILE [--json]`: parse a VAST 2.0–4.x or VMAP 1.0 document and print it.
struct InspectVAST: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vast",
        abstract: "Parse a VAST or VMAP document and print its model (wrappers are not followed).",
        discussion: "Exit status: 0 parsed (warnings allowed), 1 parse error (the message names line and column), 2 usage or I/O error."
    )

    @Argument(help: "An http(s) or file URL, or a file path.")
    var source: String

    @Flag(help: "Print JSON (the schema is in docs/vast-json.md).")
    var json = false

    func run() async throws {
        let (url, body) = try await fetchSource(source)
        do {
            let document = try AdDocument.parse(body)
            if json {
                print(String(decoding: AdDocumentReport(document).jsonBytes(), as: UTF8.self))
            } else {
                print(VASTSummary.text(document), terminator: "")
            }
        } catch {
            if json { print(String(decoding: AdDocumentReport(error: error).jsonBytes(), as: UTF8.self)) }
            printError("\(url): \(error.description)")
            throw ExitCode(1)
        }
    }
}

/// The human-readable form of `playhead inspect vast`.
enum VASTSummary {
    static func text(_ document: AdDocument) -> String {
        var lines: [String] = []
        switch document {
        case .vast(let vast): describe(vast, indent: "", into: &lines)
        case .vmap(let vmap):
            lines.append("VMAP \(vmap.version ?? "(no version)"): \(vmap.adBreaks.count) ad breaks")
            for adBreak in vmap.adBreaks {
                lines.append("break \(adBreak.breakId ?? "(no id)") at \(offset(adBreak.timeOffset)) [\(adBreak.breakTypes.joined(separator: ","))]"
                    + (adBreak.repeatAfterSeconds.map { ", repeats every \(seconds($0))" } ?? ""))
                switch adBreak.adSource?.content {
                case .vastAdData(let vast)?: describe(vast, indent: "  ", into: &lines)
                case .adTagURI(let url, let type)?: lines.append("  ad tag (\(type ?? "?")): \(url)")
                case .customAdData(let type, _)?: lines.append("  custom ad data (\(type ?? "?"))")
                case nil: lines.append("  no ad source")
                }
                if !adBreak.trackingEvents.isEmpty { lines.append("  tracking: " + counts(adBreak.trackingEvents)) }
            }
            for warning in vmap.warnings { lines.append("warning: \(warning.description)") }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    static func describe(_ vast: VASTDocument, indent: String, into lines: inout [String]) {
        lines.append(indent + "VAST \(vast.version ?? "(no version)"): \(vast.ads.count) ads"
            + (vast.errorURLs.isEmpty ? "" : ", \(vast.errorURLs.count) root error URLs"))
        for ad in vast.ads {
            let head = indent + "ad \(ad.id ?? "(no id)")" + (ad.sequence.map { " #\($0)" } ?? "")
            switch ad.kind {
            case .wrapper(let wrapper):
                lines.append(head + " wrapper → \(wrapper.vastAdTagURI)")
                lines.append(indent + "  \(wrapper.impressions.count) impressions, \(wrapper.errorURLs.count) error URLs, "
                    + "followAdditionalWrappers=\(wrapper.followAdditionalWrappers), allowMultipleAds=\(wrapper.allowMultipleAds)")
                describe(wrapper.creatives, indent: indent + "  ", into: &lines)
            case .inline(let inline):
                lines.append(head + " inline \"\(inline.adTitle ?? "")\" from \(inline.adSystem?.name ?? "?")")
                lines.append(indent + "  \(inline.impressions.count) impressions, \(inline.errorURLs.count) error URLs")
                describe(inline.creatives, indent: indent + "  ", into: &lines)
            }
        }
        for warning in vast.warnings { lines.append(indent + "warning: \(warning.description)") }
    }

    static func describe(_ creatives: [VASTCreative], indent: String, into lines: inout [String]) {
        for creative in creatives {
            if let linear = creative.linear {
                var text = indent + "linear \(creative.id ?? "")"
                if let duration = linear.durationSeconds { text += " \(seconds(duration))" }
                if let skip = linear.skipOffsetSeconds { text += ", skippable after \(seconds(skip))" }
                let hls = linear.mediaFiles.filter(\.isHLS).count
                lines.append(text + ", \(linear.mediaFiles.count) media files (\(hls) HLS)")
                for file in linear.mediaFiles {
                    let size = file.width.map { w in "\(w)x\(file.height ?? 0)" } ?? "?"
                    lines.append(indent + "  \(file.mimeType ?? "?") \(size) \(file.bitrateKbps.map { "\($0) kbit/s" } ?? "") \(file.url)")
                }
                if !linear.trackingEvents.isEmpty { lines.append(indent + "  tracking: " + counts(linear.trackingEvents)) }
                let clicks = linear.videoClicks
                if clicks.clickThrough != nil || !clicks.clickTracking.isEmpty {
                    lines.append(indent + "  click-through \(clicks.clickThrough?.url ?? "none"), \(clicks.clickTracking.count) click trackers")
                }
            }
            for companion in creative.companionAds {
                lines.append(indent + "companion \(companion.width ?? 0)x\(companion.height ?? 0)"
                    + " (\(companion.resources.staticResources.count) static, \(companion.resources.iframeResources.count) iframe, "
                    + "\(companion.resources.htmlResources.count) HTML)")
            }
            if let nonLinear = creative.nonLinearAds {
                lines.append(indent + "non-linear: \(nonLinear.nonLinears.count) overlays")
            }
        }
    }

    static func counts(_ events: [VASTTrackingEvent]) -> String {
        var order: [String] = []
        var count: [String: Int] = [:]
        for event in events {
            if count[event.event] == nil { order.append(event.event) }
            count[event.event, default: 0] += 1
        }
        return order.map { count[$0] == 1 ? $0 : "\($0)×\(count[$0]!)" }.joined(separator: ", ")
    }

    static func offset(_ offset: VMAPTimeOffset) -> String {
        switch offset {
        case .start: return "start"
        case .end: return "end"
        case .seconds(let value): return seconds(value)
        case .percent(let value): return "\(value)%"
        case .position(let value): return "#\(value)"
        }
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
}
