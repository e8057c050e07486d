internal import CSystemTypeTables

/// A read-only map from strings, compared case-insensitively, to lists of type numbers.
///
/// Compiled in: `Tools/generate-uttype-tables.py` lays out the table as C arrays, reading keys and hashing
/// them as this type does, so a lookup touches constant memory with no initialization and no reference
/// counting.
///
/// A key is read as two words, its first eight bytes and the rest up to 16 (or, when longer, its last
/// eight). For a key of up to 16 bytes the two words and the length are the whole key, so a lookup is two
/// loads, a hash of the words, one probe and three comparisons, with no loop over the bytes; a longer key
/// compares its middle words too. The hash ignores case; the comparison takes the words as they are first,
/// as a tag is usually in lower case already, and folds them (A to Z made a to z) only when that fails.
/// Open addressing, at most half full, the entries in their slots.
///
/// A key that is not found is checked only then: one holding NUL is `.invalid`, one that is not ASCII is
/// lowercased and looked up again, as Unicode lowercasing would have made it a key. (A key that is found
/// equals a stored key once folded, so it holds no NUL, and lowercasing it would find the same key.)
// @unchecked: its pointers are to constant tables compiled in, never written.
struct CaseFoldedIndex: @unchecked Sendable {
    enum Lookup {
        /// The key holds a NUL byte: no key can match it, and no tag may contain one.
        case invalid
        case found(Values)
        case notFound
    }

    /// The type numbers a key maps to, best first: the first kept in the key's slot, so that the usual
    /// answer is read with the key, and the rest.
    struct Values: Sequence {
        let first: Int32
        let rest: UnsafeBufferPointer<Int32>

        struct Iterator: IteratorProtocol {
            fileprivate let values: Values
            fileprivate var position = -1

            mutating func next() -> Int32? {
                defer { position += 1 }
                if position < 0 { return values.first }
                return position < values.rest.count ? values.rest[position] : nil
            }
        }

        func makeIterator() -> Iterator { Iterator(values: self) }
    }

    /// Four words a slot: the key's first and last words, in lower case (as `ends(of:)` reads them); its length in
    /// bytes (bits 0 to 15; 0 in an empty slot, as no key is empty), how many values it has (bits 16 to 31)
    /// and where its middle words start in `middles` (the high half); its first value (the low half) and
    /// where the others start in `values` (the high half).
    private let slots: UnsafePointer<UInt64>
    /// A power of two.
    private let slotCount: Int
    /// What the hash mixes in: the generator chose the one that placed the keys best.
    private let seed: UInt64
    /// The folded words between the first and the last eight bytes of keys longer than 16 bytes.
    private let middles: UnsafePointer<UInt64>
    private let values: UnsafePointer<Int32>

    /// An index the generator laid out, in constant memory.
    init(_ table: system_type_index) {
        slots = table.slots
        slotCount = table.slot_count
        seed = table.seed
        middles = table.middles
        values = table.values
    }

    /// Inlined, so that a caller naming its index reads the index's layout as constants.
    @inline(__always)
    func lookup(_ key: String) -> Lookup {
        guard let found = key.utf8.withContiguousStorageIfAvailable(lookup(utf8:)) else { return lookupCopy(of: key) }
        return found.map(Lookup.found) ?? missed(key)
    }

