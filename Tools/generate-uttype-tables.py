#!/usr/bin/env python3
"""Generates the system type table and Apple's UTType constants from Tools/data/.

Outputs (each says in its first line that it is generated):
  Sources/OpenUniformTypeIdentifiers/Generated/SystemTypeTable+Data.swift
  Sources/CSystemTypeTables/ (SystemTypeTables.c and include/CSystemTypeTables.h: the tables lookups read)
  Sources/OpenUniformTypeIdentifiers/Generated/UTType+Constants.swift
  Sources/OpenUniformTypeIdentifiers/Generated/CoreServices+Constants.swift (the kUTType… constants)

What a lookup touches is built here and compiled in as constant data: the identifiers (Swift string
literals), the conformance closure as a bit matrix (so `conforms(to:)` is a bit test and the runtime never
walks the graph), and the three case-folded indices (identifier, filename extension, MIME type), hash tables
laid out as `CaseFoldedIndex` reads them, with the same key words and hash. The numbers are C arrays: static
data Swift reaches through a pointer, with no lazy initialization and no reference counting (Swift's own
static arrays are initialized on first touch, a call on every access). The rest (parents, the ordered
closure, tags, descriptions) is packed as text, one type a line, parsed at first use.
"""
import csv
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "Tools", "data")
OUT = os.path.join(ROOT, "Sources", "OpenUniformTypeIdentifiers", "Generated")
C_OUT = os.path.join(ROOT, "Sources", "CSystemTypeTables")

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


M64 = (1 << 64) - 1


def key_word(b, offset):
    return int.from_bytes(b[offset:offset + 8], "little")


def key_hash(first, last, count, seed):
    """CaseFoldedIndex.hash: each byte with bit 5 set, the seed mixed in, multiplied, the high bits taken."""
    caseless = 0x2020202020202020
    mixed = (((first | caseless) ^ seed) * 0x9E3779B97F4A7C15 & M64) ^ (
        ((last | caseless) ^ count) * 0xC2B2AE3D27D4EB4F & M64)
    return mixed >> 40


def case_folded_index(keyed, seed):
    """(slots, middles, values, probes) as CaseFoldedIndex reads them, for (key, [type numbers]) pairs,
    with the slots a lookup of every key probes in all.

    A key is lowercase ASCII, so folding it (A-Z to a-z) leaves its words as they are."""
    capacity = 16
    while capacity < len(keyed) * 2:
        capacity *= 2
    slots, middles, values, probes = [None] * capacity, [], [], 0
    for key, numbers in keyed:
        if not key or not key.isascii() or key != key.lower() or "\0" in key:
            sys.exit(f"{key!r} cannot be an index key: keys are non-empty lowercase ASCII without NUL")
        b = key.encode()
        n = len(b)
        if n >= 1 << 16 or not 1 <= len(numbers) < 1 << 16:
            sys.exit(f"{key!r}: a key's length and number of values must each fit in 16 bits")
        # CaseFoldedIndex.ends: up to 16 bytes, the first eight and the rest, each zero past the key's end.
        first, last = key_word(b, 0), key_word(b, n - 8) if n > 16 else key_word(b, 8)
        slot = key_hash(first, last, n, seed) & (capacity - 1)
        probes += 1
        while slots[slot] is not None:
            slot = (slot + 1) & (capacity - 1)
            probes += 1
        slots[slot] = (first, last, n | len(numbers) << 16 | len(middles) << 32, numbers[0] | len(values) << 32)
        if n > 16:
            middles += [key_word(b, offset) for offset in range(8, n - 8, 8)]
        values += numbers[1:]
    return [w for slot in slots for w in (slot or (0, 0, 0, 0))], middles, values, probes


def best_case_folded_index(keyed):
    """The index, and its seed, of the seed of 256 tried whose layout probes fewest slots for all keys
    (linear probing clusters; one seed places a table's keys better than another)."""
    seeds = [(i * 0x9E3779B97F4A7C15) & M64 for i in range(256)]
    return min(((case_folded_index(keyed, seed), seed) for seed in seeds), key=lambda found: found[0][3])


def c_array(ctype, name, numbers, per_line=8):
    """A C constant array definition, zeros written as 0 and the rest in hexadecimal, `per_line` to a line."""
    numbers = numbers or [0]
    lines = [", ".join("0" if n == 0 else hex(n) for n in numbers[i:i + per_line])
             for i in range(0, len(numbers), per_line)]
    return f"const {ctype} {name}[] = {{\n" + ",\n".join("    " + line for line in lines) + ",\n};\n"


