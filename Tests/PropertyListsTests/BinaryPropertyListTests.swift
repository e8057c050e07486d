import Foundation
import PropertyBased
@testable import PropertyLists
import Testing

@Suite("Binary property lists")
struct BinaryPropertyListTests {
    @Test("values written by Foundation read back equal")
    func foundationRoundTrip() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12_345.5)
        let value: [String: Any] = [
            "ascii": "hello", "unicode": "日本 é", "int": 42, "negative": -7, "big": Int64.max, "small": Int64.min,
            "real": 2.5, "true": true, "false": false, "date": date, "data": Data([0, 1, 2, 255]),
            "array": [1, "two", [3]], "nested": ["a": ["b": ["c": "d"]]], "empty": [String: Any](), "none": [Any](),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        let dict = try #require(try PropertyList.read(data).dictionary)
        #expect(dict["ascii"]?.string == "hello")
        #expect(dict["unicode"]?.string == "日本 é")
        #expect(dict["int"]?.integer == 42)
        #expect(dict["negative"]?.integer == -7)
        #expect(dict["big"]?.integer == Int64.max)
        #expect(dict["small"]?.integer == Int64.min)
        #expect(dict["true"]?.boolean == true && dict["false"]?.boolean == false)
        if case .date(let d)? = dict["date"]?.value { #expect(d == date) } else { Issue.record("date") }
        if case .data(let d)? = dict["data"]?.value { #expect(d == Data([0, 1, 2, 255])) } else { Issue.record("data") }
        #expect(dict["array"]?.array?.map(\.kindName) == ["integer", "string", "array"])
        #expect(dict["nested"]?.dictionary?["a"]?.dictionary?["b"]?.dictionary?["c"]?.string == "d")
        #expect(dict["empty"]?.dictionary?.entries.isEmpty == true)
        #expect(dict["none"]?.array?.isEmpty == true)
    }

    @Test("generated string and integer trees read back as Foundation wrote them")
    func generatedRoundTrip() async {
        let key = Gen.letterOrNumber.string(of: 0...12)
        let entries = Gen.int(in: -1_000_000...1_000_000).array(of: 0...20)
        await propertyCheck(count: 200, input: key.array(of: 0...20), entries) { keys, numbers in
            var dict: [String: Any] = [:]
            for (i, k) in keys.enumerated() { dict[k] = i < numbers.count ? numbers[i] as Any : k as Any }
            let data = try PropertyListSerialization.data(fromPropertyList: ["root": dict, "list": numbers], format: .binary, options: 0)
            let node = try PropertyList.read(data)
            let root = try #require(node.dictionary?["root"]?.dictionary)
            #expect(Set(root.keys) == Set(dict.keys))
            for (k, v) in dict {
                if let n = v as? Int { #expect(root[k]?.integer == Int64(n)) } else { #expect(root[k]?.string == v as? String) }
            }
            #expect(node.dictionary?["list"]?.array?.compactMap(\.integer) == numbers.map(Int64.init))
        }
    }

    /// Builds a `bplist00` from raw objects: each is its encoded bytes, references are one byte.
    static func bplist(_ objects: [[UInt8]], root: Int = 0, count: Int? = nil, tableOffset: Int? = nil, referenceSize: UInt8 = 1) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        let offsetSize: UInt8 = table > 255 ? 2 : 1
        for offset in offsets {
            if offsetSize == 2 { bytes.append(UInt8(offset >> 8)) }
            bytes.append(UInt8(truncatingIfNeeded: offset))
        }
        var trailer = [UInt8](repeating: 0, count: 6) + [offsetSize, referenceSize]
        func be64(_ v: Int) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(bitPattern: Int64(v)) >> (UInt64($0) * 8)) } }
        trailer += be64(count ?? objects.count) + be64(root) + be64(tableOffset ?? table)
        return Data(bytes + trailer)
    }

    @Test("hand-built documents read")
    func handBuilt() throws {
        // An array of one ASCII string.
        let node = try PropertyList.read(Self.bplist([[0xA1, 1], [0x52] + Array("hi".utf8)]))
        #expect(node.array?.first?.string == "hi")
    }

    @Test("hostile documents get errors, never crashes", arguments: [
        ("an array containing itself", bplist([[0xA1, 0]]), PropertyListError.Code.cyclicReference),
        ("a dictionary whose value is its ancestor", bplist([[0xD1, 1, 2], [0x51, 0x6B], [0xA1, 0]]), .cyclicReference),
        ("a reference past the object count", bplist([[0xA1, 9]]), .malformedBinary),
        ("an object count larger than the file", bplist([[0x09]], count: 1 << 40), .malformedBinary),
        ("the root past the objects", bplist([[0x09]], root: 5), .malformedBinary),
        ("an offset table outside the file", bplist([[0x09]], tableOffset: 1 << 50), .malformedBinary),
        ("a string longer than the file", bplist([[0x5F, 0x13, 0x7F, 0xFF, 0xFF, 0xFF]]), .malformedBinary),
        ("a length that is not an integer", bplist([[0x5F, 0x51, 0x41]]), .malformedBinary),
        ("an unknown marker", bplist([[0x70]]), .malformedBinary),
        ("a non-string dictionary key", bplist([[0xD1, 1, 1], [0x10, 0x01]]), .malformedBinary),
        ("a reference size of zero", bplist([[0x09]], referenceSize: 0), .malformedBinary),
        ("a non-ASCII byte in an ASCII string", bplist([[0x51, 0xC3]]), .malformedBinary),
        ("a truncated file", Data("bplist00".utf8 + [0x09]), .malformedBinary),
        ("an unsupported version", Data("bplist15".utf8 + [UInt8](repeating: 0, count: 40)), .malformedBinary),
    ] as [(String, Data, PropertyListError.Code)])
    func hostile(_ name: String, _ data: Data, _ code: PropertyListError.Code) {
        do {
            _ = try PropertyList.read(data)
            Issue.record("\(name) was read")
        } catch {
            #expect(error.code == code, "\(name): \(error)")
        }
    }

    @Test("shared objects that would expand exponentially stop at the value limit")
    func exponentialSharing() {
        // Object i is an array holding object i+1 twice; 40 levels would be 2^40 values if expanded.
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])
        do {
            _ = try PropertyList.read(Self.bplist(objects))
            Issue.record("read a 2^40-value document")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }

    @Test("nesting deeper than the limit is refused; up to it reads")
    func deepNesting() throws {
        func nested(_ depth: Int) -> Data {
            var objects: [[UInt8]] = (0..<depth).map { [0xA1, UInt8(($0 + 1) >> 8), UInt8(truncatingIfNeeded: $0 + 1)] }
            objects.append([0x09])
            return Self.bplist(objects, referenceSize: 2)
        }
        #expect(try PropertyList.read(nested(200)).array != nil)
        do {
            _ = try PropertyList.read(nested(1000))
            Issue.record("read 1000 levels")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }
}
