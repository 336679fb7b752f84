import Foundation
import PlayheadCore
import Testing

/// The report's beacon records in JSON: wall time as Unix seconds, as the test ad server writes its own.
@Suite struct BeaconRecordJSONTests {
    @Test func wallTimeIsUnixSecondsAndRoundTrips() throws {
        let record = BeaconRecord(event: "start", breakId: "b", adId: "a", mediaTimeSeconds: 0, pts: 1.5,
                                  wallTime: Date(timeIntervalSince1970: 1_795_682_800.5), url: "http://127.0.0.1/beacon",
                                  httpStatus: 204, attempts: 1)
        let data = try JSONEncoder().encode(record)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["wallTime"] as? Double == 1_795_682_800.5, "\(object["wallTime"] ?? "nil")")
        #expect(object["error"] == nil)
        #expect(try JSONDecoder().decode(BeaconRecord.self, from: data) == record)
    }
}
