/// Text that came from elsewhere (an extension, a host, a report another machine wrote), made safe for the
/// medium it is written to. Every report writer escapes here, where the text is written, and nowhere else.
package enum Escaped {
    /// For a terminal: C0 and C1 control characters (escape sequences start with them), DEL, and the Unicode
    /// controls that reorder or hide text (bidirectional embeddings, overrides and isolates, marks) shown as
    /// `\u{…}`, so that nothing the text holds can move the cursor, recolour, retitle or reorder what follows.
    /// A line break is kept when `lines` allows several lines, else shown too; a tab is always kept.
    package static func terminal(_ text: String, lines: Bool = false) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if scalar == "\t" || (lines && scalar == "\n") || !isControl(scalar) {
                escaped.unicodeScalars.append(scalar)
            } else {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        return escaped
    }

    /// For Markdown, as one line of inline text: line breaks and controls shown as `\u{…}`, and every character
    /// Markdown (GitHub's included) gives a meaning escaped with a backslash, so that the text can open no
    /// heading, table cell, emphasis, link, image, code span or HTML tag.
    package static func markdown(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                // A backslash before a letter is a backslash to Markdown: `\u{…}` shows as it is.
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                if markdownPunctuation.contains(scalar) { escaped.unicodeScalars.append("\\") }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A Markdown code block holding `text` as it is: fenced with more backticks than any run in the text,
    /// so that nothing inside can close it; controls shown as `\u{…}`.
    package static func markdownCodeBlock(_ text: String, indent: String = "") -> String {
        var longest = 0, run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        let body = terminal(text, lines: true).split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
        return "\(indent)\(fence)\n\(body)\n\(indent)\(fence)"
    }

    /// For HTML text and attribute values: `&`, `<`, `>`, `"` and `'` as entities; controls but line breaks and
    /// tabs shown as `\u{…}`.
    package static func html(_ text: String) -> String {
        var escaped = ""
        for scalar in terminal(text, lines: true).unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// A link's address for HTML, when it is one a page may link to: `http` or `https`, nothing that could
    /// run (`javascript:`, `data:`) or reach the reader's own files; `nil` otherwise, and the address is then
    /// shown as text.
    package static func htmlLink(_ address: String) -> String? {
        let lowered = address.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://"),
              !address.unicodeScalars.contains(where: { isControl($0) || $0 == " " }) else { return nil }
        return html(address)
    }

    /// For XML 1.0 text and attribute values: the five entities; characters XML cannot hold at all (most C0
    /// controls, unpaired halves, U+FFFE and U+FFFF) as U+FFFD; line breaks and tabs kept.
    package static func xml(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n", "\t": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Whether a scalar is one `terminal` shows as `\u{…}`: C0, DEL, C1, and the bidirectional and invisible
    /// formatting controls (U+061C, U+200B–U+200F, U+202A–U+202E, U+2060–U+2069, U+FEFF).
    package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2069, 0xFEFF: true
        default: false
        }
    }

    /// What Markdown gives a meaning inline: what opens or closes emphasis, code, a link or an image, an HTML
    /// tag or entity, strikethrough, a heading, and a table cell (`|`). (A parenthesis means something only
    /// after a `]`, which is escaped.)
    private static let markdownPunctuation: Set<Unicode.Scalar> = ["\\", "`", "*", "_", "[", "]", "#", "!", "|", "<", ">", "~", "&"]
}
