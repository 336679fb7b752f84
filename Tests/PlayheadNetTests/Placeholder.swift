import Testing
@testable import PlayheadNet
@Test func placeholderNet() { #expect(Bool(true)) }
