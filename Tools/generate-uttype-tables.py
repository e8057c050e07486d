#!/usr/bin/env python3
"""Generates the system type table and Apple's UTType constants from Tools/data/.

Outputs (each says in its first line that it is generated):
  Sources/OpenUniformTypeIdentifiers/Generated/SystemTypeTable+Data.swift
  Sources/OpenUniformTypeIdentifiers/Generated/UTType+Constants.swift
  Sources/OpenUniformTypeIdentifiers/Generated/CoreServices+Constants.swift (the kUTType… constants)

The table is packed as text (one type a line, tab-separated), which compiles in a moment and is parsed once
at first use. Each line carries the type's direct parents and its whole conformance closure in depth-first
order, computed here, so that the runtime never walks the graph to answer `conforms(to:)`.
"""
import csv
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "Tools", "data")
OUT = os.path.join(ROOT, "Sources", "OpenUniformTypeIdentifiers", "Generated")

EXT = "public.filename-extension"
MIME = "public.mime-type"

SWIFT_KEYWORDS = {
    "package", "import", "class", "struct", "protocol", "extension", "func", "var", "let", "default", "case",
    "in", "is", "as", "try", "throw", "throws", "return", "self", "Self", "super", "init", "deinit",
    "subscript", "typealias", "operator", "static", "where", "while", "for", "if", "else", "switch", "break",
    "continue", "guard", "defer", "repeat", "do", "catch", "nil", "true", "false", "Type", "any", "some",
}


def load():
    with open(os.path.join(DATA, "apple-declared-types.macos13.json")) as f:
        types = json.load(f)
    with open(os.path.join(DATA, "later-system-types.json")) as f:
        later = json.load(f)["types"]
    known = {t["identifier"].lower() for t in types}
    for t in later:
        if t["identifier"].lower() in known:
            sys.exit(f"{t['identifier']} is already in the macOS 13 dump")
        types.append(t)
    with open(os.path.join(DATA, "tag-preferences.json")) as f:
        preferences = json.load(f)
    with open(os.path.join(DATA, "uttype-swift-constants.tsv")) as f:
        constants = list(csv.DictReader(f, delimiter="\t"))
    return types, preferences, constants


def closure_orders(types, index_of):
    """Direct parents (indices) and the depth-first closure (indices, self excluded) of every type."""
    parents, dropped = [], []
    for t in types:
        ps = []
        for p in t["conformsTo"]:
            i = index_of.get(p.lower())
            if i is None:
                dropped.append((t["identifier"], p))
            elif i not in ps:
                ps.append(i)
        parents.append(ps)

    closures = [None] * len(types)

    def visit(i, path):
        if closures[i] is not None:
            return closures[i]
        if i in path:
            sys.exit("conformance cycle through " + types[i]["identifier"])
        order = []
        for p in parents[i]:
            if p not in order:
                order.append(p)
            for q in visit(p, path | {i}):
                if q not in order:
                    order.append(q)
        closures[i] = order
        return order

    for i in range(len(types)):
        visit(i, frozenset())
    return parents, closures, dropped


def rank_candidates(tag_class, types, closures, preferences):
    """tag (lowercased) -> candidate type indices, best first."""
    candidates = {}
    for i, t in enumerate(types):
        for tag in t["tags"].get(tag_class, []):
            key = tag.lower()
            if i not in candidates.setdefault(key, []):
                candidates[key].append(i)
    preferred = {k.lower(): [p.lower() for p in v] for k, v in preferences.get(tag_class, {}).items()}
    ranked = {}
    for tag, cands in candidates.items():
        order = preferred.get(tag, [])

        def key(i):
            ident = types[i]["identifier"].lower()
            override = order.index(ident) if ident in order else len(order)
            # A candidate that every other candidate conforms to is the general answer (plist).
            general = 0 if all(i in closures[j] for j in cands if j != i) else 1
            domain = 0 if ident.startswith("public.") else 1 if ident.startswith("com.apple.") else 2
            return (override, general, domain, i)

        ranked[tag] = sorted(cands, key=key)
    return ranked


def swift_raw_block(lines):
    return '#"""\n' + "\n".join("        " + line for line in lines) + '\n        """#'


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    print("wrote", os.path.relpath(path, ROOT))


