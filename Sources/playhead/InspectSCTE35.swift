import ArgumentParser
import Foundation
import PlayheadHLS

/// `playhead inspect scte35 CUE|- [--json]`: decode one SCTE-35 splice_info_section.
struct InspectSCTE35: AsyncParsableCommand {
    /// The subcommand's name, help and exit statuses.
    static let configuration = CommandConfiguration(
        commandName: "scte35",
        abstract: "Decode a SCTE-35 cue (base64 or hex) and print its fields.",
        discussion: """
            The cue is base64 or hexadecimal (with or without 0x; whitespace ignored), given as an \
            argument or on standard input with '-'. Exit status: 0 decoded (a bad CRC is printed as a \
            warning on standard error), 1 undecodable (the message names the byte offset and field), \
            2 usage. The JSON schema is in docs/scte35-json.md.
            """
    )

    /// The cue text, or `-` to read it from standard input.
    @Argument(help: "The cue as base64 or hex, or '-' to read standard input.")
    var cue: String

    /// Print JSON instead of the indented dump.
    @Flag(help: "Print JSON (the schema is in docs/scte35-json.md).")
    var json = false

    /// Decodes and prints the cue.
    func run() async throws {
        let text: String
        if cue == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            text = String(decoding: data, as: UTF8.self)
        } else {
            text = cue
        }
        let section: SpliceInfoSection
        do {
            section = try SCTE35.decode(text)
        } catch {
            if json { FileHandle.standardOutput.write(Data(error.jsonBytes())) }
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            throw ExitCode(1)
        }
        if json {
            FileHandle.standardOutput.write(Data(section.jsonBytes()))
        } else {
            FileHandle.standardOutput.write(Data(section.textDump.utf8))
        }
        if !section.crcValid {
            FileHandle.standardError.write(Data("warning: CRC_32 \(String(format: "0x%08x", section.crc32)) does not match the section's bytes\n".utf8))
        }
    }
}
