import struct Foundation.Data
import struct Foundation.Date

/// Reads an XML property list (Apple's `PropertyList-1.0` DTD) from UTF-8 bytes, keeping the line and
/// column of every value. Tolerates what real Info.plists contain (comments anywhere between elements,
/// a malformed DOCTYPE, a missing `<plist>` wrapper, CDATA); rejects everything else with an error that
/// names the element and the position.
struct XMLPropertyListReader {
    private let bytes: [UInt8]
    private var index: Int
    private let lineStarts: [Int]
    private var nodeCount = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        self.lineStarts = starts
        // A UTF-8 byte-order mark is allowed before the document.
        self.index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    mutating func read() throws(PropertyListError) -> PropertyListNode {
        try skipProlog()
        guard index < bytes.count else { throw error("the document has no root element") }
        let root = try readStartTag()
        let node: PropertyListNode
        if root.name == "plist" {
            if root.isEmpty { throw error("<plist> is empty", at: root.start) }
            try skipMisc()
            let valueTag = try readStartTag()
            node = try readValue(valueTag, depth: 0)
            try skipMisc()
            try readEndTag("plist")
        } else {
            node = try readValue(root, depth: 0)
        }
        try skipMisc()
        if index < bytes.count { throw error("unexpected content after the root element") }
        return node
    }

    // MARK: Values

    private mutating func readValue(_ tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListNode {
        nodeCount += 1
        if nodeCount > PropertyListLimits.maximumNodes {
            throw PropertyListError(.limitExceeded, "more than \(PropertyListLimits.maximumNodes) values", at: location(tag.start))
        }
        let at = location(tag.start)
        switch tag.name {
        case "dict":
            return PropertyListNode(.dictionary(try readDictionary(tag, depth: depth + 1)), at: at)
        case "array":
            return PropertyListNode(.array(try readArray(tag, depth: depth + 1)), at: at)
        case "string":
            return PropertyListNode(.string(try readText(tag)), at: at)
        case "integer":
            return PropertyListNode(.integer(try parseInteger(readText(tag), at: tag.start)), at: at)
        case "real":
            return PropertyListNode(.real(try parseReal(readText(tag), at: tag.start)), at: at)
        case "true", "false":
            if !tag.isEmpty {
                let text = try readText(tag)
                if !text.allSatisfy(\.isWhitespace) { throw error("<\(tag.name)> must be empty", at: tag.start) }
            }
            return PropertyListNode(.boolean(tag.name == "true"), at: at)
        case "date":
            return PropertyListNode(.date(try parseDate(readText(tag), at: tag.start)), at: at)
        case "data":
            let text = try readText(tag).filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: text) else { throw error("<data> is not valid base64", at: tag.start) }
            return PropertyListNode(.data(data), at: at)
        case "key":
            throw error("<key> outside a <dict>", at: tag.start)
        default:
            throw error("unknown element <\(tag.name)>", at: tag.start)
        }
    }

    private mutating func readDictionary(_ tag: Tag, depth: Int) throws(PropertyListError) -> PropertyListDictionary {
        try checkDepth(depth, at: tag.start)
        var dictionary = PropertyListDictionary()
        if tag.isEmpty { return dictionary }
        while true {
            try skipMisc()
            if isAtEndTag { try readEndTag("dict"); return dictionary }
            let keyTag = try readStartTag()
            guard keyTag.name == "key" else {
                throw error("expected <key> in <dict>, found <\(keyTag.name)>", at: keyTag.start)
            }
            let key = try readText(keyTag)
            try skipMisc()
            if isAtEndTag { throw error("<key>\(key)</key> has no value", at: keyTag.start) }
            let valueTag = try readStartTag()
            let value = try readValue(valueTag, depth: depth)
            dictionary.entries.append(.init(key: key, keyLocation: location(keyTag.start), value: value))
        }
    }

    private mutating func readArray(_ tag: Tag, depth: Int) throws(PropertyListError) -> [PropertyListNode] {
        try checkDepth(depth, at: tag.start)
        var elements: [PropertyListNode] = []
        if tag.isEmpty { return elements }
        while true {
            try skipMisc()
            if isAtEndTag { try readEndTag("array"); return elements }
            elements.append(try readValue(try readStartTag(), depth: depth))
        }
    }

