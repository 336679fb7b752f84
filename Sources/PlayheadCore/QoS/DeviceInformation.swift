import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What machine a session ran on, for reports: operating system, kernel, CPU, memory and the
/// versions of Playhead and its two C libraries.
public struct DeviceInformation: Sendable, Codable, Equatable {
    /// The operating system: `/etc/os-release`'s PRETTY_NAME and uname's system and machine,
    /// such as `Debian GNU/Linux 12 (bookworm) (Linux x86_64)`.
    public var os: String
    /// The kernel: uname's system and release, such as `Linux 6.1.0-18-amd64`.
    public var kernel: String
    /// The CPU model: `/proc/cpuinfo`'s first `model name`, else uname's machine (such as `aarch64`).
    public var cpuModel: String
    /// The number of active processors.
    public var cpuCount: Int
    /// Physical memory in bytes.
    public var memoryBytes: UInt64
    /// Playhead's version.
    public var playheadVersion: String
    /// FFmpeg's version (libavformat), when the caller knows it.
    public var ffmpegVersion: String?
    /// libcurl's version, when the caller knows it.
    public var curlVersion: String?

    /// Makes a value from known fields; ``current(playheadVersion:ffmpegVersion:curlVersion:)``
    /// reads them from this machine.
    ///
    /// - Parameters: One per property, each described there.
    public init(
        os: String, kernel: String, cpuModel: String, cpuCount: Int, memoryBytes: UInt64,
        playheadVersion: String, ffmpegVersion: String? = nil, curlVersion: String? = nil
    ) {
        self.os = os
        self.kernel = kernel
        self.cpuModel = cpuModel
        self.cpuCount = cpuCount
        self.memoryBytes = memoryBytes
        self.playheadVersion = playheadVersion
        self.ffmpegVersion = ffmpegVersion
        self.curlVersion = curlVersion
    }

    /// Reads this machine's information. The C library versions are passed in, since this layer
    /// does not link them on its own behalf.
    ///
    /// - Parameters:
    ///   - playheadVersion: Playhead's version.
    ///   - ffmpegVersion: FFmpeg's version, if known.
    ///   - curlVersion: libcurl's version, if known.
    public static func current(playheadVersion: String, ffmpegVersion: String? = nil, curlVersion: String? = nil) -> DeviceInformation {
        let names = UnameFields.read()
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)).flatMap(prettyName(osRelease:))
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)).flatMap(cpuModel(cpuInfo:))
        let system = "\(names.sysname) \(names.machine)"
        return DeviceInformation(
            os: osRelease.map { "\($0) (\(system))" } ?? system,
            kernel: "\(names.sysname) \(names.release)",
            cpuModel: cpuInfo ?? names.machine,
            cpuCount: ProcessInfo.processInfo.activeProcessorCount,
            memoryBytes: ProcessInfo.processInfo.physicalMemory,
            playheadVersion: playheadVersion,
            ffmpegVersion: ffmpegVersion,
            curlVersion: curlVersion)
    }

    /// The PRETTY_NAME value of an os-release file, unquoted, or `nil`.
    ///
    /// - Parameter osRelease: The file's text.
    public static func prettyName(osRelease: String) -> String? {
        for line in osRelease.split(whereSeparator: \.isNewline) where line.hasPrefix("PRETTY_NAME=") {
            var value = line.dropFirst("PRETTY_NAME=".count)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = value.dropFirst().dropLast()
            }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The first `model name` of a `/proc/cpuinfo` text, or `nil`.
    ///
    /// - Parameter cpuInfo: The file's text.
    public static func cpuModel(cpuInfo: String) -> String? {
        for line in cpuInfo.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "model name" else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if !value.isEmpty { return value }
        }
        return nil
    }
}

/// The fields of uname(2) that reports use.
private struct UnameFields {
    var sysname: String
    var release: String
    var machine: String

    static func read() -> UnameFields {
        var names = utsname()
        guard uname(&names) == 0 else { return UnameFields(sysname: "unknown", release: "unknown", machine: "unknown") }
        return UnameFields(
            sysname: text(of: &names.sysname), release: text(of: &names.release), machine: text(of: &names.machine))
    }

    private static func text<T>(of field: inout T) -> String {
        withUnsafeBytes(of: &field) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
