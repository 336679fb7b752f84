import Testing
@testable import PlayheadHLS
@Test func placeholderHLS() { #expect(Bool(true)) }
