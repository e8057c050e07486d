#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus: the extension Info.plists of Tests/Fixtures (XML and binary), the
predicates they and the examples hold, and hand-made inputs at the readers' limits. Run from anywhere;
the seeds are committed, so this only needs running when the fixtures change."""
import os, plistlib, struct, glob

fuzz = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(fuzz)
plists = os.path.join(fuzz, "seeds", "property-list")
predicates = os.path.join(fuzz, "seeds", "predicate")
os.makedirs(plists, exist_ok=True)
os.makedirs(predicates, exist_ok=True)

def write(directory, name, data):
    with open(os.path.join(directory, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

def binary(objects, top=0):
    """A bplist00 from already-encoded objects, one-byte offsets and references where they fit."""
    body = b"bplist00"
    offsets = []
    for encoded in objects:
        offsets.append(len(body))
        body += encoded
    size = 1 if len(body) < 256 else 4
    table = len(body)
    body += b"".join(o.to_bytes(size, "big") for o in offsets)
    return body + bytes(6) + bytes([size, 1]) + struct.pack(">QQQ", len(objects), top, table)

rules = set()
for path in sorted(glob.glob(os.path.join(root, "Tests/Fixtures/extension-manifests/*/Info.plist")) +
                   sorted(glob.glob(os.path.join(root, "Examples/manifests/*.plist")))):
    name = os.path.basename(os.path.dirname(path)) if path.endswith("Info.plist") else os.path.basename(path)[:-6]
    data = open(path, "rb").read()
    write(plists, name + ".xml", data)
    try:
        value = plistlib.loads(data)
    except Exception:
        continue
    write(plists, name + ".bplist", plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
    rule = value.get("NSExtension", {}).get("NSExtensionAttributes", {}).get("NSExtensionActivationRule")
    if isinstance(rule, str):
        rules.add(rule)

for index, rule in enumerate(sorted(rules)):
    write(predicates, "corpus-%02d" % index, rule)

# The language's corners, one each.
for name, text in {
    "comparisons": "a == 1 AND b != 'x' OR c <= 2.5e1 AND d BETWEEN {1, 0x10} AND e IN {'a', \"b\"}",
    "strings": "name BEGINSWITH[c] 'A' OR name ENDSWITH[d] 'é' OR name CONTAINS[cd] 'x' OR name LIKE 'a*?b'",
    "matches": "ANY $x.types MATCHES 'public\\\\.(jpe?g|png)|[^.]+\\\\d{2,3}'",
    "collections": "items.@count > 1 AND items.@sum.size < 10 AND items.@avg.size >= 1 AND items.@max.size == items.@min.size",
    "subquery": "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ALL $a.registeredTypeIdentifiers UTI-EQUALS 'public.url').@count == 1).@count >= 1",
    "logic": "NOT (TRUEPREDICATE && !FALSEPREDICATE) || (a + 1) * -2 == nil AND SELF.x == YES",
    "modifiers": "NONE tags == 'a' OR SOME tags == 'b' OR ANY extensionItems.@unionOfArrays.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO 'public.image'",
}.items():
    write(predicates, name, text)

# The property-list readers' limits.
write(plists, "deep.xml", "<plist>" + "<array>" * 5000 + "</array>" * 5000 + "</plist>")
write(plists, "entities.xml", "<plist><string>&lt;&#x1F600;&#233;&amp;&unknown;</string></plist>")
write(plists, "cycle.bplist", binary([b"\xa1\x00"]))                                  # an array holding itself
write(plists, "huge-count.bplist", binary([b"\xaf\x13" + b"\xff" * 8]))              # 2^64 - 1 elements claimed
write(plists, "shared.bplist", binary([b"\xa2" + bytes([i + 1, i + 1]) for i in range(30)] + [b"\x08"]))  # 2^30 paths

# The extension runtime's messages (Sources/ExtensionRuntime/RuntimeMessage.swift), version 1, each behind the
# byte that tells the fuzzer how many descriptors came with it.
messages = os.path.join(fuzz, "seeds", "runtime-message")
os.makedirs(messages, exist_ok=True)

def u32(value): return struct.pack("<I", value)
def u64(value): return struct.pack("<Q", value)
def text(value): return u32(len(value.encode())) + value.encode()
def optional(value): return b"\x00" if value is None else b"\x01" + text(value)
def message(kind, body, descriptors=0): return bytes([descriptors]) + b"OS\x01" + bytes([kind]) + body
def items(entries):
    body = u32(len(entries))
    for title, content, attachments in entries:
        body += optional(title) + optional(content) + (b"\x00" if attachments is None else b"\x01" + u32(len(attachments)))
        for name, representations in attachments or []:
            body += optional(name) + u32(len(representations))
            for type, form, payload in representations:
                body += text(type) + bytes([form]) + (b"\x00" if payload is None else b"\x01" + payload)
    return body

for name, data in {
    "ready": message(1, u32(4242), 1),
    "load": message(2, u32(1) + u32(0) + text("public.jpeg") + b"\x01"),
    "cancel-load": message(3, u32(7)),
    "open-url": message(4, u32(2) + text("https://example.org/")),
    "complete-text": message(5, items([("Title", None, [(None, [("public.plain-text", 3, b"\x05" + text("HELLO"))])])])),
    "complete-memory": message(5, items([(None, None, [("photo", [("public.jpeg", 1, b"\x02" + u64(1 << 20))])])]), 1),
    "cancel": message(6, text("NSCocoaErrorDomain") + u64(3072) + text("The user cancelled.")),
    "request": message(32, items([("Newsroom - Apple", "Shopping", [("sunset", [("public.jpeg", 2, None), ("public.url", 3, None)])])])),
    "loaded-file": message(33, u32(1) + b"\x03" + text("report.pdf") + b"\x00", 1),
    "loaded-plist": message(33, u32(1) + b"\x06" + u32(8) + b"bplist00"),
    "loaded-failed": message(33, u32(1) + b"\x07" + text("NSItemProviderErrorDomain") + u64((1 << 64) - 1000) + text("gone")),
    "opened-url": message(34, u32(2) + b"\x01"),
    "time-warning": message(35, text("request")),
    "progress": message(36, u32(1) + u64(250000) + u64(1000000)),
}.items():
    write(messages, name, data)

# Hostile `complete` messages with the descriptors that come with them (Fuzz/ReturnedItems): a byte counting
# the descriptors, two bytes for each (its kind: 0 sealed memory file, 1 unsealed, 2 file, 3 sparse file,
# 4 directory, 5 pipe; its size in units of 97 bytes), then the packet.
returned = os.path.join(fuzz, "seeds", "returned-items")
os.makedirs(returned, exist_ok=True)

def with_descriptors(kinds, packet): return bytes([len(kinds)]) + b"".join(bytes(kind) for kind in kinds) + packet[1:]
def complete(representations, descriptors=0):
    return message(5, items([("Title", None, [("name", representations)])]), descriptors)

for name, data in {
    "memory-sealed": with_descriptors([(0, 10)], complete([("public.data", 1, b"\x02" + u64(970))], 1)),
    "memory-claims-more": with_descriptors([(0, 10)], complete([("public.data", 1, b"\x02" + u64((1 << 64) - 1))], 1)),
    "memory-unsealed": with_descriptors([(1, 10)], complete([("public.data", 1, b"\x02" + u64(970))], 1)),
    "file": with_descriptors([(2, 20)], complete([("public.jpeg", 2, b"\x03" + text("photo.jpg") + b"\x00")], 1)),
    "file-sparse": with_descriptors([(3, 200)], complete([("public.data", 2, b"\x03" + text("huge.bin") + b"\x00")], 1)),
    "file-directory": with_descriptors([(4, 0)], complete([("public.folder", 2, b"\x03" + text("..") + b"\x01")], 1)),
    "file-pipe": with_descriptors([(5, 0)], complete([("public.data", 2, b"\x03" + text("stream") + b"\x00")], 1)),
    "image-from-pipe": with_descriptors([(5, 0)], complete([("public.png", 3, b"\x09" + text("public.png") + u64(100))], 1)),
    "texts": with_descriptors([], complete([("public.url", 3, b"\x04" + text("file:///usr/share/doc")),
                                            ("public.plain-text", 3, b"\x05" + text("HELLO")),
                                            ("com.apple.property-list", 3, b"\x06" + u32(8) + b"bplist00")])),
    "mixed": with_descriptors([(0, 3), (2, 1), (1, 0)], complete([("public.data", 1, b"\x02" + u64(291)),
                                                                  ("public.jpeg", 2, b"\x03" + text("a.jpg") + b"\x00"),
                                                                  ("public.png", 1, b"\x02" + u64(0))], 3)),
}.items():
    write(returned, name, data)
