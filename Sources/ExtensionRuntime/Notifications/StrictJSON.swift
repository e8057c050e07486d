/// JSON as RFC 8259 writes it, and nothing more: what Apple's push service takes. Foundation's reader also takes
/// a trailing comma, a comment or a NaN; a payload with one is refused by the service, so it is refused here too,
/// before Foundation reads it, naming the line and column of the first byte that is not JSON.
enum StrictJSON {
    /// Where `bytes` stops being JSON, and why.
    struct Fault: Error, Equatable {
        /// 1-based, counted in lines ended by a line feed.
        var line: Int
        /// 1-based, counted in bytes from the start of the line.
        var column: Int
        var reason: String
    }

    /// Checks that `bytes` is one JSON value, with only whitespace around it.
    static func check(_ bytes: [UInt8]) throws(Fault) {
        var scanner = Scanner(bytes: bytes)
        try scanner.value()
        scanner.skipWhitespace()
        if scanner.index < bytes.count { throw scanner.fault("\(scanner.describe()) after the end of the JSON value") }
    }

    /// A walk through the bytes: containers kept on a stack of their own, so nesting costs no recursion.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        private enum Container { case object, array }

        /// One value, containers and all.
        mutating func value() throws(Fault) {
            var open: [Container] = []
            var expectingValue = true
            while true {
                skipWhitespace()
                if expectingValue {
                    switch peek {
                    case UInt8(ascii: "{"):
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "}") { index += 1; expectingValue = false; break }
                        open.append(.object)
                        try key()
                        continue
                    case UInt8(ascii: "["):
                        index += 1
                        skipWhitespace()
                        if peek == UInt8(ascii: "]") { index += 1; expectingValue = false; break }
                        open.append(.array)
                        continue
                    default:
                        try scalar()
                        expectingValue = false
                    }
                }
                guard let container = open.last else { return }
                skipWhitespace()
                let closing = container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if peek == closing {
                    index += 1
                    open.removeLast()
                    continue
                }
                guard peek == UInt8(ascii: ",") else {
                    let wanted = container == .object ? "a comma or }" : "a comma or ]"
                    throw fault("\(describe()) where \(wanted) belongs")
                }
                let comma = index
                index += 1
                skipWhitespace()
                if peek == closing {
                    index = comma
                    throw fault("a trailing comma before \(Character(UnicodeScalar(closing))): JSON has none")
                }
                if container == .object { try key() }
                expectingValue = true
            }
        }

        /// A key and its colon.
        private mutating func key() throws(Fault) {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw fault("\(describe()) where a key in double quotes belongs") }
            try string()
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw fault("\(describe()) where a colon after the key belongs") }
            index += 1
        }

        private mutating func scalar() throws(Fault) {
            guard let byte = peek else { throw fault("the end of the payload where a value belongs") }
            switch byte {
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "/"): throw fault("a comment: JSON has none")
            case UInt8(ascii: "N"), UInt8(ascii: "I"): throw fault("\(describe()): JSON has no NaN or Infinity")
            case UInt8(ascii: "'"): throw fault("a single quote: JSON's strings take double quotes")
            default: throw fault("\(describe()) where a value belongs")
            }
        }

        private mutating func literal(_ word: String) throws(Fault) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw fault("\(describe()) where a value belongs (not \(word))")
            }
            index += expected.count
        }

        /// A number; a fault in its leading part is placed at its start.
        private mutating func number() throws(Fault) {
            let start = index
            if peek == UInt8(ascii: "-") { index += 1 }
            if peek == UInt8(ascii: "0") {
                index += 1
                if let next = peek, isDigit(next) {
                    index = start
                    throw fault("a number with a leading zero")
                }
            } else if digits() == 0 {
                let infinity = peek == UInt8(ascii: "I")
                index = start
                throw fault(infinity ? "-Infinity: JSON has no NaN or Infinity" : "a minus sign with no digits after it")
            }
            if peek == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw fault("a decimal point with no digits after it") }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw fault("an exponent with no digits") }
            }
        }

        private mutating func digits() -> Int {
            let start = index
            while let byte = peek, isDigit(byte) { index += 1 }
            return index - start
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        /// A string in double quotes: its escapes, no control characters, and UTF-8 throughout.
        private mutating func string() throws(Fault) {
            let opening = index
            index += 1
            while true {
                guard let byte = peek else {
                    index = opening
                    throw fault("a string that is never closed")
                }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    switch peek {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 1
                    case UInt8(ascii: "u"):
                        index += 1
                        for _ in 0..<4 {
                            guard let hex = peek, isDigit(hex) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(hex | 0x20) else {
                                throw fault("\\u without four hexadecimal digits")
                            }
                            index += 1
                        }
                    default:
                        index -= 1
                        throw fault("a backslash before \(describe(at: index + 1)): JSON has no such escape")
                    }
                case 0..<0x20:
                    throw fault("a control character (\(byte)) inside a string: JSON writes it as an escape")
                case 0x80...:
                    try utf8Sequence()
                default:
                    index += 1
                }
            }
        }

        /// One UTF-8 sequence of two to four bytes, as RFC 3629 allows them.
        private mutating func utf8Sequence() throws(Fault) {
            let lead = bytes[index]
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: throw fault("a byte (\(lead)) that is not UTF-8")
            }
            for offset in 1..<length {
                guard index + offset < bytes.count else { throw fault("a UTF-8 sequence cut short") }
                let byte = bytes[index + offset]
                let range = offset == 1 ? low...high : 0x80...0xBF
                guard range.contains(byte) else { throw fault("a byte (\(lead)) that is not UTF-8") }
            }
            index += length
        }

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// What stands at `position` (the index unless given), for a message.
        func describe(at position: Int? = nil) -> String {
            let position = position ?? index
            guard position < bytes.count else { return "the end of the payload" }
            let byte = bytes[position]
            if byte >= 0x21 && byte < 0x7F { return "'\(Character(UnicodeScalar(byte)))'" }
            return "a byte \(byte)"
        }

        /// A fault at the index.
        func fault(_ reason: String) -> Fault {
            var line = 1, lineStart = 0
            for position in 0..<min(index, bytes.count) where bytes[position] == 0x0A {
                line += 1
                lineStart = position + 1
            }
            return Fault(line: line, column: index - lineStart + 1, reason: reason)
        }
    }
}
