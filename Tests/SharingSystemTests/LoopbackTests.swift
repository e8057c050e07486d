import SharingSystem
import Testing

/// One rule for what is this machine's loopback: the extension's connections and the uploads the host carries.
@Suite("The loopback")
struct LoopbackTests {
    @Test("the loopback's names and addresses are loopback; anything else is not", arguments: [
        ("127.0.0.1", true), ("127.8.9.10", true), ("localhost", true), ("LOCALHOST", true), ("::1", true), ("[::1]", true),
        ("128.0.0.1", false), ("10.255.255.1", false), ("api.example.com", false), ("localhost.example.com", false), ("::2", false),
        ("::ffff:127.0.0.1", true), ("::ffff:10.0.0.1", false), ("", false), ("0:0:0:0:0:1:0:1", false), ("::1:0:0:1", false),
    ])
    func host(host: String, expected: Bool) {
        #expect(Loopback.contains(host: host) == expected)
    }

    @Test("addresses as a socket carries them: 4 bytes or 16, anything else not an address")
    func addresses() {
        #expect(Loopback.contains(address: [127, 0, 0, 1]))
        #expect(!Loopback.contains(address: [126, 255, 255, 255]))
        #expect(Loopback.contains(address: Array(repeating: 0, count: 15) + [1]))
        #expect(Loopback.contains(address: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 9]))
        #expect(!Loopback.contains(address: Array(repeating: 0, count: 10) + [0xFF, 0xFF, 10, 0, 0, 1]))
        #expect(!Loopback.contains(address: Array(repeating: 0, count: 16)))
        #expect(!Loopback.contains(address: [127, 0, 0]))
    }
}
