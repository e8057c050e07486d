"""Builds HEIF files the way phones write them, from pieces heif-enc encodes: a primary image cut into a grid
of HEVC tiles, container rotation and mirroring (irot, imir), an embedded thumbnail. heif-enc (libheif 1.15)
writes none of these itself. Used by Tools/make-thumbnail-fixtures.py and Benchmarks/make-thumbnail-inputs.py.

The box layout follows ISO/IEC 23008-12 (HEIF) and ISO/IEC 14496-12 (ISO base media file format).
"""
import os, struct, subprocess, tempfile
from PIL import Image

# How to store an upright image so that the container's transformations show it upright again, per EXIF
# orientation: Pillow's operation that gives the stored pixels, and the properties that undo it, in order.
# irot turns anticlockwise by 90 degrees times its angle; imir flips top to bottom (0) or left to right (1) —
# the reading of HEIF's amendment 2, which iPhones and libheif follow (MPEGGroup/FileFormat#22,
# AOMediaCodec/libavif#665: the 2017 text's "vertical axis" for 0 was read both ways).
ORIENTATIONS = {
    1: (None, []),
    2: (Image.FLIP_LEFT_RIGHT, [("imir", 1)]),
    3: (Image.ROTATE_180, [("irot", 2)]),
    4: (Image.FLIP_TOP_BOTTOM, [("imir", 0)]),
    5: (Image.TRANSPOSE, [("irot", 1), ("imir", 0)]),
    6: (Image.ROTATE_90, [("irot", 3)]),
    7: (Image.TRANSVERSE, [("irot", 1), ("imir", 1)]),
    8: (Image.ROTATE_270, [("irot", 1)]),
}


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode()) + payload


def full_box(kind, version, flags, payload):
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def children(data, start=0, end=None):
    """The boxes in data[start:end]: (type, payload start, payload end)."""
    end = len(data) if end is None else end
    while start < end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[start + 8:start + 16])[0], 16
        elif size == 0:
            size = end - start
        yield kind.decode("latin-1"), start + header, start + size
        start += size


def encode_tile(image, quality, bit_depth=8):
    """HEVC for one image, by heif-enc: its hvcC and colr boxes and its coded data. Deeper than 8 bits, from a
    16-bit PNG made by ImageMagick (Pillow writes none in colour)."""
    with tempfile.TemporaryDirectory() as work:
        image.save(f"{work}/tile.png")
        depth = []
        if bit_depth > 8:
            subprocess.run(["convert", f"{work}/tile.png", "-depth", "16", f"PNG48:{work}/tile.png"], check=True)
            depth = ["-b", str(bit_depth)]
        subprocess.run(["heif-enc", "-q", str(quality), *depth, "-o", f"{work}/tile.heic", f"{work}/tile.png"],
                       check=True, stdout=subprocess.DEVNULL)
        data = open(f"{work}/tile.heic", "rb").read()
    meta = next((s, e) for kind, s, e in children(data) if kind == "meta")
    boxes = {kind: (s, e) for kind, s, e in children(data, meta[0] + 4, meta[1])}
    ipco = next((s, e) for kind, s, e in children(data, *boxes["iprp"]) if kind == "ipco")
    properties = {kind: data[s - 8:e] for kind, s, e in children(data, *ipco)}
    # heif-enc writes one item: its extents are the coded picture.
    position, _ = boxes["iloc"]
    version = data[position]
    sizes = data[position + 4] << 8 | data[position + 5]
    offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
    index_size = sizes & 15 if version in (1, 2) else 0
    position += 6 + 2 * (2 if version < 2 else 4)  # the item count and the one item's ID
    if version in (1, 2):
        position += 2  # construction method
    position += 2  # data reference index
    base = int.from_bytes(data[position:position + base_size], "big")
    position += base_size
    extents = int.from_bytes(data[position:position + 2], "big")
    position += 2
    coded = b""
    for _ in range(extents):
        position += index_size
        offset = int.from_bytes(data[position:position + offset_size], "big")
        position += offset_size
        length = int.from_bytes(data[position:position + length_size], "big")
        position += length_size
        coded += data[base + offset:base + offset + length]
    return properties["hvcC"], properties.get("colr"), coded


def ispe(width, height):
    return full_box("ispe", 0, 0, struct.pack(">II", width, height))


def transformations(orientation, crop=None, size=None):
    """The transformative properties, in the order they apply: a centered clean aperture (clap) of `crop`
    (upright width and height) in an image of stored `size`, then rotation and mirroring."""
    boxes = []
    if crop:
        width, height = crop if orientation < 5 else crop[::-1]
        assert (size[0] - width) % 2 == 0 and (size[1] - height) % 2 == 0, "a centered crop, on whole pixels"
        boxes.append(box("clap", struct.pack(">8I", width, 1, height, 1, 0, 1, 0, 1)))
    return boxes + [box("irot", bytes([angle])) if kind == "irot" else box("imir", bytes([angle]))
                    for kind, angle in ORIENTATIONS[orientation][1]]


# How an embedded thumbnail is stored. "turned": as the primary image, with its own copy of the primary's
# rotation and mirroring (as phones write it). The rest are what other writers do, with no transformation of
# its own: "bare", stored as the primary; "upright", already upright; "padded", stored as the primary and
# coded with 32 magenta rows below what its ispe declares; "cropped", 16 magenta rows above and below,
# inside its ispe, cut away by a centered clap.
THUMBNAIL_FORMS = ("turned", "bare", "upright", "padded", "cropped")
PADDING = (255, 0, 255)


