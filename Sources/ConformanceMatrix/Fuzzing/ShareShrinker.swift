import Foundation
import HostProfiles

/// The shares one step smaller than a share, most reducing first: an item dropped, an attachment dropped, a
/// representation dropped, a fault taken away, a name, text or title taken away, a 48 MP photo or a file of an
/// awkward name replaced by the small photo. The fuzzer keeps the first that still ends the same way and asks again, until none does.
enum ShareShrinker {
    static func candidates(of share: ShareFixture, materials: FuzzMaterials) -> [ShareFixture] {
        var found: [ShareFixture] = []
        func each(_ change: (inout ShareFixture) -> Bool) {
            var copy = share
            if change(&copy), copy != share { found.append(copy) }
        }
        for i in share.items.indices {
            each { $0.items.remove(at: i); return true }
        }
        for (i, item) in share.items.enumerated() {
            for j in (item.attachments ?? []).indices {
                each { $0.items[i].attachments!.remove(at: j); return true }
            }
        }
        for (i, item) in share.items.enumerated() {
            for (j, attachment) in (item.attachments ?? []).enumerated() where attachment.representations.count > 1 {
                for k in attachment.representations.indices {
                    each { $0.items[i].attachments![j].representations.remove(at: k); return true }
                }
            }
        }
        for (i, item) in share.items.enumerated() {
            for (j, attachment) in (item.attachments ?? []).enumerated() {
                for k in attachment.representations.indices {
                    each { share in
                        share.items[i].attachments![j].representations[k].fault = nil
                        return true
                    }
                    each { share in
                        // A 48 MP photo, or the photo under an awkward name, as the small photo.
                        let replaced = [materials.largePhoto.path] + materials.renamedPhotos.map(\.path)
                        guard case .file(let path) = attachment.representations[k].payload, replaced.contains(path) else { return false }
                        share.items[i].attachments![j].representations[k].payload = .file(materials.photo.path)
                        return true
                    }
                }
                each { $0.items[i].attachments![j].suggestedName = nil; return true }
                each { $0.items[i].attachments![j].preview = nil; return true }
            }
            each { $0.items[i].contentText = nil; return true }
            each { $0.items[i].title = nil; return true }
            each { $0.items[i].userInfo = nil; return true }
        }
        return found
    }
}
