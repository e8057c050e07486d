@testable import ExtensionRuntime
import Foundation
import Testing

@Suite("Push payloads, read as Apple's push service reads them")
struct PushPayloadTests {
    private func payload(_ json: String) throws(PushPayloadError) -> PushPayload {
        try PushPayload(json: Data(json.utf8), name: "push.json")
    }

    @Test("an alert dictionary gives title, subtitle, body and launch image; the whole payload is userInfo, aps included")
    func alertDictionary() throws {
        let push = try payload("""
            {"aps": {"alert": {"title": "Ana", "subtitle": "Lunch", "body": "At noon?", "launch-image": "Launch"}, "mutable-content": 1,
                     "badge": 3, "sound": "chime.caf", "thread-id": "chat-7", "category": "message", "target-content-id": "chat-7",
                     "interruption-level": "time-sensitive", "relevance-score": 0.75, "filter-criteria": "work"},
             "sender": {"id": 42}, "note": null}
            """)
        #expect(push.skipsServiceExtension == nil)
        let content = push.content
        #expect([content.title, content.subtitle, content.body, content.launchImageName] == ["Ana", "Lunch", "At noon?", "Launch"])
        #expect(content.badge == 3)
        #expect(content.sound == WireSound(name: "chime.caf", critical: false, volume: -1, ringtone: false))
        #expect([content.threadIdentifier, content.categoryIdentifier] == ["chat-7", "message"])
        #expect(content.targetContentIdentifier == "chat-7" && content.filterCriteria == "work")
        #expect(content.interruptionLevel == 2 && content.relevanceScore == 0.75)
        guard case .dictionary(let entries) = content.userInfo else { Issue.record("userInfo is not a dictionary"); return }
        #expect(entries.map(\.0) == ["aps", "note", "sender"])
        #expect(entries.first { $0.0 == "note" }?.1 == .null)
        #expect(entries.first { $0.0 == "sender" }?.1 == .dictionary([("id", .integer(42))]))
    }

