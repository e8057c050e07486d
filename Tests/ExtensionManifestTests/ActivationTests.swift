import Foundation
@testable import ExtensionManifest
import HostProfiles
import PropertyBased
import SharingShim
import Testing

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What a host profile shares of the bundled example files.
func input(_ host: String, files: [String] = [], urls: [String] = [], texts: [String] = []) throws -> ActivationInput {
    let base = repositoryRoot.appendingPathComponent("Examples/files")
    let content = SharedContent(files: files.map { base.appendingPathComponent($0) }, urls: urls.compactMap(URL.init(string:)), texts: texts)
    return ActivationInput(try HostProfile.named(host)!.share(content).makeItems(relativeTo: repositoryRoot))
}

@Suite("Activation rules")
struct ActivationTests {
    /// Apple's App Extension Programming Guide, "Declaring Supported Data Types for a Share or Action Extension":
    /// a rule for one PDF, and one for attachments of either of two custom types.
    static let onePDF = """
        SUBQUERY (
            extensionItems,
            $extensionItem,
            SUBQUERY (
                $extensionItem.attachments,
                $attachment,
                ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf"
            ).@count == 1
        ).@count == 1
        """
    static let customTypes = """
        SUBQUERY (
            extensionItems,
            $extensionItem,
            SUBQUERY (
                $extensionItem.attachments,
                $attachment,
                (
                    ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.action.first" ||
                    ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.example.action.second"
                )
            ).@count == $extensionItem.attachments.@count
        ).@count == 1
        """

    @Test("Apple's one-PDF rule: one PDF yes; two, none, or an image no")
    func onePDFRule() throws {
        let rule = ActivationRule.predicate(Self.onePDF)
        #expect(try rule.evaluate(ActivationInput(items: [[["com.adobe.pdf"]]])).matches)
        #expect(try rule.evaluate(input("files", files: ["report.pdf"])).matches)
        #expect(try !rule.evaluate(ActivationInput(items: [[["com.adobe.pdf"], ["com.adobe.pdf"]]])).matches)
        #expect(try !rule.evaluate(ActivationInput(items: [])).matches)
        let image = try rule.evaluate(input("photos", files: ["sunset.jpg"]))
        #expect(!image.matches)
        #expect(image.reasons.contains { $0.contains("item 1, attachment 1 (public.jpeg)") })
    }

    @Test("Apple's custom-type rule: every attachment one of the two types")
    func customTypeRule() throws {
        let rule = ActivationRule.predicate(Self.customTypes)
        #expect(try rule.evaluate(ActivationInput(items: [[["com.example.action.first"], ["com.example.action.second"]]])).matches)
        #expect(try !rule.evaluate(ActivationInput(items: [[["com.example.action.first"], ["public.url"]]])).matches)
        #expect(try !rule.evaluate(ActivationInput(items: [[["com.example.action.first"]], [["com.example.action.first"]]])).matches)
    }

