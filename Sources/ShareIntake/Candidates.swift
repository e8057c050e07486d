import SharingShim

/// Which representations of an attachment to try, in order.
///
/// Each registered type that conforms to an accepted type is a candidate. They are tried by the accepted
/// type they match (the policy's first choice first), then:
/// - a precise type before a vaguer one the same attachment also registers (`public.jpeg` before
///   `public.image`, whatever the registration order);
/// - content before a file URL to it (the file before the `public.file-url` the Files app puts first);
/// - otherwise in registration order, which is fidelity order.
///
/// A type identifier nobody declares here is taken as data: whatever it is, a representation is bytes.
enum Candidates {
    static func ordered(registered identifiers: [String], accepted: [UTType]) -> [UTType] {
        let types = identifiers.map { UTType($0) ?? UTType(importedAs: $0, conformingTo: .data) }
        let ranked: [(type: UTType, rank: Int, vague: Bool, reference: Bool, index: Int)] = types.enumerated().compactMap { index, type in
            guard let rank = accepted.firstIndex(where: { type.conforms(to: $0) }) else { return nil }
            let vague = types.contains { $0 != type && $0.conforms(to: type) }
            return (type, rank, vague, type.conforms(to: .fileURL), index)
        }
        var seen: Set<UTType> = []
        return ranked
            .sorted { ($0.rank, $0.vague ? 1 : 0, $0.reference ? 1 : 0, $0.index) < ($1.rank, $1.vague ? 1 : 0, $1.reference ? 1 : 0, $1.index) }
            .map(\.type)
            .filter { seen.insert($0).inserted }
    }
}