def c_index(name, keyed):
    """The definitions of an index's arrays and the header lines that reach them."""
    (slots, middles, values, probes), seed = best_case_folded_index(keyed)
    print(f"{name}: {len(keyed)} keys in {len(slots) // 4} slots, {probes / len(keyed):.2f} probes a key")
    prefix = "system_types_by_" + name
    definitions = (c_array("uint64_t", prefix + "_slots", slots, 4) + "\n" +
                   c_array("uint64_t", prefix + "_middles", middles) + "\n" +
                   c_array("int32_t", prefix + "_values", values, 16))
    declarations = (f"extern const uint64_t {prefix}_slots[];\n"
                    f"extern const uint64_t {prefix}_middles[];\n"
                    f"extern const int32_t {prefix}_values[];\n"
                    f"static inline system_type_index {prefix}(void) {{\n"
                    f"    return (system_type_index){{{prefix}_slots, {len(slots) // 4}, {hex(seed)}, {prefix}_middles, {prefix}_values}};\n"
                    f"}}\n")
    return definitions, declarations


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
    for t in types:
        if '"' in t["identifier"] or "\\" in t["identifier"]:
            sys.exit(t["identifier"] + " cannot be a string literal")

    # A row is a power of two words long, so that finding a type's row is a shift, not a multiplication.
    words_per_type = 1
    while words_per_type * 64 < len(types):
        words_per_type *= 2
    closure_bits = [0] * (len(types) * words_per_type)
    for i in range(len(types)):
        for member in closures[i] + [i]:
            closure_bits[i * words_per_type + member // 64] |= 1 << (member % 64)

    def tag_index(tag_class):
        ranked = rank_candidates(tag_class, types, closures, preferences)
        return [(tag, ranked[tag]) for tag in sorted(ranked)]

    note = ""
    if dropped:
        note = "// Parents named but declared nowhere, left out: " + ", ".join(
            f"{child} -> {parent}" for child, parent in dropped) + "\n"

    identifiers = "".join(f'        "{t["identifier"]}",\n' for t in types)
    table = f"""// Generated by Tools/generate-uttype-tables.py from Tools/data/; do not edit.
// {len(types)} system types: the macOS 13.3 declarations plus later ones (Tools/data/later-system-types.json).
{note}
extension SystemTypeTable {{
    /// Each type's identifier, by type number.
    static let identifiers: [String] = [
{identifiers}    ]

    /// One type a line, by type number: parents, conformance closure (depth-first, self excluded),
    /// filename extensions, MIME types, description. Lists are comma-separated type numbers or tags.
    static let packedTypes = {swift_raw_block(type_lines)}
}}
"""
    indices = [c_index("identifier", [(t["identifier"].lower(), [i]) for i, t in enumerate(types)]),
               c_index("filename_extension", tag_index(EXT)),
               c_index("mime_type", tag_index(MIME))]
    header = f"""// Generated by Tools/generate-uttype-tables.py from Tools/data/; do not edit.
// The constant parts of the system type table (OpenUniformTypeIdentifiers' SystemTypeTable), as static
// data: the conformance closure and the three case-folded indices, laid out as CaseFoldedIndex reads them.
#ifndef C_SYSTEM_TYPE_TABLES_H
#define C_SYSTEM_TYPE_TABLES_H

#include <stdint.h>

enum {{ system_type_words_per_type = {words_per_type} }};

/// Row `type` of the conformance closure, `system_type_words_per_type` words: a set bit for every type it
/// conforms to, itself included.
extern const uint64_t system_type_closure_bits[];
static inline const uint64_t *system_type_closure(void) {{ return system_type_closure_bits; }}

/// Sixteen bytes of ones then sixteen of zeros: the 16 bytes from `16 - n` mask a key's first `n` bytes.
static inline const uint8_t *case_folded_key_masks(void) {{
    static const uint8_t masks[32] __attribute__((aligned(32))) = {{
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    }};
    return masks;
}}

/// A case-folded index: four words a slot (the key's first and last words; its length, how many values it
/// has and where its middle words start; its first value and where the others start), `slot_count` slots,
/// placed by the hash with `seed`.
typedef struct {{
    const uint64_t *slots;
    long slot_count;
    uint64_t seed;
    const uint64_t *middles;
    const int32_t *values;
}} system_type_index;

/// Lowercased identifier, then its type.
{indices[0][1]}
/// Lowercased filename extension, then the types declaring it, best first.
{indices[1][1]}
/// Lowercased MIME type, then the types declaring it, best first.
{indices[2][1]}
#endif
"""
    source = ("// Generated by Tools/generate-uttype-tables.py from Tools/data/; do not edit.\n"
              "#include \"CSystemTypeTables.h\"\n\n" +
              c_array("uint64_t", "system_type_closure_bits", closure_bits) + "\n" +
              "\n".join(definitions for definitions, _ in indices))
    write(os.path.join(C_OUT, "include", "CSystemTypeTables.h"), header)
    write(os.path.join(C_OUT, "SystemTypeTables.c"), source)
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
