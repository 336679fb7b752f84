import PlayheadCore
import Testing

@Suite struct EventsStatusTests {
    @Test func placeholder() { #expect(PlayerStatus.created.canTransition(to: .initializing)) }
}