    private func checkDepth(_ depth: Int, at offset: Int) throws(PropertyListError) {
        if depth > PropertyListLimits.maximumDepth {
            throw PropertyListError(.limitExceeded, "nesting deeper than \(PropertyListLimits.maximumDepth) levels", at: location(offset))
        }
    }

    /// The character data of an element up to its end tag, entities and CDATA decoded, comments dropped.
    private mutating func readText(_ tag: Tag) throws(PropertyListError) -> String {
        if tag.isEmpty { return "" }
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("<\(tag.name)> is not closed", at: tag.start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if hasPrefix("<!--") {
                    try skipComment()
                } else if hasPrefix("<![CDATA[") {
                    index += 9
                    guard let end = find("]]>") else { throw error("CDATA section is not closed") }
                    text.append(contentsOf: bytes[index..<end])
                    index = end + 3
                } else {
                    try readEndTag(tag.name)
                    break
                }
            } else if byte == UInt8(ascii: "&") {
                text.append(contentsOf: try readEntity())
            } else {
                text.append(byte)
                index += 1
            }
        }
        guard let string = String(validating: text, as: UTF8.self) else {
            throw error("<\(tag.name)> is not valid UTF-8", at: tag.start)
        }
        return string
    }

    private mutating func readEntity() throws(PropertyListError) -> [UInt8] {
        let start = index
        guard let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
            throw error("'&' that starts no entity (write &amp;)")
        }
        let name = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var value: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                value = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst(), radix: 10)
            }
            guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
                throw error("unknown entity &\(name);", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }

    // MARK: Scalars

    private func parseInteger(_ text: String, at offset: Int) throws(PropertyListError) -> Int64 {
        let trimmed = text.trimmingWhitespace()
        var digits = Substring(trimmed)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        let magnitude: UInt64?
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            magnitude = UInt64(digits.dropFirst(2), radix: 16)
        } else {
            magnitude = digits.allSatisfy(\.isASCII) ? UInt64(digits, radix: 10) : nil
        }
        guard let magnitude else {
            if !trimmed.isEmpty, trimmed.dropFirst().allSatisfy(\.isNumber) {
                throw PropertyListError(.limitExceeded, "integer \(trimmed) is out of range", at: location(offset))
            }
            throw error("<integer> holds '\(trimmed)', which is not an integer", at: offset)
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else {
                throw PropertyListError(.limitExceeded, "integer \(trimmed) is out of range", at: location(offset))
            }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else {
            // Core Foundation keeps unsigned 64-bit values; they are rare enough to refuse here.
            throw PropertyListError(.limitExceeded, "integer \(trimmed) is out of range", at: location(offset))
        }
        return Int64(magnitude)
    }

    private func parseReal(_ text: String, at offset: Int) throws(PropertyListError) -> Double {
        let trimmed = text.trimmingWhitespace()
        switch trimmed.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            guard let value = Double(trimmed) else { throw error("<real> holds '\(trimmed)', which is not a number", at: offset) }
            return value
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the only form the DTD allows, as seconds since 1970 (UTC).
    private func parseDate(_ text: String, at offset: Int) throws(PropertyListError) -> Date {
        let s = Array(text.trimmingWhitespace().utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= s.count else { return nil }
            var n = 0
            for b in s[range] {
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                n = n * 10 + Int(b - UInt8(ascii: "0"))
            }
            return n
        }
        guard s.count == 20, s[4] == UInt8(ascii: "-"), s[7] == UInt8(ascii: "-"), s[10] == UInt8(ascii: "T"),
              s[13] == UInt8(ascii: ":"), s[16] == UInt8(ascii: ":"), s[19] == UInt8(ascii: "Z"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else {
            throw error("<date> holds '\(text)', not a date of the form 2024-01-31T12:00:00Z", at: offset)
        }
        // Days from the civil calendar (Howard Hinnant's algorithm), proleptic Gregorian.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
        return Date(timeIntervalSince1970: seconds)
    }

    // MARK: Markup

    private struct Tag {
        var name: String
        var isEmpty: Bool
        var start: Int
    }

    private var isAtEndTag: Bool { hasPrefix("</") }

    private mutating func readStartTag() throws(PropertyListError) -> Tag {
        let start = index
        guard index < bytes.count, bytes[index] == UInt8(ascii: "<") else {
            throw error(index < bytes.count ? "expected an element, found text" : "unexpected end of document")
        }
        index += 1
        let name = readName()
        if name.isEmpty { throw error("expected an element name", at: start) }
        // Attributes are read past and ignored (only <plist version="1.0"> has any).
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { index += 1; return Tag(name: name, isEmpty: false, start: start) }
            if byte == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else { break }
                index += 2
                return Tag(name: name, isEmpty: true, start: start)
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                guard let close = bytes[(index + 1)...].firstIndex(of: byte) else { break }
                index = close + 1
            } else {
                index += 1
            }
        }
        throw error("<\(name)> is not closed with '>'", at: start)
    }

    private mutating func readEndTag(_ name: String) throws(PropertyListError) {
        let start = index
        guard hasPrefix("</") else { throw error("expected </\(name)>") }
        index += 2
        let found = readName()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw error("</\(found)> is not closed with '>'", at: start) }
        index += 1
        if found != name { throw error("expected </\(name)>, found </\(found)>", at: start) }
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            let isNameByte = (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
                || b == UInt8(ascii: ":") || b == UInt8(ascii: ".")
            guard isNameByte else { break }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Skips the XML declaration, DOCTYPE, comments, processing instructions and white space.
    private mutating func skipProlog() throws(PropertyListError) {
        while true {
            skipWhitespace()
            if hasPrefix("<?xml") {
                let start = index
                guard let end = find("?>") else { throw error("the XML declaration is not closed", at: start) }
                let declaration = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
                if let range = declaration.range(of: "encoding=") {
                    let value = declaration[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
                    guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(value)) else {
                        throw error("encoding '\(value)' is not supported; write the property list as UTF-8", at: start)
                    }
                }
                index = end + 2
            } else if hasPrefix("<!DOCTYPE") {
                try skipDoctype()
            } else if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<?") {
                try skipMisc()
            } else {
                return
            }
        }
    }

    private mutating func skipDoctype() throws(PropertyListError) {
        let start = index
        var bracketDepth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "["): bracketDepth += 1
            case UInt8(ascii: "]"): bracketDepth -= 1
            case UInt8(ascii: ">") where bracketDepth <= 0:
                index += 1
                return
            default: break
            }
            index += 1
        }
        throw error("<!DOCTYPE is not closed", at: start)
    }

    /// Skips white space, comments and processing instructions between elements.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipWhitespace()
            if hasPrefix("<!--") {
                try skipComment()
            } else if hasPrefix("<?") {
                let start = index
                guard let end = find("?>") else { throw error("processing instruction is not closed", at: start) }
                index = end + 2
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(PropertyListError) {
        let start = index
        index += 4
        guard let end = find("-->") else { throw error("comment is not closed", at: start) }
        index = end + 3
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    private func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return prefix.withUTF8Buffer { buffer in
            for i in 0..<count where bytes[index + i] != buffer[i] { return false }
            return true
        }
    }

    /// The offset of the next occurrence of `needle` at or after the current index.
    private func find(_ needle: StaticString) -> Int? {
        needle.withUTF8Buffer { buffer -> Int? in
            let count = buffer.count
            guard count > 0, bytes.count >= count else { return nil }
            var i = index
            while i + count <= bytes.count {
                if bytes[i] == buffer[0] {
                    var matched = true
                    for j in 1..<count where bytes[i + j] != buffer[j] { matched = false; break }
                    if matched { return i }
                }
                i += 1
            }
            return nil
        }
    }

    // MARK: Positions

    private func location(_ offset: Int) -> PropertyListLocation {
        // The last line start at or before the offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        let lineStart = lineStarts[low]
        let end = min(offset, bytes.count)
        var column = 1
        if lineStart < end {
            for byte in bytes[lineStart..<end] where byte & 0xC0 != 0x80 { column += 1 }
        }
        return PropertyListLocation(byteOffset: offset, line: low + 1, column: column)
    }

    private func error(_ message: String, at offset: Int? = nil) -> PropertyListError {
        PropertyListError(.malformedXML, message, at: location(offset ?? min(index, bytes.count)))
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(self.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
