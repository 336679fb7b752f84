import PlayheadCore
import Testing

@Suite struct QoSDeviceInformationTests {
    @Test func fieldsAreFilledOnThisMachine() {
        let device = DeviceInformation.current(playheadVersion: "0.0.0-test", ffmpegVersion: "7.1", curlVersion: "8.14.1")
        #expect(!device.os.isEmpty)
        #expect(!device.kernel.isEmpty && !device.kernel.contains("unknown"))
        #expect(!device.cpuModel.isEmpty)
        #expect(device.cpuCount > 0)
        #expect(device.memoryBytes > 0)
        #expect(device.playheadVersion == "0.0.0-test")
        #if os(Linux)
        #expect(device.kernel.hasPrefix("Linux "))
        #expect(device.os.contains("Linux"))
        #endif
    }

    @Test func parsesOSReleaseAndCPUInfo() {
        let osRelease = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"
        #expect(DeviceInformation.prettyName(osRelease: osRelease) == "Debian GNU/Linux 12 (bookworm)")
        #expect(DeviceInformation.prettyName(osRelease: "ID=x\n") == nil)
        let cpuInfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\nprocessor\t: 1\nmodel name\t: other\n"
        #expect(DeviceInformation.cpuModel(cpuInfo: cpuInfo) == "Intel(R) Xeon(R) CPU @ 2.20GHz")
        #expect(DeviceInformation.cpuModel(cpuInfo: "processor : 0\n") == nil)
    }
}
