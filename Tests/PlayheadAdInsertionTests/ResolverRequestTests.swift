import Foundation
import PlayheadAdInsertion
import PlayheadCore
import PlayheadOrigin
import Testing

/// Ad metadata into request URLs, and bad metadata refused with a clear error.
@Suite struct ResolverRequestTests {
    let metadata = AdMetadata(zoneId: "zone 7", domain: "ads.example.com", mediaId: "movie/1",
                              targetingParameters: ["device": "ipad", "AD_OPPORTUNITY_ID": "preroll"],
                              customParameters: ["NW_ID": "nw&1", "a": "b"])

    @Test func serverMapURLCarriesZoneMediaTargetingAndCustomParameters() {
        let url = AdRequestURLs(metadata: metadata).serverMap(contentDurationSeconds: 600)
        #expect(url == "https://ads.example.com/vmap?z=zone%207&m=movie%2F1&type=vmap&dur=600"
            + "&AD_OPPORTUNITY_ID=preroll&device=ipad&cust_params=NW_ID%3Dnw%25261%26a%3Db")
    }

    @Test func cueAndPrerollURLsCarryPositionAndDuration() {
        let urls = AdRequestURLs(metadata: AdMetadata(zoneId: "z", domain: "http://127.0.0.1:9/", mediaId: "m"))
        #expect(urls.cue(cue("splice-7", at: 12.5, duration: 30)) == "http://127.0.0.1:9/vast?z=z&m=m&type=midroll&cue=splice-7&pos=12.5&dur=30")
        #expect(urls.preroll(contentSeconds: 0) == "http://127.0.0.1:9/vast?z=z&m=m&type=preroll&pos=0")
    }

    @Test func badMetadataIsRefusedNamingTheField() {
        #expect(throws: AdMetadataError.missing(field: "zoneId")) {
            try AdMetadata(zoneId: " ", domain: "d", mediaId: "m").validate()
        }
        #expect(throws: AdMetadataError.invalid(field: "targetingParameters", value: "z", reason: "collides with a reserved query key")) {
            try AdMetadata(zoneId: "z", domain: "d", mediaId: "m", targetingParameters: ["z": "1"]).validate()
        }
        #expect(throws: AdMetadataError.invalid(field: "domain", value: "ads.example.com?x=1",
                                                reason: "a host or base URL without spaces, query or fragment")) {
            try AdMetadata(zoneId: "z", domain: "ads.example.com?x=1", mediaId: "m").validate()
        }
        #expect(throws: AdMetadataError.unsupportedMode(.serverMap, isLive: true)) {
            try DefaultAdResolver(metadata: AdMetadata(zoneId: "z", domain: "d", mediaId: "m", signalingMode: .serverMap), isLive: true)
        }
        #expect(AdMetadataError.missing(field: "mediaId").description == "ad metadata: mediaId is required")
    }

    @Test func signallingModeDefaultsPerStreamKind() {
        #expect(AdSignalingMode.default.effective(isLive: false) == .serverMap)
        #expect(AdSignalingMode.default.effective(isLive: true) == .manifestCues)
        #expect(AdSignalingMode.manifestCues.effective(isLive: false) == .manifestCues)
    }
}