def main():
    types, preferences, constants = load()
    index_of = {t["identifier"].lower(): i for i, t in enumerate(types)}
    parents, closures, dropped = closure_orders(types, index_of)

    type_lines = []
    for i, t in enumerate(types):
        fields = [
            t["identifier"],
            ",".join(map(str, parents[i])),
            ",".join(map(str, closures[i])),
            ",".join(t["tags"].get(EXT, [])),
            ",".join(t["tags"].get(MIME, [])),
            t["description"],
        ]
        for f in fields:
            if "\t" in f or "\n" in f or '"""#' in f:
                sys.exit("a field of " + t["identifier"] + " cannot be packed")
        type_lines.append("\t".join(fields))

    def tag_lines(tag_class):
        ranked = rank_candidates(tag_class, types, closures, preferences)
        return [tag + "\t" + ",".join(map(str, ranked[tag])) for tag in sorted(ranked)]

    note = ""
    if dropped:
        note = "// Parents named but declared nowhere, left out: " + ", ".join(
            f"{child} -> {parent}" for child, parent in dropped) + "\n"

    table = f"""// Generated by Tools/generate-uttype-tables.py from Tools/data/; do not edit.
// {len(types)} system types: the macOS 13.3 declarations plus later ones (Tools/data/later-system-types.json).
{note}
extension SystemTypeTable {{
    /// One type a line: identifier, parents, conformance closure (depth-first, self excluded),
    /// filename extensions, MIME types, description. Lists are comma-separated type numbers or tags.
    static let packedTypes = {swift_raw_block(type_lines)}

    /// Lowercased filename extension, then the types declaring it, best first.
    static let packedFilenameExtensions = {swift_raw_block(tag_lines(EXT))}

    /// Lowercased MIME type, then the types declaring it, best first.
    static let packedMIMETypes = {swift_raw_block(tag_lines(MIME))}
}}
"""
    write(os.path.join(OUT, "SystemTypeTable+Data.swift"), table)

    decls = []
    for row in constants:
        ident = row["identifier"]
        i = index_of.get(ident.lower())
        if i is None:
            sys.exit("constant " + row["swift_name"] + " names an undeclared type " + ident)
        name = row["swift_name"]
        swift_name = f"`{name}`" if name in SWIFT_KEYWORDS else name
        desc = types[i]["description"] or ident
        since = row["min_macos"]
        decls.append(
            f"    /// `{ident}`" + (f": {desc}.\n" if desc != ident else ".\n") +
            f"    ///\n"
            f"    /// Stands in for `UTType.{name}` (`{row['objc_name']}`), macOS {since} and later.\n"
            f"    public static var {swift_name}: UTType {{ UTType(systemIndex: {i}) }}\n")
    constants_file = ("// Generated by Tools/generate-uttype-tables.py from Tools/data/uttype-swift-constants.tsv; do not edit.\n"
                      f"// All {len(constants)} of Apple's UTType constants.\n\n"
                      "extension UTType {\n" + "\n".join(decls) + "}\n")
    write(os.path.join(OUT, "UTType+Constants.swift"), constants_file)

    with open(os.path.join(DATA, "coreservices-kuttype-constants.tsv")) as f:
        legacy = list(csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t"))
    lines = []
    for row in legacy:
        ident = row["identifier"]
        if ident.lower() not in index_of:
            sys.exit("constant " + row["name"] + " names an undeclared type " + ident)
        lines.append(f"/// `{ident}`. Stands in for CoreServices' `{row['name']}`.\n"
                     f"nonisolated(unsafe) public let {row['name']}: CFString = \"{ident}\" as CFString\n")
    legacy_file = ("// Generated by Tools/generate-uttype-tables.py from Tools/data/coreservices-kuttype-constants.tsv; do not edit.\n"
                   f"// All {len(legacy)} of CoreServices' kUTType constants (UTCoreTypes.h), for code from before iOS 14.\n"
                   "// Immutable strings: nonisolated(unsafe) only because NSString is not marked Sendable on Linux.\n\n"
                   "public import Foundation\npublic import OpenCoreFoundation\n\n" + "\n".join(lines))
    write(os.path.join(OUT, "CoreServices+Constants.swift"), legacy_file)


if __name__ == "__main__":
    main()
