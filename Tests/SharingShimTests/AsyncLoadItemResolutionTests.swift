import Foundation
import SharingShim
import Testing

@Suite("loadItem's async form, as Apple's compiler picks it")
struct AsyncLoadItemResolutionTests {
    @Test("try await loadItem(forTypeIdentifier:) with no options gives the item, not the completion-handler form's ()")
    func withoutOptions() async throws {
        let provider = NSItemProvider(item: "text" as NSString, typeIdentifier: "public.plain-text")
        let item = try await provider.loadItem(forTypeIdentifier: "public.plain-text")
        #expect(item as Any as? String == "text")
    }
}