def nclx(matrix, full_range):
    """A colr box describing BT.709 primaries, sRGB's transfer and the YCbCr `matrix` and range."""
    return box("colr", b"nclx" + struct.pack(">HHHB", 1, 13, matrix, 0x80 if full_range else 0))


def write(path, upright, orientation=1, tile=None, thumbnail=None, quality=90, crop=None, thumbnail_form="turned",
          bit_depth=8, colr=None):
    """Writes `upright` (a Pillow RGB image) as a HEIF file at `path`, stored so that `orientation` (EXIF's
    1–8, as irot and imir) shows it upright; as a grid of `tile`-pixel HEVC tiles when `tile` is given; with
    an embedded thumbnail no larger than `thumbnail` pixels, stored as `thumbnail_form` says, when given;
    shown cropped to its centered `crop` (upright width and height) when given. `bit_depth` is the HEVC
    samples'; `colr`, when given, is the colr box of every coded item in place of heif-enc's — of the tiles,
    not the grid, as cameras write it."""
    def coded_item(image, declared=None):
        """The properties of `image` coded (its ispe says `declared`, else its size) and its coded data."""
        hvcc, own, coded = encode_tile(image, quality, bit_depth)
        description = colr or own
        return [(hvcc, True), (ispe(*(declared or image.size)), False)] + ([(description, False)] if description else []), coded

    operation = ORIENTATIONS[orientation][0]
    stored = upright if operation is None else upright.transpose(operation)
    width, height = stored.size
    items = []  # (id, type, hidden, properties (box bytes, essential), data)
    references = []  # (type, from, [to])
    if tile:
        columns, rows = -(-width // tile), -(-height // tile)
        padded = Image.new("RGB", (columns * tile, rows * tile))
        padded.paste(stored)
        tiles = []
        for row in range(rows):
            for column in range(columns):
                piece = padded.crop((column * tile, row * tile, (column + 1) * tile, (row + 1) * tile))
                properties, coded = coded_item(piece)
                item = 2 + len(tiles)
                tiles.append(item)
                items.append((item, "hvc1", True, properties, coded))
        grid = struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)
        properties = [(ispe(width, height), False)] + [(t, True) for t in transformations(orientation, crop, stored.size)]
        items.insert(0, (1, "grid", False, properties, grid))
        references.append(("dimg", 1, tiles))
    else:
        properties, coded = coded_item(stored)
        properties += [(t, True) for t in transformations(orientation, crop, stored.size)]
        items.append((1, "hvc1", False, properties, coded))
    if thumbnail:
        assert thumbnail_form in THUMBNAIL_FORMS, thumbnail_form
        small = (upright if thumbnail_form == "upright" else stored).copy()
        small.thumbnail((thumbnail, thumbnail), Image.LANCZOS)
        declared = small.size
        if thumbnail_form in ("padded", "cropped"):
            above = 16 if thumbnail_form == "cropped" else 0
            coded = Image.new("RGB", (small.width, small.height + 32), PADDING)
            coded.paste(small, (0, above))
            small = coded
            if thumbnail_form == "cropped":
                declared = small.size
        properties, coded = coded_item(small, declared)
        if thumbnail_form == "turned":
            properties += [(t, True) for t in transformations(orientation)]
        elif thumbnail_form == "cropped":
            properties += [(t, True) for t in transformations(1, (small.width, small.height - 32), small.size)]
        item = max(i[0] for i in items) + 1
        items.append((item, "hvc1", False, properties, coded))
        references.append(("thmb", item, [1]))

    ftyp = box("ftyp", b"heic" + struct.pack(">I", 0) + b"mif1heic")
    unique = []
    for item in items:
        for prop, _ in item[3]:
            if prop not in unique:
                unique.append(prop)

    def meta(offsets):
        hdlr = full_box("hdlr", 0, 0, struct.pack(">I", 0) + b"pict" + bytes(12) + b"\0")
        pitm = full_box("pitm", 0, 0, struct.pack(">H", 1))
        infes = b"".join(full_box("infe", 2, 1 if hidden else 0, struct.pack(">HH4s", item, 0, kind.encode()) + b"\0")
                         for item, kind, hidden, _, _ in items)
        iinf = full_box("iinf", 0, 0, struct.pack(">H", len(items)) + infes)
        iref = full_box("iref", 0, 0, b"".join(
            box(kind, struct.pack(">HH", source, len(targets)) + b"".join(struct.pack(">H", t) for t in targets))
            for kind, source, targets in references))
        iloc = full_box("iloc", 0, 0, struct.pack(">BBH", 0x44, 0, len(items)) + b"".join(
            struct.pack(">HHHII", item, 0, 1, offsets.get(item, 0), len(data)) for item, _, _, _, data in items))
        ipco = box("ipco", b"".join(unique))
        ipma = full_box("ipma", 0, 0, struct.pack(">I", len(items)) + b"".join(
            struct.pack(">HB", item, len(props)) + bytes((0x80 if essential else 0) | (unique.index(p) + 1) for p, essential in props)
            for item, _, _, props, _ in items))
        return full_box("meta", 0, 0, hdlr + pitm + iinf + iref + iloc + box("iprp", ipco + ipma))

    start = len(ftyp) + len(meta({})) + 8
    offsets = {}
    for item, _, _, _, data in items:
        offsets[item] = start
        start += len(data)
    with open(path, "wb") as file:
        file.write(ftyp + meta(offsets) + box("mdat", b"".join(i[4] for i in items)))
