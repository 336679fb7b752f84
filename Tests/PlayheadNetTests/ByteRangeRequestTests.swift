import PlayheadNet
import Testing

/// The range arithmetic of a request.
@Suite struct ByteRangeRequestTests {
    @Test func aByteRangeRequestPastIntIsNotValid() {
        let request = ByteRangeRequest(offset: .max, length: .max)
        #expect(!request.isValid)
        #expect(request.lastByte == .max)
        #expect(ByteRangeRequest(offset: 10, length: 5).lastByte == 14)
        #expect(ByteRangeRequest(offset: 10, length: 5).isValid)
    }
}