    @Test("ImageWithMaxCount 10: Photos with 1 image yes, with 11 no, saying how many")
    func photos() throws {
        let rule = ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 10))
        #expect(try rule.evaluate(input("photos", files: ["sunset.jpg"])).matches)
        let eleven = try rule.evaluate(input("photos", files: Array(repeating: "sunset.jpg", count: 11)))
        #expect(!eleven.matches)
        #expect(eleven.reasons == ["11 images, more than NSExtensionActivationSupportsImageWithMaxCount (10)"])
        #expect(try !rule.evaluate(input("photos", files: ["sunset.jpg", "clip.mp4"])).matches)
    }

    @Test("WebURL against WebPage: Safari's plain share is a web URL, its preprocessed share a web page")
    func safari() throws {
        let webURL = ActivationRule.dictionary(ActivationDictionary(webURLMaxCount: 1))
        let webPage = ActivationRule.dictionary(ActivationDictionary(webPageMaxCount: 1))
        let page = try input("safari", urls: ["https://example.com/"])
        let preprocessed = try input("safari-javascript", urls: ["https://example.com/"])
        #expect(try webURL.evaluate(page).matches && !webPage.evaluate(page).matches)
        #expect(try webPage.evaluate(preprocessed).matches && !webURL.evaluate(preprocessed).matches)
        // Firefox adds the URL again as plain text: a strict WebURL-only rule refuses it, a fuzzy one takes it.
        let firefox = try input("firefox", urls: ["https://example.com/"])
        #expect(try !webURL.evaluate(firefox).matches)
        #expect(try ActivationRule.dictionary(ActivationDictionary(webURLMaxCount: 1, version: 2)).evaluate(firefox).matches)
    }

    @Test("mixed image and text: strict needs both kinds taken, fuzzy one")
    func strictAndFuzzy() throws {
        let notes = try input("notes", files: ["diagram.png"], texts: ["a note"])
        #expect(try !ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 5)).evaluate(notes).matches)
        #expect(try ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 5, supportsText: true)).evaluate(notes).matches)
        #expect(try ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 5, version: 2)).evaluate(notes).matches)
        #expect(try !ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 5, version: 2, usesStrictMatching: true)).evaluate(notes).matches)
        #expect(try ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 5)).evaluate(notes).reasons
                == ["item 1, attachment 1 (public.utf8-plain-text) is text; the rule takes images (up to 5)"])
        let fuzzyMovies = try ActivationRule.dictionary(ActivationDictionary(movieMaxCount: 1, webURLMaxCount: 1, version: 2)).evaluate(notes)
        #expect(fuzzyMovies.reasons == ["no attachment is of a kind it takes: the rule takes movies (up to 1), web URLs (up to 1) (fuzzy matching: one is enough)"])
        let untyped = try ActivationRule.dictionary(ActivationDictionary(imageMaxCount: 5)).evaluate(ActivationInput(items: [[[]]]))
        #expect(untyped.reasons == ["item 1, attachment 1 (no types) is of no kind a dictionary rule knows; the rule takes images (up to 5)"])
    }

    @Test("no attachments match no dictionary rule; counts bound the total")
    func totals() throws {
        #expect(try !ActivationRule.dictionary(ActivationDictionary(supportsText: true)).evaluate(input("mail", texts: ["body"])).matches)
        #expect(try ActivationRule.dictionary(ActivationDictionary(fileMaxCount: 5)).evaluate(ActivationInput(items: [])).reasons
                == ["the share has no attachments, and a dictionary rule needs at least one"])
        let anyKind = ActivationRule.dictionary(ActivationDictionary(attachmentsMaxCount: 2))
        #expect(try anyKind.evaluate(ActivationInput(items: [[["com.adobe.pdf"], ["public.url"]]])).matches)
        #expect(try anyKind.evaluate(ActivationInput(items: [[["com.adobe.pdf"], ["public.url"], ["public.jpeg"]]])).reasons
                == ["the share has 3 attachments, more than NSExtensionActivationSupportsAttachmentsWithMaxCount (2)"])
        let atLeastTwo = ActivationRule.dictionary(ActivationDictionary(attachmentsMinCount: 2, imageMaxCount: 5))
        #expect(try atLeastTwo.evaluate(ActivationInput(items: [[["public.jpeg"]]])).reasons
                == ["the share has 1 attachment; NSExtensionActivationSupportsAttachmentsWithMinCount is 2"])
        #expect(try atLeastTwo.evaluate(ActivationInput(items: [[["public.jpeg"], ["public.png"]]])).matches)
    }

    @Test("the dictionary form and its translated predicate always agree")
    func dictionaryAgreesWithPredicate() async {
        // Seven counts (-1 for an absent key), the text switch, the version, and strict matching (-1 absent).
        let counts = Gen<Int?>.element(of: [-1, 0, 1, 2, 5, 10]).map { $0! }.array(of: 7)
        let switches = Gen.int(in: 0...11).array(of: 3)
        let types = ["public.jpeg", "public.heic", "public.mpeg-4", "com.apple.quicktime-movie", "public.url", "public.file-url",
                     "com.adobe.pdf", "public.plain-text", "public.utf8-plain-text", "com.apple.property-list", "public.html",
                     "public.vcard", "public.folder", "com.apple.live-photo", "com.example.unknown", "public.zip-archive"]
        let attachment = Gen<String?>.element(of: types).map { $0! }.array(of: 0...3)
        let share = attachment.array(of: 0...4).array(of: 0...3)
        await propertyCheck(count: 400, input: counts, switches, share) { counts, switches, items in
            func count(_ index: Int) -> Int? { counts[index] < 0 ? nil : counts[index] }
            let dictionary = ActivationDictionary(attachmentsMaxCount: count(0), attachmentsMinCount: count(1), fileMaxCount: count(2),
                                                  imageMaxCount: count(3), movieMaxCount: count(4), supportsText: switches[0] % 2 == 0,
                                                  webURLMaxCount: count(5), webPageMaxCount: count(6), version: 1 + switches[1] % 2,
                                                  usesStrictMatching: switches[2] % 3 == 0 ? nil : switches[2] % 3 == 1)
            let share = ActivationInput(items: items)
            let translated = try ActivationRule.dictionary(dictionary).evaluate(share).matches
            #expect(translated == dictionary.accepts(share), "\(dictionary.predicateSource)\n\(items)")
        }
    }
}
