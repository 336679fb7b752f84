import ArgumentParser
import PlayheadCore

/// Custom key delivery on the command line (F26): keys given up front, which the player uses instead of
/// fetching the key URI (``StaticKeyProvider``).
struct KeyOptions: ParsableArguments {
    @Option(name: .customLong("key"), parsing: .unconditionalSingleValue,
            help: "URI=HEX — use these 16 bytes (32 hexadecimal digits) for the EXT-X-KEY whose URI is URI (as the playlist writes it, or resolved) instead of fetching it; it also opens SAMPLE-AES under a DRM KEYFORMAT (skd://…) in MPEG-TS. Repeatable.")
    var keys: [String] = []

    func validate() throws {
        do { _ = try StaticKeyProvider(entries: keys) } catch { throw ValidationError("--key: \(error)") }
    }

    /// The provider of the keys given (checked by `validate`), nil when none is.
    var provider: StaticKeyProvider? { keys.isEmpty ? nil : try? StaticKeyProvider(entries: keys) }
}
