package import Foundation
import PropertyLists

/// What an extension is entitled to, as its bundle carries it: the app groups it shares with its app.
///
/// On iOS the entitlements are in the code signature, and the system makes a container for each app group named
/// there; the Appex plugin puts the target's `.entitlements` file into the bundle as Xcode puts it into a simulator
/// build (`archived-expanded-entitlements.xcent`), and the host makes those containers before the extension starts.
package enum Entitlements {
    package static let fileName = "archived-expanded-entitlements.xcent"
    static let applicationGroupsKey = "com.apple.security.application-groups"
    /// The most app groups read.
    static let groupLimit = 64

    /// The app groups an entitlements property list names: each a name a container can have.
    package static func applicationGroups(from data: Data) throws(EntitlementsError) -> [String] {
        let root: PropertyListNode
        do {
            root = try PropertyList.read(data)
        } catch {
            throw EntitlementsError("is not a property list: \(error)")
        }
        guard let entries = root.dictionary?.entries else { throw EntitlementsError("is \(named(root.kindName)), not a dictionary") }
        guard let node = entries.last(where: { $0.key == applicationGroupsKey })?.value else { return [] }
        guard let list = node.array else { throw EntitlementsError("\(applicationGroupsKey) is \(named(node.kindName)), not an array of group names") }
        guard list.count <= groupLimit else { throw EntitlementsError("\(applicationGroupsKey) names \(list.count) groups; at most \(groupLimit) are read") }
        return try list.enumerated().map { (index, element) throws(EntitlementsError) -> String in
            guard let name = element.string else {
                throw EntitlementsError("\(applicationGroupsKey)[\(index)] is \(named(element.kindName)), not a group name")
            }
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0"), name.utf8.count <= 255 else {
                throw EntitlementsError("\(applicationGroupsKey)[\(index)] \"\(name.prefix(64))\" cannot name a container directory")
            }
            return name
        }
    }

    /// A kind of value with its article: "an array", "a string".
    private static func named(_ kind: String) -> String {
        "aeiou".contains(kind.first ?? "x") ? "an \(kind)" : "a \(kind)"
    }
}

/// Why a bundle's entitlements were refused.
package struct EntitlementsError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
