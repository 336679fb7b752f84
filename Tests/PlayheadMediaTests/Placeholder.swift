import Testing
@testable import PlayheadMedia
@Test func placeholderMedia() { #expect(Bool(true)) }
