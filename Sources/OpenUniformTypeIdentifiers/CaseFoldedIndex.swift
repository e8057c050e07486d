/// A read-only map from strings, compared case-insensitively, to lists of type numbers.
///
/// Built once for the process-wide system table, so its storage is allocated once and never freed: a lookup
/// then touches plain memory, with no reference counting.
///
/// A key is read as two words, its first eight bytes and the rest up to 16 (or, when longer, its last eight),
/// a part shorter than eight read in smaller loads that together cover every byte; each word is folded to
/// lower case at once. For a key of up to 16 bytes the two words and the length are the whole key, so a lookup is
/// three loads, a hash of the two words, one probe and three comparisons, with no loop over the bytes; a
/// longer key compares its middle words too. Open addressing, at most half full.
///
/// A key that is not found is checked only then: one holding NUL is `.invalid`, one that is not ASCII is
/// lowercased as the keys were made and looked up again. (A key that is found equals a stored key once
/// folded, so it holds no NUL, and lowercasing it would find the same key.)
struct CaseFoldedIndex: @unchecked Sendable {
    enum Lookup {
        /// The key holds a NUL byte: no key can match it, and no tag may contain one.
        case invalid
        case found(UnsafeBufferPointer<Int32>)
        case notFound
    }

    private struct Entry {
        /// The folded first and last words, as `ends(of:)` reads them.
        var first: UInt64, last: UInt64
        var length: Int32
        /// Where the words between the first and the last start in `middles`.
        var firstMiddle: Int32
        /// Where the key's values start in `values`, and how many there are.
        var firstValue: Int32, valueCount: Int32
    }

    private let slots: UnsafeMutableBufferPointer<Int32>
    private let entries: UnsafeMutableBufferPointer<Entry>
    /// The folded middle words of keys longer than 16 bytes.
    private let middles: UnsafeMutableBufferPointer<UInt64>
    private let values: UnsafeMutableBufferPointer<Int32>

    /// - Parameter keyed: keys (already lowercased, none holding NUL) and their values.
    init(_ keyed: [(key: String, values: [Int32])]) {
        var capacity = 16
        while capacity < keyed.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var entries: [Entry] = [], middles: [UInt64] = [], values: [Int32] = []
        for (number, item) in keyed.enumerated() {
            var key = item.key
            key.withUTF8 { bytes in
                let (first, last) = Self.ends(of: bytes)
                var slot = Self.hash(first, last, bytes.count) & (capacity - 1)
                while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = Int32(number)
                entries.append(Entry(first: first, last: last, length: Int32(bytes.count), firstMiddle: Int32(middles.count),
                                     firstValue: Int32(values.count), valueCount: Int32(item.values.count)))
                Self.forEachMiddleWord(of: bytes) { middles.append($0) }
            }
            values += item.values
        }
        func immortal<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(array.count, 1))
            _ = buffer.initialize(from: array)
            return buffer
        }
        self.slots = immortal(slots)
        self.entries = immortal(entries)
        self.middles = immortal(middles)
        self.values = immortal(values)
    }

    func lookup(_ key: String) -> Lookup {
        guard let number = key.utf8.withContiguousStorageIfAvailable(entry(for:)) else {
            // Not stored contiguously (bridged): a native copy.
            var copy = key
            copy.makeContiguousUTF8()
            return lookup(copy)
        }
        return number >= 0 ? .found(values(of: number)) : missed(key)
    }

    /// What a key no entry matched is: invalid, not found, or, when it is not ASCII, what its Unicode
    /// lowercasing finds, as the keys were made.
    private func missed(_ key: String) -> Lookup {
        if key.utf8.contains(0) { return .invalid }
        guard key.utf8.contains(where: { $0 >= 0x80 }) else { return .notFound }
        var lowered = key.lowercased()
        let number = lowered.withUTF8(entry(for:))
        return number >= 0 ? .found(values(of: number)) : .notFound
    }

    private func values(of number: Int) -> UnsafeBufferPointer<Int32> {
        let entry = entries[number]
        return UnsafeBufferPointer(rebasing: values[Int(entry.firstValue)..<Int(entry.firstValue + entry.valueCount)])
    }

    /// The number of the entry whose key the bytes are, once folded; -1 when there is none.
    private func entry(for bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let (first, last) = Self.ends(of: bytes)
        let mask = slots.count - 1
        var slot = Self.hash(first, last, bytes.count) & mask
        while true {
            let number = Int(slots[slot])
            if number < 0 { return -1 }
            let entry = entries[number]
            if entry.first == first && entry.last == last && Int(entry.length) == bytes.count && middlesMatch(bytes, entry) {
                return number
            }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private func middlesMatch(_ bytes: UnsafeBufferPointer<UInt8>, _ entry: Entry) -> Bool {
        guard bytes.count > 16 else { return true }
        var index = Int(entry.firstMiddle)
        var equal = true
        Self.forEachMiddleWord(of: bytes) { word in
            equal = equal && word == middles[index]
            index += 1
        }
        return equal
    }

    /// The folded first and last words: bytes 0 to 8, and bytes 8 to 16 or, past 16 bytes, the last eight.
    /// Together with the length they are the whole key up to 16 bytes.
    @inline(__always)
    private static func ends(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return (0, 0) }
        let count = bytes.count
        let first = part(base, 0, min(count, 8))
        let last = count > 16 ? word(base, count - 8) : part(base, 8, max(count - 8, 0))
        return (fold(first), fold(last))
    }

    /// `count` bytes (up to eight) from `offset` as one word, never reading past them: four to seven bytes
    /// are two overlapping four-byte loads, one to three their first, middle and last byte. With the count,
    /// the word still tells every byte.
    @inline(__always)
    private static func part(_ base: UnsafeRawPointer, _ offset: Int, _ count: Int) -> UInt64 {
        switch count {
        case 8:
            return word(base, offset)
        case 4...7:
            let low = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            let high = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset + count - 4, as: UInt32.self))
            return UInt64(low) | UInt64(high) << 32
        case 1...3:
            let byte = { UInt64(base.load(fromByteOffset: offset + $0, as: UInt8.self)) }
            return byte(0) | byte(count / 2) << 8 | byte(count - 1) << 16
        default:
            return 0
        }
    }

    /// The folded words between a key's first and last eight bytes, for a key longer than 16 bytes.
    @inline(__always)
    private static func forEachMiddleWord(of bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt64) -> Void) {
        guard bytes.count > 16, let base = UnsafeRawPointer(bytes.baseAddress) else { return }
        for offset in stride(from: 8, to: bytes.count - 8, by: 8) { body(fold(word(base, offset))) }
    }

    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    private static func hash(_ first: UInt64, _ last: UInt64, _ count: Int) -> Int {
        let product = (first ^ 0x243f_6a88_85a3_08d3).multipliedFullWidth(by: last ^ 0x1319_8a2e_0370_7344 ^ UInt64(count))
        return Int(truncatingIfNeeded: product.high ^ product.low)
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Each byte of `word` from A to Z made a to z; every other byte, ASCII or not, unchanged.
    @inline(__always)
    private static func fold(_ word: UInt64) -> UInt64 {
        let low = word & ~highBits
        let atLeastA = low &+ 0x3f3f_3f3f_3f3f_3f3f  // top bit set where the byte's low seven bits are ≥ 0x41
        let pastZ = low &+ 0x2525_2525_2525_2525  // ≥ 0x5b
        return word | ((atLeastA & ~pastZ & ~word & highBits) >> 2)
    }
}
