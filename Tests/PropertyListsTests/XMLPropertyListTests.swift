import Foundation
@testable import PropertyLists
import Testing

@Suite("XML property lists")
struct XMLPropertyListTests {
    func read(_ text: String) throws(PropertyListError) -> PropertyListNode {
        try PropertyList.read(Data(text.utf8))
    }

    @Test("every kind of value, with the line and column of each")
    func values() throws {
        let root = try read("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>s</key>\t<string>a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233;&#x65E5;</string>
            \t<key>i</key><integer> -42 </integer>
            \t<key>h</key><integer>0x1F</integer>
            \t<key>r</key><real>2.5</real>
            \t<key>t</key><true/>
            \t<key>f</key><false></false>
            \t<key>d</key><date>2024-02-29T12:34:56Z</date>
            \t<key>b</key><data>
            \t\tT3Blbl
            \t\tNoYXJpbmc=
            \t</data>
            \t<key>a</key><array><string/><dict/><array/></array>
            \t<key>c</key><string><![CDATA[<not markup> & more]]></string>
            \t<key>é</key><string>日本</string>
            </dict>
            </plist>
            """)
        let dict = try #require(root.dictionary)
        #expect(root.location.line == 4 && root.location.column == 1)
        #expect(dict["s"]?.string == "a <b> & \"c\" 'd' é日")
        #expect(dict.entries[0].keyLocation.line == 5 && dict.entries[0].keyLocation.column == 2)
        #expect(dict["s"]?.location.column == 15)
        #expect(dict["i"]?.integer == -42)
        #expect(dict["h"]?.integer == 31)
        if case .real(let r)? = dict["r"]?.value { #expect(r == 2.5) } else { Issue.record("r is not a real") }
        #expect(dict["t"]?.boolean == true)
        #expect(dict["f"]?.boolean == false)
        if case .date(let d)? = dict["d"]?.value {
            #expect(d == ISO8601DateFormatter().date(from: "2024-02-29T12:34:56Z"))
        } else { Issue.record("d is not a date") }
        if case .data(let b)? = dict["b"]?.value { #expect(String(decoding: b, as: UTF8.self) == "OpenSharing") } else { Issue.record("b is not data") }
        #expect(dict["a"]?.array?.map(\.kindName) == ["string", "dict", "array"])
        #expect(dict["c"]?.string == "<not markup> & more")
        #expect(dict["é"]?.string == "日本")
        let last = try #require(dict.entries.last)
        #expect(last.keyLocation.line == 18 && last.value.location.column == 14)
    }

    @Test("what real Info.plists contain: comments between key and value, a malformed DOCTYPE, no wrapper, a BOM")
    func tolerated() throws {
        let commented = try read("<plist><dict><key>k</key><!-- <string>old</string> --><dict/><!-- x --></dict></plist>")
        #expect(commented.dictionary?["k"]?.kindName == "dict")
        let doctype = try read(#"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST-1.0//EN" "x"><plist version="1.0"><string>x</string></plist>"#)
        #expect(doctype.string == "x")
        #expect(try read("<array><integer>1</integer></array>").array?.count == 1)
        #expect(try PropertyList.read(Data([0xEF, 0xBB, 0xBF] + Array("<string>bom</string>".utf8))).string == "bom")
    }

    @Test("duplicate keys are all kept; a lookup answers the last")
    func duplicates() throws {
        let dict = try #require(try read("<dict><key>k</key><string>1</string><key>k</key><string>2</string></dict>").dictionary)
        #expect(dict.keys == ["k", "k"])
        #expect(dict["k"]?.string == "2")
    }

    @Test("malformed documents: the error says what and where", arguments: [
        ("", "byte 0: neither an XML nor a binary property list"),
        ("hello", "byte 0: neither an XML nor a binary property list"),
        ("<plist><strin>x</strin></plist>", "line 1, column 8: unknown element <strin>"),
        ("<dict><string>x</string></dict>", "line 1, column 7: expected <key> in <dict>, found <string>"),
        ("<dict><key>k</key></dict>", "line 1, column 7: <key>k</key> has no value"),
        ("<array><string>x</array>", "line 1, column 17: expected </string>, found </array>"),
        ("<array><string>x</string>", "line 1, column 26: unexpected end of document"),
        ("<integer>12a</integer>", "line 1, column 1: <integer> holds '12a', which is not an integer"),
        ("<integer>99999999999999999999</integer>", "line 1, column 1: integer 99999999999999999999 is out of range"),
        ("<real>fast</real>", "line 1, column 1: <real> holds 'fast', which is not a number"),
        ("<date>yesterday</date>", "line 1, column 1: <date> holds 'yesterday', not a date of the form 2024-01-31T12:00:00Z"),
        ("<data>!!!</data>", "line 1, column 1: <data> is not valid base64"),
        ("<string>a &bogus; b</string>", "line 1, column 11: unknown entity &bogus;"),
        ("<string>a & b</string>", "line 1, column 11: '&' that starts no entity (write &amp;)"),
        ("<true>yes</true>", "line 1, column 1: <true> must be empty"),
        ("<string>x</string><string>y</string>", "line 1, column 19: unexpected content after the root element"),
        ("<key>k</key>", "line 1, column 1: <key> outside a <dict>"),
        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?><string/>", "line 1, column 1: encoding 'utf-16' is not supported; write the property list as UTF-8"),
        ("<plist/>", "line 1, column 1: <plist> is empty"),
        ("<!-- never closed <string/>", "line 1, column 1: comment is not closed"),
        ("<string>\u{FFFF}</string>", ""),
    ])
    func malformed(_ text: String, _ message: String) {
        do {
            let node = try read(text)
            // U+FFFF is a valid (if unusual) scalar: that one document reads.
            #expect(message.isEmpty, "read \(node.kindName)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("nesting beyond the limit is refused, not followed into a stack overflow")
    func depth() {
        let deep = String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
        #expect(performing: { try read(deep) }, throws: { ($0 as? PropertyListError)?.code == .limitExceeded })
        let fine = String(repeating: "<array>", count: 100) + String(repeating: "</array>", count: 100)
        #expect((try? read(fine)) != nil)
    }

    @Test("invalid UTF-8 in text is an error")
    func invalidUTF8() {
        let bytes = Array("<string>".utf8) + [0xFF, 0xFE] + Array("</string>".utf8)
        #expect(performing: { try PropertyList.read(Data(bytes)) }, throws: { ($0 as? PropertyListError)?.code == .malformedXML })
    }

    @Test("every Info.plist of the corpus reads")
    func corpus() throws {
        let folder = repositoryRoot.appending(path: "Tests/Fixtures/extension-manifests")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".md") }
        #expect(names.count == 34)
        for name in names {
            let data = try Data(contentsOf: folder.appending(path: name).appending(path: "Info.plist"))
            let root = try PropertyList.read(data)
            #expect(root.dictionary?["NSExtension"]?.dictionary != nil, "\(name)")
        }
    }
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
