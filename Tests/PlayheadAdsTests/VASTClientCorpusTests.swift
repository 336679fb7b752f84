// Corpus comparison against @dailymotion/vast-client 6.4.4 (`*.vastclient.json`, wrappers not
// followed), over both corpus folders (dailymotion-vast-client-js and zentrick-iab-vast-parser,
// which ships the same oracle's output beside its own).
//
// Field mapping (theirs → ours):
//   version                                  → VASTDocument.version
//   rootErrorURLTemplates                    → VASTDocument.errorURLs
//   ads[] (count, order)                     → VASTDocument.ads
//   ads[].id / sequence (string)             → VASTAd.id / sequence (Int)
//   ads[].system{value,version}              → InlineAd/WrapperAd.adSystem{name,version}
//   ads[].title                              → InlineAd.adTitle
//   ads[].errorURLTemplates                  → InlineAd/WrapperAd.errorURLs
//   ads[].impressionURLTemplates[{id,url}]   → impressions[{id,url}]
//   ads[].nextWrapperURL                     → WrapperAd.vastAdTagURI
//   ads[].followAdditionalWrappers,
//        allowMultipleAds, fallbackOnNoAd    → WrapperAd fields of the same names (their defaults:
//                                              true, false, null; ours: true, false, nil)
//   creatives[] (one per Linear, CompanionAds, NonLinearAds child, in order)
//                                            → VASTCreative.linear / companionAds / nonLinearAds
//   creative.duration (-1 = none)            → VASTLinear.durationSeconds (nil)
//   creative.skipDelay (-1 = none, seconds;
//        percentages resolved on duration)   → VASTLinear.skipOffsetSeconds
//   mediaFiles[].fileURL, deliveryType, mimeType, width, height, bitrate, minBitrate, maxBitrate,
//        codec, apiFramework, scalable, maintainAspectRatio (0 / "" = absent)
//                                            → VASTMediaFile.url, delivery, mimeType, width,
//                                              height, bitrateKbps, minBitrateKbps,
//                                              maxBitrateKbps, codec, apiFramework, scalable,
//                                              maintainAspectRatio
//   trackingEvents{name: [url]}; progress as `progress-<seconds>` or `progress-<n>%`
//                                            → VASTLinear.trackingEvents (event, url, offset)
//   videoClickThroughURLTemplate{id,url}     → videoClicks.clickThrough
//   videoClickTrackingURLTemplates           → videoClicks.clickTracking
//   videoCustomClickURLTemplates             → videoClicks.customClick
//   variations[] (companion)                 → VASTCompanionAd: width/height/assetWidth/
//        assetHeight/adSlotId (strings), staticResources[{url,creativeType}], iframeResources,
//        htmlResources, companionClickThroughURLTemplate, companionClickTrackingURLTemplates,
//        trackingEvents
//   blank <Impression>, <Error>, click and resource URLs: vast-client keeps them as "", we drop
//   them, so the comparison ignores their blank entries
//   error ("Invalid VAST XMLDocument", "VAST response version not supported")
//                                            → a thrown VASTError (malformedXML / unexpectedRoot /
//                                              vast1NotSupported)
import Foundation
import PlayheadAds
import Testing

/// Files (path below the corpus folder) where we knowingly differ, with the reason; the key is
/// `<file>` or `<file>: <field prefix>`.
let vastClientExceptions: [String: String] = [
    "strict/iab/vast-4/Inline_Companion_Tag-test: ads[0].creatives[0].variations[0].adSlotId":
        "the IAB sample writes adSlotID (capital D); vast-client reads only adSlotId, we read both",
    "strict/iab/vast-4/Wrapper_Tag-test: ads[0].creatives[0].variations[0].adSlotId":
        "the IAB sample writes adSlotID (capital D); vast-client reads only adSlotId, we read both",
]

@Suite("vast-client corpus")
struct VASTClientCorpusTests {
    static let folders = ["dailymotion-vast-client-js", "zentrick-iab-vast-parser"]

    @Test("every document vast-client parses agrees field by field; its failures fail here too",
          .enabled(if: VASTCorpus.root != nil, VASTCorpus.skipComment))
    func corpus() throws {
        var files = 0, parsed = 0, rejected = 0, compared = 0
        var problems: [String] = []
        var usedExceptions = Set<String>()
        for folder in Self.folders {
            for (xml, expectedURL) in VASTCorpus.documents(folder, expectationSuffix: ".vastclient.json") {
                files += 1
                let name = VASTCorpus.name(xml, in: folder)
                let expected = try VASTCorpus.json(expectedURL)
                let bytes = try VASTCorpus.bytes(xml)
                let result = Result { () throws(VASTError) in try VASTParser.parse(bytes) }
                switch (result, expected["error"]) {
                case (.failure(let error), .some):
                    rejected += 1
                    #expect(error.line >= 0, "\(name): \(error)")
                case (.failure(let error), .none):
                    problems.append("\(name): vast-client parses it, we throw \(error)")
                case (.success, .some(let theirs)):
                    problems.append("\(name): vast-client fails (\(theirs)), we parse it")
                case (.success(let document), .none):
                    parsed += 1
                    var check = Mismatches(file: name)
                    VASTClientComparison.document(document, expected, into: &check)
                    compared += check.compared
                    for item in check.items {
                        if let key = vastClientExceptions.keys.first(where: { item.hasPrefix($0) }) {
                            usedExceptions.insert(key)
                        } else {
                            problems.append(item)
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) disagreements:\n\(problems.joined(separator: "\n"))")
        #expect(files == 83, "corpus files with a .vastclient.json")
        #expect(rejected == 2, "documents both parsers reject")
        #expect(parsed == files - rejected)
        #expect(compared > 2000, "fields compared: \(compared)")
        #expect(usedExceptions == Set(vastClientExceptions.keys), "unused exceptions: \(Set(vastClientExceptions.keys).subtracting(usedExceptions).sorted())")
    }
}
