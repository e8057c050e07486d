/// A read-only map from strings, compared case-insensitively, to lists of type numbers.
///
/// Built once from the system table; a lookup hashes the key's UTF-8 bytes while folding ASCII letters to
/// lower case, so an ASCII key is found without allocating a lowercased copy (the common case for
/// identifiers, extensions and MIME types). Open addressing, FNV-1a hashes, all storage in flat arrays.
struct CaseFoldedIndex: Sendable {
    enum Lookup {
        /// The key holds a NUL byte: no key can match it, and no tag may contain one.
        case invalid
        case found(ArraySlice<Int32>)
        case notFound
    }

    private let slots: [Int32]
    private let mask: Int
    private let hashes: [UInt64]
    private let keyBytes: [UInt8]
    private let keyEnds: [Int]
    private let values: [Int32]
    private let valueEnds: [Int]

    /// - Parameter entries: keys (already lowercased) and their values.
    init(_ entries: [(key: String, values: [Int32])]) {
        var capacity = 16
        while capacity < entries.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var hashes: [UInt64] = [], keyBytes: [UInt8] = [], keyEnds: [Int] = [], values: [Int32] = [], valueEnds: [Int] = []
        for (number, entry) in entries.enumerated() {
            let bytes = Array(entry.key.utf8)
            let hash = Self.hash(bytes)
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(number)
            hashes.append(hash)
            keyBytes += bytes
            keyEnds.append(keyBytes.count)
            values += entry.values
            valueEnds.append(values.count)
        }
        self.slots = slots
        self.mask = capacity - 1
        self.hashes = hashes
        self.keyBytes = keyBytes
        self.keyEnds = keyEnds
        self.values = values
        self.valueEnds = valueEnds
    }

    func lookup(_ key: String) -> Lookup {
        var key = key
        let result = key.withUTF8 { bytes -> Lookup? in
            var hash = Self.offsetBasis
            var folded = false
            for byte in bytes {
                if byte == 0 { return .invalid }
                if byte >= 0x80 { return nil }
                let lower = Self.fold(byte)
                folded = folded || lower != byte
                hash = (hash ^ UInt64(lower)) &* Self.prime
            }
            return lookupFolded(bytes, hash: hash, alreadyLower: !folded)
        }
        if let result { return result }
        // Non-ASCII: Unicode lowercasing first, as the keys were made.
        var lowered = key.lowercased()
        return lowered.withUTF8 { bytes in
            bytes.contains(0) ? .invalid : lookupFolded(bytes, hash: Self.hash(bytes), alreadyLower: false)
        }
    }

    private func lookupFolded(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, alreadyLower: Bool) -> Lookup {
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let number = Int(slots[slot])
            if number < 0 { return .notFound }
            if hashes[number] == hash {
                let start = number == 0 ? 0 : keyEnds[number - 1]
                if keyEnds[number] - start == bytes.count && matches(bytes, at: start, alreadyLower: alreadyLower) {
                    return .found(values[(number == 0 ? 0 : valueEnds[number - 1])..<valueEnds[number]])
                }
            }
            slot = (slot + 1) & mask
        }
    }

    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, alreadyLower: Bool) -> Bool {
        keyBytes.withUnsafeBufferPointer { stored in
            if alreadyLower { return bytes.elementsEqual(stored[start..<(start + bytes.count)]) }
            for offset in 0..<bytes.count where Self.fold(bytes[offset]) != stored[start + offset] { return false }
            return true
        }
    }

    @inline(__always)
    private static func fold(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x100_0000_01b3

    /// FNV-1a over ASCII-folded bytes.
    private static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes { hash = (hash ^ UInt64(fold(byte))) &* prime }
        return hash
    }
}
