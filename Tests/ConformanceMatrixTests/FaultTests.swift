import ConformanceMatrix
import ExtensionRuntime
import Foundation
import Testing

@Suite("Fault specs")
struct FaultTests {
    @Test("each fault reads back from its spec, and its spec is what was read", arguments: [
        ("none", Fault.none),
        ("slow-host(delay=2s)", .slowHost(delay: .seconds(2))),
        ("slow-host(delay=500ms)", .slowHost(delay: .milliseconds(500))),
        ("load-fails(nth=1)", .loadFails(nth: 1)),
        ("load-hangs(nth=3)", .loadHangs(nth: 3)),
        ("memory-limit(mb=24)", .memoryLimit(megabytes: 24)),
        ("time-limit(s=2.5)", .timeLimit(seconds: 2.5)),
        ("host-killed(after=500ms)", .hostKilled(after: .milliseconds(500))),
        ("large-share(kind=file)", .largeShare(.file)),
    ])
    func roundTrip(spec: String, fault: Fault) throws {
        #expect(try Fault(parsing: spec) == fault)
        #expect(fault.description == spec)
    }

    @Test("a parameter left out takes its default; spaces are allowed")
    func defaults() throws {
        #expect(try Fault(parsing: "slow-host") == .slowHost(delay: .seconds(2)))
        #expect(try Fault(parsing: " load-fails( nth = 2 ) ") == .loadFails(nth: 2))
        #expect(try Fault(parsing: "load-hangs()") == .loadHangs(nth: 1))
    }

    @Test("a spec that does not read names itself, what is wrong, and its code", arguments: [
        ("slow", FaultSpecError.Code.unknownFault, "no fault is named 'slow'; the faults: none, slow-host, load-fails, load-hangs, memory-limit, time-limit, host-killed, large-share"),
        ("large-share(kind=videos)", .badValue, "kind=videos is neither photos nor file"),
        ("host-killed(after=1h)", .badValue, "after=1h is not a duration such as 2s or 500ms"),
        ("load-fails(nth=0)", .badValue, "nth=0 is not a whole number of at least 1"),
        ("load-fails(n=2)", .badParameter, "load-fails takes no parameter 'n'"),
        ("slow-host(delay=soon)", .badValue, "delay=soon is not a duration such as 2s or 500ms"),
        ("memory-limit(mb=24", .malformed, "a '(' without its closing ')'"),
        ("memory-limit(mb=24,mb=70)", .badParameter, "mb is given twice"),
        ("time-limit(s=-1)", .badValue, "s=-1 is not a number of seconds above 0"),
        ("none(x)", .badParameter, "'x' is not name=value"),
    ])
    func errors(spec: String, code: FaultSpecError.Code, problem: String) {
        #expect(throws: FaultSpecError(code, spec: spec, problem: problem)) { try Fault(parsing: spec) }
        #expect(FaultSpecError(code, spec: spec, problem: problem).description == "fault '\(spec)': \(problem)")
    }

    @Test("a fault codes as its canonical spec, and reading one that does not parse says why")
    func coding() throws {
        let faults: [Fault] = [.none, .slowHost(delay: .milliseconds(1500)), .largeShare(.file), .timeLimit(seconds: 2.5)]
        let data = try JSONEncoder().encode(faults)
        #expect(String(decoding: data, as: UTF8.self) == #"["none","slow-host(delay=1500ms)","large-share(kind=file)","time-limit(s=2.5)"]"#)
        #expect(try JSONDecoder().decode([Fault].self, from: data) == faults)
        #expect {
            try JSONDecoder().decode([Fault].self, from: Data(#"["crash(now=1)"]"#.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == "fault 'crash(now=1)': no fault is named 'crash'; the faults: none, slow-host, load-fails, load-hangs, memory-limit, time-limit, host-killed, large-share"
        }
    }

    @Test("a list splits at commas outside parentheses, drops repeats; standard and all name sets")
    func lists() throws {
        #expect(try Fault.list(parsing: "none,slow-host(delay=1s),none,memory-limit(mb=24)") == [.none, .slowHost(delay: .seconds(1)), .memoryLimit(megabytes: 24)])
        #expect(try Fault.list(parsing: "standard") == Fault.standard)
        #expect(try Fault.list(parsing: "all") == Fault.all)
        #expect(Fault.all.starts(with: Fault.standard))
        #expect(Set(Fault.all).count == Fault.all.count)
    }

    @Test("a fault sets the run's limits or the host's misbehaviour, and nothing else")
    func apply() {
        let base = ExtensionLimits(memory: 120 << 20)
        func applied(_ fault: Fault) -> (ExtensionLimits, HostFaults) {
            var limits = base, faults = HostFaults()
            fault.apply(to: &limits, &faults)
            return (limits, faults)
        }
        #expect(applied(.none) == (base, HostFaults()))
        #expect(applied(.hostKilled(after: .seconds(1))) == (base, HostFaults()))
        #expect(applied(.largeShare(.photos)) == (base, HostFaults()))
        #expect(applied(.slowHost(delay: .seconds(2))) == (base, HostFaults(loadDelay: .seconds(2))))
        #expect(applied(.loadFails(nth: 2)) == (base, HostFaults(failingLoad: 2)))
        #expect(applied(.loadHangs(nth: 1)) == (base, HostFaults(hangingLoad: 1)))
        var smaller = base
        smaller.memory = 24 << 20
        #expect(applied(.memoryLimit(megabytes: 24)) == (smaller, HostFaults()))
        var shorter = base
        shorter.request = .milliseconds(2500)
        #expect(applied(.timeLimit(seconds: 2.5)) == (shorter, HostFaults()))
    }
}