    /// The values of the key whose UTF-8 bytes these are, compared case-insensitively as ASCII.
    @inline(__always)
    func lookup(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Values? {
        let slot = entry(for: bytes)
        return slot >= 0 ? values(of: slot) : nil
    }

    /// A key not stored contiguously (bridged), looked up as a native copy.
    @inline(never)
    private func lookupCopy(of key: String) -> Lookup {
        var copy = key
        copy.makeContiguousUTF8()
        return lookup(copy)
    }

    /// What a key no entry matched is: invalid, not found, or, when it is not ASCII, what its Unicode
    /// lowercasing finds, as the keys were made.
    private func missed(_ key: String) -> Lookup {
        if key.utf8.contains(0) { return .invalid }
        guard key.utf8.contains(where: { $0 >= 0x80 }) else { return .notFound }
        var lowered = key.lowercased()
        return lowered.withUTF8(lookup(utf8:)).map(Lookup.found) ?? .notFound
    }

    private func values(of slot: Int) -> Values {
        let entry = slots + slot &* 4
        let count = Int(truncatingIfNeeded: entry[2] >> 16 & 0xffff)
        return Values(first: Int32(truncatingIfNeeded: entry[3]),
                      rest: UnsafeBufferPointer(start: values + Int(truncatingIfNeeded: entry[3] >> 32), count: count &- 1))
    }

    /// The slot of the entry whose key the bytes are, compared case-insensitively; -1 when there is none.
    @inline(__always)
    private func entry(for bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let (firstBytes, lastBytes) = Self.ends(of: bytes)
        let mask = slotCount &- 1
        var slot = Self.hash(firstBytes, lastBytes, bytes.count, seed: seed) & mask
        while true {
            let entry = slots + slot &* 4
            let length = Int(truncatingIfNeeded: entry[2] & 0xffff)
            if length == 0 { return -1 }
            // Keys are lower case, as a tag usually is already: its words are compared as they are, and
            // folded only when that fails.
            if _fastPath(length == bytes.count
                && (entry[0] == firstBytes && entry[1] == lastBytes || Self.foldedEqual(firstBytes, lastBytes, entry))
                && middlesMatch(bytes, from: Int(truncatingIfNeeded: entry[2] >> 32))) {
                return slot
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// Whether the words, folded, are the entry's. Out of line: the usual tag needs no folding.
    @inline(never)
    private static func foldedEqual(_ first: UInt64, _ last: UInt64, _ entry: UnsafePointer<UInt64>) -> Bool {
        entry[0] == fold(first) && entry[1] == fold(last)
    }

    @inline(__always)
    private func middlesMatch(_ bytes: UnsafeBufferPointer<UInt8>, from firstMiddle: Int) -> Bool {
        guard bytes.count > 16 else { return true }
        var index = firstMiddle
        var equal = true
        Self.forEachMiddleWord(of: bytes) { word in
            equal = equal && word == middles[index]
            index += 1
        }
        return equal
    }

    /// The first and last words, as they are. A key of up to 16 bytes is its first eight bytes and the rest,
    /// each word zero past the key's end, so the two words and the length are the whole key; a longer key's
    /// are its first eight and its last eight.
    ///
    /// Up to 16 bytes are read as two whole words and the bytes past the key masked off, with no branch on
    /// the length, when the 16 bytes from the key's start lie in one page: a read inside a page the key is
    /// in cannot fault, whatever it reads past the key. (A small string's bytes are a 16-byte copy on the
    /// stack; loads at its offsets 0 and 8 match the stores that made it.) Otherwise they are copied out
    /// first.
    @inline(__always)
    private static func ends(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return (0, 0) }
        let count = bytes.count
        if count > 16 { return (word(base, 0), word(base, count - 8)) }
        let (first, last) = _fastPath(UInt(bitPattern: base) % pageSize <= pageSize - 16)
            ? (word(base, 0), word(base, 8)) : copiedWords(bytes)
        // The key's bytes' masks, read from a window sliding over ones then zeros: no branch on the length.
        let masks = UnsafeRawPointer(case_folded_key_masks()) + (16 &- count)
        return (first & masks.loadUnaligned(as: UInt64.self), last & masks.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    }

    /// Up to 16 bytes as two words, zero past their end.
    @inline(never)
    private static func copiedWords(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
    }

    /// The smallest page size of the platforms Swift runs on; reads that stay inside one cannot fault.
    private static let pageSize: UInt = 4096

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

    /// A multiplicative hash of the two words, the length and the seed, its high bits taken. It sees each
    /// byte with its bit 5 set, as A to Z and a to z differ only there, so it needs no folding: keys equal but
    /// for case hash alike.
    @inline(__always)
    private static func hash(_ first: UInt64, _ last: UInt64, _ count: Int, seed: UInt64) -> Int {
        let caseless: UInt64 = 0x2020_2020_2020_2020
        let mixed = ((first | caseless) ^ seed) &* 0x9e37_79b9_7f4a_7c15
            ^ ((last | caseless) ^ UInt64(truncatingIfNeeded: count)) &* 0xc2b2_ae3d_27d4_eb4f
        return Int(truncatingIfNeeded: mixed >> 40)
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
