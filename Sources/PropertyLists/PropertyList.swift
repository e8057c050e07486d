package import struct Foundation.Data

/// Reading property lists from untrusted bytes: XML (with positions) and binary (`bplist00`).
package enum PropertyList {
    /// Reads a property list in either format, detected from its first bytes.
    ///
    /// - Throws: `PropertyListError` naming what is wrong and where (line and column for XML, byte offset
    ///   for binary).
    package static func read(_ data: Data) throws(PropertyListError) -> PropertyListNode {
        let bytes = [UInt8](data)
        if BinaryPropertyListReader.isBinaryPropertyList(bytes) {
            var reader = BinaryPropertyListReader(bytes)
            return try reader.read()
        }
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.endIndex, bytes[start] == UInt8(ascii: "<") else {
            if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
                throw PropertyListError(.unknownFormat, "UTF-16 property lists are not supported; write it as UTF-8", at: .init(byteOffset: 0))
            }
            throw PropertyListError(.unknownFormat, "neither an XML nor a binary property list", at: .init(byteOffset: start))
        }
        var reader = XMLPropertyListReader(bytes)
        return try reader.read()
    }
}