    @Test("an alert string is the body; the critical sound dictionary; the default sound")
    func alertStringAndSounds() throws {
        let push = try payload(#"{"aps": {"alert": "Hello", "mutable-content": 1, "sound": {"critical": 1, "name": "default", "volume": 0.5}}}"#)
        #expect(push.content.body == "Hello" && push.content.title.isEmpty)
        #expect(push.content.sound == WireSound(name: nil, critical: true, volume: 0.5, ringtone: false))
        #expect(try payload(#"{"aps": {"alert": "x", "sound": "default"}}"#).content.sound == WireSound(name: nil, critical: false, volume: -1, ringtone: false))
    }

    @Test("localized keys are left as keys (the app's strings are not here), their arguments put in: %@ in order, %n$@ by position")
    func localizedKeys() throws {
        let push = try payload("""
            {"aps": {"alert": {"title-loc-key": "MESSAGE_FROM %@", "title-loc-args": ["Ana"], "subtitle-loc-key": "GROUP",
                               "loc-key": "%2$@ SAID %1$@ (100%%)", "loc-args": ["hi", "Ana"], "title": "ignored"}, "mutable-content": 1}}
            """)
        #expect(push.content.title == "MESSAGE_FROM Ana")
        #expect(push.content.subtitle == "GROUP")
        #expect(push.content.body == "Ana SAID hi (100%)")
    }

    @Test("the extension runs only for mutable-content 1 and an alert with a title, subtitle or body; otherwise the report says why", arguments: [
        (#"{"aps": {"alert": "x"}}"#, "the payload has no mutable-content"),
        (#"{"aps": {"alert": "x", "mutable-content": 0}}"#, "mutable-content is 0, not 1"),
        (#"{"aps": {"badge": 1, "sound": "default", "mutable-content": 1}}"#, "the payload has no alert"),
        (#"{"aps": {"content-available": 1, "mutable-content": 1}}"#, "a background notification (content-available, no alert)"),
        (#"{"aps": {"alert": {"launch-image": "L"}, "mutable-content": 1}}"#, "the alert has no title, subtitle or body"),
        (#"{"aps": {"alert": "x", "mutable_content": 1}}"#, "the payload has no mutable-content (aps has mutable_content: did you mean mutable-content?)"),
        (#"{"aps": {"alert": "x", "Mutable-Content": 1}}"#, "the payload has no mutable-content (aps has Mutable-Content: did you mean mutable-content?)"),
        (#"{"aps": {"alert": "x", "mutable-contnet": 1}}"#, "the payload has no mutable-content (aps has mutable-contnet: did you mean mutable-content?)"),
        (#"{"aps": {"alerts": "x", "mutable-content": 1}}"#, "the payload has no alert (aps has alerts: did you mean alert?)"),
        (#"{"aps": {"alert": "x", "badge": 1}}"#, "the payload has no mutable-content"),
    ])
    func skipped(json: String, reason: String) throws {
        #expect(try payload(json).skipsServiceExtension == reason)
    }

    @Test("a payload Apple's push service refuses, or that is no payload, is an error naming the file and what is wrong", arguments: [
        ("[1, 2]", .notAnObject, "push.json is JSON but not an object: a payload is one dictionary"),
        ("{\"aps\": ", .notJSON, "push.json is not JSON"),
        (#"{"alert": "x"}"#, .noAPS, "push.json has no aps dictionary"),
        (#"{"aps": "x"}"#, .wrongType, "push.json aps is a string, not a dictionary"),
        (#"{"aps": {"alert": 5}}"#, .wrongType, "push.json aps.alert is a number, not a string or a dictionary"),
        (#"{"aps": {"alert": {"title": 5}}}"#, .wrongType, "push.json aps.alert.title is a number; it must be a string"),
        (#"{"aps": {"alert": {"loc-key": "K", "loc-args": ["a", 2]}}}"#, .wrongType, "push.json aps.alert.loc-args[1] is a number; it must be a string"),
        (#"{"aps": {"badge": "3"}}"#, .wrongType, "push.json aps.badge is a string; it must be a number"),
        (#"{"aps": {"badge": 1.5}}"#, .wrongType, "push.json aps.badge is a number; it must be a whole number"),
        (#"{"aps": {"mutable-content": true}}"#, .wrongType, "push.json aps.mutable-content is a boolean; it must be a number"),
        (#"{"aps": {"interruption-level": "loud"}}"#, .badValue, "push.json aps.interruption-level is \"loud\"; it is one of passive, active, time-sensitive, critical"),
        (#"{"aps": {"sound": {"critical": 2}}}"#, .badValue, "push.json aps.sound.critical is 2; it is 0 or 1"),
        (#"{"aps": {"sound": {"volume": 1.5}}}"#, .badValue, "push.json aps.sound.volume is 1.5; it is between 0 and 1"),
        (#"{"aps": {"sound": ["a"]}}"#, .wrongType, "push.json aps.sound is an array; it must be a string or a dictionary"),
    ] as [(String, PushPayloadError.Code, String)])
    func refused(json: String, code: PushPayloadError.Code, message: String) {
        #expect {
            try payload(json)
        } throws: { error in
            (error as? PushPayloadError)?.code == code && "\(error)".hasPrefix(message)
        }
    }

    @Test("JSON as RFC 8259 writes it and nothing more, as Apple's push service reads it: the line and column of what is not", arguments: [
        ("{\"aps\": {\"alert\": \"x\",}}", 1, 22, "a trailing comma before }: JSON has none"),
        ("{\n  \"aps\": {\"alert\": \"x\"},\n  \"l\": [1, 2,]\n}", 3, 13, "a trailing comma before ]: JSON has none"),
        ("{\"aps\": {\"alert\": \"x\"} // note\n}", 1, 24, "'/' where a comma or } belongs"),
        ("{\"aps\": {\"alert\": \"x\"}, \"n\": NaN}", 1, 30, "'N': JSON has no NaN or Infinity"),
        ("{\"aps\": {\"alert\": \"x\"}, \"n\": -Infinity}", 1, 30, "-Infinity: JSON has no NaN or Infinity"),
        ("{\"aps\": {\"alert\": 'x'}}", 1, 19, "a single quote: JSON's strings take double quotes"),
        ("{aps: {}}", 1, 2, "'a' where a key in double quotes belongs"),
        ("{\"aps\": {\"badge\": 01}}", 1, 19, "a number with a leading zero"),
        ("{\"aps\": {\"alert\": \"a\tb\"}}", 1, 21, "a control character (9) inside a string: JSON writes it as an escape"),
        ("{\"aps\": {\"alert\": \"a\\qb\"}}", 1, 21, "a backslash before 'q': JSON has no such escape"),
        ("{\"aps\": {\"alert\": \"x\"}} {}", 1, 25, "'{' after the end of the JSON value"),
        ("{\"aps\": {\"alert\": \"x", 1, 19, "a string that is never closed"),
        ("{\"aps\": {\"alert\": tru}}", 1, 19, "'t' where a value belongs (not true)"),
    ] as [(String, Int, Int, String)])
    func strictJSON(json: String, line: Int, column: Int, reason: String) {
        #expect(throws: PushPayloadError(.notJSON, name: "push.json", "is not JSON at line \(line), column \(column): \(reason)")) {
            try payload(json)
        }
    }

    @Test("what RFC 8259 allows is read: escapes, numbers in every form, UTF-8, deep nesting, whitespace around")
    func strictJSONAccepts() throws {
        let json = " \r\n\t{\"aps\": {\"alert\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9 é 😀\", \"mutable-content\": 1}, "
            + "\"n\": [0, -0, 1.5, -2e10, 3E+2, 4e-1, true, false, null, {}, [], [[[]]]]} \n"
        #expect(try payload(json).content.body == "\"\\/\u{8}\u{c}\n\r\té é 😀")
        // Bytes that are not UTF-8 inside a string: an overlong form, a lone continuation byte, a surrogate.
        for bad: [UInt8] in [[0xC0, 0xAF], [0x80], [0xED, 0xA0, 0x80]] {
            let bytes = Array(#"{"aps": {"alert": ""#.utf8) + bad + Array(#""}}"#.utf8)
            #expect(throws: PushPayloadError(.notJSON, name: "push.json", "is not JSON at line 1, column 20: a byte (\(bad[0])) that is not UTF-8")) {
                try PushPayload(json: Data(bytes), name: "push.json")
            }
        }
    }

    @Test("4096 bytes is the most a payload holds: one byte more is refused with the size")
    func size() throws {
        let padding = { (count: Int) in #"{"aps": {"alert": "x"}, "p": ""# + String(repeating: "a", count: count) + #""}"# }
        let fits = padding(4096 - padding(0).utf8.count)
        #expect(fits.utf8.count == 4096)
        #expect(try payload(fits).content.body == "x")
        #expect(throws: PushPayloadError(.tooLarge, name: "push.json", "holds 4097 bytes; Apple's push service refuses a payload over 4096")) {
            try payload(padding(4097 - padding(0).utf8.count))
        }
    }

    @Test("a payload Apple accepts that no runtime message carries is .cannotCarry, named: too deep, or too large once localized")
    func cannotCarry() {
        let nested = String(repeating: "[", count: WireValue.maximumDepth + 2) + String(repeating: "]", count: WireValue.maximumDepth + 2)
        #expect {
            try payload(#"{"aps": {"alert": "x"}, "n": "# + nested + "}")
        } throws: { error in
            (error as? PushPayloadError)?.code == .cannotCarry && "\(error)".hasPrefix("push.json nests ")
                && "\(error)".hasSuffix("at most \(WireValue.maximumDepth) levels deep to the extension")
        }
        // 1,990 bytes as sent; 102,000 once the one argument fills each of 60 places.
        let format = String(repeating: "%1$@", count: 60), argument = String(repeating: "x", count: 1700)
        #expect {
            try payload(#"{"aps": {"alert": {"title-loc-key": "\#(format)", "title-loc-args": ["\#(argument)"]}}}"#)
        } throws: { error in
            (error as? PushPayloadError)?.code == .cannotCarry && "\(error)".contains("once its localization arguments are expanded")
        }
    }
}
