import Foundation
import OpenItemProvider
import SharingSystem

/// Loaded things as they cross the boundary, both ways: what a provider's load gave becomes a `LoadResult`
/// (and the descriptors its packet carries), and a `LoadResult` with its descriptors becomes what the other
/// side's provider hands its consumer.
enum Payloads {
    /// Data as a result: inside the message when small, else in a sealed memory file.
    static func result(for data: Data) throws(SystemError) -> (LoadResult, [OpenFile]) {
        if data.count <= RuntimeMessage.inlineLimit { return (.bytes(Array(data)), []) }
        return (.memory(length: UInt64(data.count)), [try MemoryFile.sealed(data, name: "opensharing-payload")])
    }

    /// A legacy item as a result: URLs and strings as themselves, data as data, property-list objects (a
    /// JavaScript preprocessing dictionary) as a binary property list.
    static func result(for item: (any NSSecureCoding)?) throws(SystemError) -> (LoadResult, [OpenFile]) {
        guard let item else {
            return (.failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: "the provider gave no item")), [])
        }
        switch item as Any {
        case let url as URL:
            return (.url(url.absoluteString), [])
        case let string as String:
            return (.text(string), [])
        case let data as Data:
            return try result(for: data)
        default:
            guard let plist = try? PropertyListSerialization.data(fromPropertyList: item, format: .binary, options: 0) else {
                return (.failed(RemoteError(domain: NSItemProviderErrorDomain, code: Int64(NSItemProvider.ErrorCode.unexpectedValueClassError.rawValue),
                                            message: "an item of class \(type(of: item)) cannot cross to another process")), [])
            }
            return (.propertyList(Array(plist)), [])
        }
    }

    /// An error as a result.
    static func result(for error: (any Error)?, fallback: String) -> LoadResult {
        guard let error else { return .failed(RemoteError(domain: NSItemProviderErrorDomain, code: -1, message: fallback)) }
        let cocoa = error as NSError
        return .failed(RemoteError(domain: cocoa.domain, code: Int64(cocoa.code), message: cocoa.localizedDescription))
    }

    /// The bytes of a `.bytes` or `.memory` result; `nil` for other results.
    static func data(of result: LoadResult, files: [OpenFile]) throws(SystemError) -> Data? {
        switch result {
        case .bytes(let bytes):
            return Data(bytes)
        case .memory(let length):
            guard let file = files.first else { return nil }
            var data = Data(count: Int(length))
            var total = 0
            while total < data.count {
                let count = try data.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemError) in
                        try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]), at: Int64(total))
                    }
                }.get()
                if count == 0 { throw SystemError(.read, .changed("a memory file of \(length) bytes ended at \(total)"), path: file.path) }
                total += count
            }
            return data
        default:
            return nil
        }
    }

    /// The item a result stands for, as a legacy load hands it over.
    static func item(of result: LoadResult, files: [OpenFile]) throws(SystemError) -> Result<any NSSecureCoding, NSError> {
        switch result {
        case .url(let string):
            guard let url = NSURL(string: string) else { return .failure(error(.unexpectedValueClassError, "\"\(string)\" is not a URL")) }
            return .success(url)
        case .text(let text):
            return .success(text as NSString)
        case .bytes, .memory:
            return .success(try data(of: result, files: files).map { NSData(data: $0) } ?? NSData())
        case .propertyList(let bytes):
            guard let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) as? any NSSecureCoding else {
                return .failure(error(.unexpectedValueClassError, "a property list that does not read"))
            }
            return .success(object)
        case .file(let name), .stream(let name):
            return .failure(error(.unexpectedValueClassError, "the file \(name) where an item was expected"))
        case .failed(let remote):
            return .failure(nsError(remote))
        }
    }

    static func nsError(_ remote: RemoteError) -> NSError {
        NSError(domain: remote.domain, code: Int(truncatingIfNeeded: remote.code), userInfo: [NSLocalizedDescriptionKey: remote.message])
    }

    static func error(_ code: NSItemProvider.ErrorCode, _ message: String) -> NSError {
        NSError(domain: NSItemProviderErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
