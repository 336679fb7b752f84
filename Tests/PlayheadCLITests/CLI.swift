import Foundation
import PlayheadTestFixtures

/// The CLI tests' names for the shared fixtures.
enum CLI {
    /// The `playhead` binary.
    static let playhead = TestRepository.playheadBinary
    /// The generated streams folder.
    static let streams = TestRepository.streams

    /// Runs `program` off the cooperative pool.
    static func run(_ program: String, _ arguments: [String]) async -> ChildProcess.Outcome {
        await ChildProcess.run(program, arguments)
    }

    /// The hash column of framemd5 text.
    static func hashes(_ framemd5: String) -> [String] { ChildProcess.framemd5Hashes(framemd5) }
}
