#!/usr/bin/env python3
"""Makes Tests/ThumbnailsTests/Fixtures: one upright scene, stored in every format and every EXIF
orientation, and the references the tests compare thumbnails with — made by Pillow (an independent
implementation: exif_transpose, then a Lanczos resize), ImageMagick (interlaced PNG) and heif-enc (HEIC; grids,
rotation and mirroring assembled by Tools/heif_assemble.py, and checked by decoding them with libheif's heif-convert).

Run from the repository root with Debian's Python: /usr/bin/python3 Tools/make-thumbnail-fixtures.py (needs
python3-pil, whose Pillow 9.4 made the committed fixtures, imagemagick and libheif-examples).
"""
import io, math, os, struct, subprocess, sys, tempfile, zlib
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageOps, ImageStat, PngImagePlugin

sys.path.insert(0, os.path.dirname(__file__))
import heif_assemble

OUT = "Tests/ThumbnailsTests/Fixtures"
MAX = 100
os.makedirs(OUT, exist_ok=True)

# An asymmetric scene (a mistake in orientation moves everything), smooth enough that a Lanczos reference
# and an area average agree well, with detail enough that a wrong scale does not.
scene = Image.new("RGB", (480, 320))
draw = ImageDraw.Draw(scene)
for y in range(320):
    for x in range(0, 480, 4):
        draw.rectangle([x, y, x + 3, y], fill=(x * 255 // 480, y * 255 // 320, 128))
draw.ellipse([40, 40, 200, 160], fill=(230, 40, 40))
draw.rectangle([300, 200, 460, 300], fill=(20, 20, 200))
draw.polygon([(400, 20), (470, 120), (330, 120)], fill=(250, 230, 30))
scene = scene.filter(ImageFilter.GaussianBlur(2))
scene.save(f"{OUT}/scene.png")

def psnr(a, b):
    mean = sum(x * x for x in ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).rms) / 3
    return math.inf if mean == 0 else 10 * math.log10(255 * 255 / mean)

def stored(orientation):
    """The pixels to store so that applying `orientation` shows the scene upright."""
    inverse = {1: None, 2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM,
               5: Image.TRANSPOSE, 6: Image.ROTATE_90, 7: Image.TRANSVERSE, 8: Image.ROTATE_270}[orientation]
    return scene if inverse is None else scene.transpose(inverse)

def exif(orientation):
    data = Image.Exif()
    data[0x0112] = orientation
    return data.tobytes()

for orientation in range(1, 9):
    stored(orientation).save(f"{OUT}/jpeg-{orientation}.jpg", quality=95, exif=exif(orientation))
    # Pillow's exif_transpose undoes what was stored: the check that the fixtures say what they mean.
    upright = ImageOps.exif_transpose(Image.open(f"{OUT}/jpeg-{orientation}.jpg"))
    assert upright.size == scene.size, orientation
stored(6).save(f"{OUT}/png-6.png", exif=exif(6))
# TIFF: Pillow's strips (JPEG-compressed, orientation tag 274), ImageMagick's tiles, and unassociated alpha.
stored(5).save(f"{OUT}/tiff-5.tif", compression="jpeg", quality=95, tiffinfo={274: 5})

def tiff_by_hand(path, size, data, bits, samples, photometric, compression=1, big=False, sample_format=None, jpeg_stream=False):
    """A TIFF of one strip of `data` written by hand, for what Pillow does not write: BigTIFF (8-byte counts
    and offsets, 20-byte entries; libtiff's "BigTIFF File Format"), samples of 12 bits, or old-style JPEG
    (TIFF 6.0 section 22), whose strip is a JPEG stream that JPEGInterchangeFormat (513, 514) points at too."""
    width, height = size
    entries = [  # tag, type (3 SHORT, 4 LONG, 16 LONG8), values
        (256, 4, [width]), (257, 4, [height]), (258, 3, [bits] * samples), (259, 3, [compression]), (262, 3, [photometric]),
        (273, 16 if big else 4, [None]), (277, 3, [samples]), (278, 4, [height]), (279, 16 if big else 4, [len(data)]),
        (284, 3, [1]),
    ] + ([(339, 3, [sample_format] * samples)] if sample_format else []) + ([(513, 4, [None]), (514, 4, [len(data)])] if jpeg_stream else [])
    entries.sort(key=lambda entry: entry[0])  # in the order of their tags
    field_size = 8 if big else 4
    directory = 16 if big else 8
    # The directory, then the values too large for their entries' fields, then the strip.
    extra_at = directory + (8 if big else 2) + (20 if big else 12) * len(entries) + field_size
    packing = {3: "H", 4: "I", 16: "Q"}
    fields = [struct.pack("<" + packing[kind] * len(values), *(0 if value is None else value for value in values))
              for _, kind, values in entries]
    start = extra_at + sum(len(field) for field in fields if len(field) > field_size)
    table, extra = struct.pack("<Q" if big else "<H", len(entries)), b""
    for (tag, kind, values), field in zip(entries, fields):
        if None in values:
            field = struct.pack("<" + packing[kind], start)
        if len(field) > field_size:
            extra, field = extra + field, struct.pack("<Q" if big else "<I", extra_at + len(extra))
        table += struct.pack("<HHQ" if big else "<HHI", tag, kind, len(values)) + field.ljust(field_size, b"\0")
    header = b"II" + (struct.pack("<HHHQ", 43, 8, 0, directory) if big else struct.pack("<HI", 42, directory))
    with open(path, "wb") as out:
        out.write(header + table + struct.pack("<Q" if big else "<I", 0) + extra + data)

def bigtiff(image, path):
    """`image` (RGB) as a BigTIFF, which Pillow does not write, one Deflate-compressed strip."""
    tiff_by_hand(path, image.size, zlib.compress(image.tobytes(), 9), 8, 3, 2, compression=8, big=True)
    assert Image.open(path).convert("RGB").tobytes() == image.tobytes()

def gray12(image, path):
    """`image` as 12-bit grey, each level L stored as 16 L + L / 16, so that its top 8 bits are L again."""
    levels = [value * 16 + value // 16 for value in image.convert("L").tobytes()]
    packed = bytearray()
    for y in range(image.size[1]):
        row = levels[y * image.size[0]:(y + 1) * image.size[0]] + [0]  # a row starts on a byte
        for x in range(0, image.size[0], 2):
            a, b = row[x], row[x + 1]
            packed += bytes([a >> 4, (a & 15) << 4 | b >> 8, b & 255])
    tiff_by_hand(path, image.size, zlib.compress(bytes(packed), 9), 12, 1, 1, compression=8)
bigtiff(scene, f"{OUT}/tiff-big.tif")
gray12(scene, f"{OUT}/tiff-gray-12.tif")
# 32-bit floating-point grey, a ramp of 16 samples from -1 to 2 (a range only the samples give).
tiff_by_hand(f"{OUT}/tiff-float.tif", (16, 1), struct.pack("<16f", *[-1 + 3 * i / 15 for i in range(16)]), 32, 1, 1,
             sample_format=3)
# CIELab (a* and b* signed): white, black, mid grey, and a saturated red (L* 54, a* 80, b* 67: sRGB's red).
tiff_by_hand(f"{OUT}/tiff-lab.tif", (4, 1), bytes([255, 0, 0, 0, 0, 0, 128, 0, 0, 138, 80, 67]), 8, 3, 8)
# 16-bit CMYK, which Pillow does not write, with black drawn out of the three colours (so that a decoder that
# left K out would be far off): a 120 × 80 scene, and the RGB it was made from.
def cmyk16(image, path):
    samples = []
    for red, green, blue in image.getdata():
        brightest = max(red, green, blue)
        black = 255 - brightest
        inks = [0, 0, 0] if brightest == 0 else [1 - value / brightest for value in (red, green, blue)]
        samples += [round(ink * 65535) for ink in inks] + [black * 257]
    tiff_by_hand(path, image.size, zlib.compress(struct.pack(f"<{len(samples)}H", *samples), 9), 16, 4, 5, compression=8)
small = scene.resize((120, 80), Image.LANCZOS)
small.save(f"{OUT}/reference-cmyk.png")
cmyk16(small, f"{OUT}/tiff-cmyk-16.tif")
# An old-style JPEG page of one strip, as scanners wrote them: 960 × 640, 2.4 MB as libtiff's RGBA of its strip.
with io.BytesIO() as stream:
    scene.resize((960, 640), Image.LANCZOS).save(stream, "JPEG", quality=80)
    tiff_by_hand(f"{OUT}/tiff-ojpeg.tif", (960, 640), stream.getvalue(), 8, 3, 6, compression=6, jpeg_stream=True)
assert psnr(Image.open(f"{OUT}/tiff-ojpeg.tif").convert("RGB").resize(scene.size), scene) > 30
# Bilevel pixels, G4-compressed in strips of about 400 rows (Pillow's): libtiff's RGBA interface would decode
# a strip at a time, 2 MB of RGBA; a row at a time needs a few kilobytes.
bilevel = scene.resize((1240, 827)).convert("L").point(lambda level: 255 if level > 100 else 0, "1")
bilevel.save(f"{OUT}/tiff-g4.tif", compression="group4")
bilevel.save(f"{OUT}/reference-g4.png")

def gif_by_hand(path, size, indices, minimum_code_size=8, clears=True, screen=None, at=(0, 0), colors=None,
                local=None, transparent=None, interlaced=False):
    """A GIF of one frame written by hand, for what Pillow does not write: `indices` (row by row) as literal
    LZW codes only, of `minimum_code_size` + 1 bits growing to 12 as the table fills, with a clear code before
    each widening when `clears` (else the table fills and is kept: GIF's deferred clear); on a `screen` larger
    than the frame, placed `at`; with a global and a local colour table (lists of (r, g, b)), or neither; a
    transparent index; rows in interlaced order. giflib reads minimum code sizes up to 8; GIF's codes of up to
    12 bits hold 11, which some writers use and Pillow reads."""
    width, height = size
    if interlaced:
        rows = [row for start, step in [(0, 8), (4, 8), (2, 4), (1, 2)] for row in range(start, height, step)]
        indices = [indices[row * width + x] for row in rows for x in range(width)]
    clear, bits = 1 << minimum_code_size, minimum_code_size + 1
    codes = [(clear, bits)]
    table, first = clear + 2, True
    for value in indices:
        if clears and not first and table + 1 == 1 << bits and bits < 12:
            codes.append((clear, bits))
            table, bits, first = clear + 2, minimum_code_size + 1, True
        codes.append((value, bits))
        if not first and table < 4096:
            table += 1
            if table == 1 << bits and bits < 12:
                bits += 1
        first = False
    codes.append((clear + 1, bits))
    stream, position = 0, 0
    for code, length in codes:
        stream |= code << position
        position += length
    data = stream.to_bytes((position + 7) // 8, "little")
    blocks = b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255] for i in range(0, len(data), 255))
    table_bytes = lambda entries: b"".join(bytes(entry) for entry in entries)
    screen_width, screen_height = screen or size
    head = b"GIF89a" + struct.pack("<HHBBB", screen_width, screen_height, 0xF7 if colors else 0, 0, 0) + (table_bytes(colors) if colors else b"")
    control = b"!\xf9\x04" + struct.pack("<BHB", 1 if transparent is not None else 0, 0, transparent or 0) + b"\0"
    flags = (0x87 if local else 0) | (0x40 if interlaced else 0)
    frame = b"," + struct.pack("<HHHHB", at[0], at[1], width, height, flags) + (table_bytes(local) if local else b"")
    with open(path, "wb") as out:
        out.write(head + control + frame + bytes([minimum_code_size]) + blocks + b"\0;")

ramp = list(range(256))
for name, arguments in [("gif-no-colors.gif", {}), ("gif-lzw-11.gif", {"minimum_code_size": 11})]:
    gif_by_hand(f"{OUT}/{name}", (16, 16), ramp, **arguments)
    assert list(Image.open(f"{OUT}/{name}").convert("L").getdata()) == ramp
# 5,120 codes of 8-bit indices with no clear: the codes widen from 9 bits to 12 and the full table is kept.
gif_by_hand(f"{OUT}/gif-full-table.gif", (64, 80), [(7 * i) % 256 for i in range(64 * 80)], clears=False)
assert list(Image.open(f"{OUT}/gif-full-table.gif").convert("L").getdata()) == [(7 * i) % 256 for i in range(64 * 80)]
# An interlaced 16 × 16 frame at (10, 5) of a 32 × 24 screen; a local table of reds over a global one of blues;
# index 0 transparent.
gif_by_hand(f"{OUT}/gif-offset.gif", (16, 16), ramp, screen=(32, 24), at=(10, 5), colors=[(0, 0, i) for i in range(256)],
            local=[(i, 0, 0) for i in range(256)], transparent=0, interlaced=True)
expected = Image.new("RGBA", (32, 24), (0, 0, 0, 0))
for index in range(1, 256):
    expected.putpixel((10 + index % 16, 5 + index // 16), (index, 0, 0, 255))
assert Image.open(f"{OUT}/gif-offset.gif").convert("RGBA").tobytes() == expected.tobytes()

def png_with_xmp(orientation, form, path):
    """A PNG whose only orientation is XMP's tiff:Orientation in an iTXt chunk, as macOS writes it when Finder
    turns a PNG: as an attribute or as an element."""
    value = (f'tiff:Orientation="{orientation}"/>' if form == "attribute"
             else f'><tiff:Orientation>{orientation}</tiff:Orientation></rdf:Description>')
    xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           '<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" ' + value + '</rdf:RDF></x:xmpmeta>')
    info = PngImagePlugin.PngInfo()
    info.add_itxt("XML:com.adobe.xmp", xmp)
    stored(orientation).save(path, pnginfo=info)
    assert ImageOps.exif_transpose(Image.open(path)).size == scene.size
png_with_xmp(6, "attribute", f"{OUT}/png-xmp-6.png")
png_with_xmp(8, "element", f"{OUT}/png-xmp-8.png")

# BMP, on a smaller scene and its PNG: Pillow's 24-bit (rows bottom-up), and two written by hand, which Pillow
# does not write: run-length compressed indices (RLE8), and 32-bit pixels through channel masks, top-down.
small = scene.resize((120, 80))
small.save(f"{OUT}/bmp-reference.png")
small.save(f"{OUT}/bmp-24.bmp")

def bmp_by_hand(path, size, header_fields, palette, pixels, masks=b""):
    """A BMP with a 40-byte info header; `header_fields` are height, bits, compression."""
    (height, bits, compression), width = header_fields, size[0]
    offset = 14 + 40 + len(masks) + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bits, compression, len(pixels), 2835, 2835, len(palette) // 4, 0)
    with open(path, "wb") as out:
        out.write(b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + masks + palette + pixels)

indexed = small.quantize(256, dither=Image.Dither.NONE)
colors = indexed.getpalette()[:768]
palette = b"".join(bytes([colors[i + 2], colors[i + 1], colors[i], 0]) for i in range(0, len(colors), 3))
runs = bytearray()
for y in reversed(range(small.size[1])):  # bottom row first
    row = [indexed.getpixel((x, y)) for x in range(small.size[0])]
    x = 0
    while x < len(row):
        length = 1
        while x + length < len(row) and length < 255 and row[x + length] == row[x]:
            length += 1
        runs += bytes([length, row[x]])
        x += length
    runs += b"\0\0"
runs += b"\0\1"
bmp_by_hand(f"{OUT}/bmp-rle8.bmp", small.size, (small.size[1], 8, 1), palette, bytes(runs))
assert Image.open(f"{OUT}/bmp-rle8.bmp").convert("RGB").tobytes() == indexed.convert("RGB").tobytes()
indexed.convert("RGB").save(f"{OUT}/bmp-rle8-reference.png")
# 32 bits, channels in the masks' (unusual) places: blue high, green, red, then 8 bits of nothing.
pixels = b"".join(bytes([0, red, green, blue]) for red, green, blue in small.getdata())
bmp_by_hand(f"{OUT}/bmp-32-masks.bmp", small.size, (-small.size[1], 32, 3), b"", pixels,
            masks=struct.pack("<III", 0x0000FF00, 0x00FF0000, 0xFF000000))
stored(8).save(f"{OUT}/webp-8.webp", quality=95, exif=exif(8))
scene.save(f"{OUT}/jpeg-progressive.jpg", quality=95, progressive=True)
scene.convert("L").save(f"{OUT}/jpeg-gray.jpg", quality=95)
scene.convert("CMYK").save(f"{OUT}/jpeg-cmyk.jpg", quality=95)
scene.save(f"{OUT}/webp.webp", quality=95)
scene.save(f"{OUT}/webp-lossless.webp", lossless=True)
scene.quantize(256, dither=Image.Dither.NONE).save(f"{OUT}/gif.gif")
# An animation: its first frame is the scene, its second the scene mirrored.
scene.save(f"{OUT}/webp-animated.webp", save_all=True, append_images=[scene.transpose(Image.FLIP_LEFT_RIGHT)],
           duration=100, quality=95)

def riff_chunk(kind, payload):
    return kind + struct.pack("<I", len(payload)) + payload + b"\0" * (len(payload) & 1)

# An animation whose first frame covers only part of the canvas (Pillow's encoder always covers it all):
# a 240 × 160 piece of the scene at (120, 80), lossless, the rest clear.
piece = scene.crop((120, 80, 360, 240))
with io.BytesIO() as still:
    piece.save(still, "WEBP", lossless=True)
    vp8l = still.getvalue()[12:]
frame = struct.pack("<I", 60 | 40 << 24)[:3] + struct.pack("<I", 40)[:3] + struct.pack("<I", 239)[:3] \
    + struct.pack("<I", 159)[:3] + struct.pack("<I", 100)[:3] + b"\0" + vp8l
vp8x = struct.pack("<B3x", 0x02 | 0x10) + struct.pack("<I", 479)[:3] + struct.pack("<I", 319)[:3]
body = b"WEBP" + riff_chunk(b"VP8X", vp8x) + riff_chunk(b"ANIM", struct.pack("<IH", 0, 0)) + riff_chunk(b"ANMF", frame)
open(f"{OUT}/webp-animated-offset.webp", "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)
offset_canvas = Image.new("RGBA", scene.size, (0, 0, 0, 0))
offset_canvas.paste(piece, (120, 80))
assert Image.open(f"{OUT}/webp-animated-offset.webp").convert("RGBA").tobytes() == offset_canvas.tobytes()
subprocess.run(["convert", f"{OUT}/scene.png", "-interlace", "PNG", f"PNG24:{OUT}/png-interlaced.png"], check=True)
subprocess.run(["convert", f"{OUT}/scene.png", "-compress", "Zip", "-define", "tiff:tile-geometry=128x128",
                f"{OUT}/tiff-tiled.tif"], check=True)
subprocess.run(["heif-enc", "-q", "90", "-o", f"{OUT}/heic.heic", f"{OUT}/scene.png"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["heif-enc", "-q", "90", "-t", "160", "-o", f"{OUT}/heic-thumbnail.heic", f"{OUT}/scene.png"], check=True, stdout=subprocess.DEVNULL)

# As phones write them: a grid of 128-pixel tiles (cropped at the right and bottom), turned by irot and imir
# to each EXIF orientation, with a 160-pixel thumbnail. libheif must see the scene upright in each.
for orientation in range(1, 9):
    path = f"{OUT}/heic-grid-{orientation}.heic"
    heif_assemble.write(path, scene, orientation, tile=128, thumbnail=160, quality=90)
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["heif-convert", path, f"{work}/upright.png"], check=True, stdout=subprocess.DEVNULL)
        upright = Image.open(f"{work}/upright.png")
        assert upright.size == scene.size and psnr(upright, scene) > 35, (orientation, upright.size)
# Cropped (clap) and turned: what libheif decodes for us, cropping, then turning.
cropped = scene.crop((40, 40, 440, 280))
heif_assemble.write(f"{OUT}/heic-clap-6.heic", scene, 6, quality=90, crop=cropped.size)
with tempfile.TemporaryDirectory() as work:
    subprocess.run(["heif-convert", f"{OUT}/heic-clap-6.heic", f"{work}/upright.png"], check=True, stdout=subprocess.DEVNULL)
    upright = Image.open(f"{work}/upright.png")
    assert upright.size == cropped.size and psnr(upright, cropped) > 35, upright.size

# Embedded thumbnails as other writers store them (heif_assemble.THUMBNAIL_FORMS): coded larger than their
# ispe, cropped by a clap, without the primary's rotation — stored as the primary, or already upright.
for form, orientation in [("padded", 1), ("cropped", 1), ("bare", 6), ("upright", 6)]:
    heif_assemble.write(f"{OUT}/heic-thumbnail-{form}-{orientation}.heic", scene, orientation, thumbnail=240, quality=90,
                        thumbnail_form=form)

# As cameras write them: 10-bit samples, and a colr box on the tiles only — here saying limited range, where
# the bitstream says full (a camera's file that libheif shows by its colr); its twin has the box on its one item.
heif_assemble.write(f"{OUT}/heic-grid-10.heic", scene, 1, tile=128, thumbnail=160, quality=90, bit_depth=10)
heif_assemble.write(f"{OUT}/heic-grid-limited.heic", scene, 1, tile=128, quality=90, colr=heif_assemble.nclx(5, False))
heif_assemble.write(f"{OUT}/heic-limited.heic", scene, 1, quality=90, colr=heif_assemble.nclx(5, False))

# Edges whose place any misalignment of the sample grid would move: black, white from x = 515 and from
# y = 613 (neither on an 8-pixel block's border), as PNG, as JPEG (no chroma subsampling, so that each DCT
# scale is what is seen) and as HEIF.
edge = Image.new("RGB", (1024, 1024))
edge.paste((255, 255, 255), (515, 0, 1024, 1024))
edge.paste((255, 255, 255), (0, 613, 1024, 1024))
edge.save(f"{OUT}/edge.png")
edge.save(f"{OUT}/edge.jpg", quality=100, subsampling=0)
subprocess.run(["heif-enc", "-q", "100", "-o", f"{OUT}/edge.heic", f"{OUT}/edge.png"], check=True, stdout=subprocess.DEVNULL)

# Transparency: a clear background with an opaque disc; the reference is resized with premultiplied alpha
# (Pillow's RGBa), so clear pixels' colors do not bleed.
clear = Image.new("RGBA", (480, 320), (0, 255, 0, 0))
ImageDraw.Draw(clear).ellipse([100, 60, 380, 260], fill=(200, 30, 90, 255))
clear = clear.filter(ImageFilter.GaussianBlur(1))
clear.save(f"{OUT}/png-alpha.png")
clear.save(f"{OUT}/tiff-alpha.tif", compression="tiff_adobe_deflate")
subprocess.run(["heif-enc", "-q", "90", "-o", f"{OUT}/heic-alpha.heic", f"{OUT}/png-alpha.png"], check=True, stdout=subprocess.DEVNULL)

def reference(image, name):
    width, height = image.size
    scale = MAX / max(width, height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    if image.mode == "RGBA":
        image.convert("RGBa").resize(size, Image.LANCZOS).convert("RGBA").save(f"{OUT}/{name}")
    else:
        image.resize(size, Image.LANCZOS).save(f"{OUT}/{name}")

reference(scene, "reference.png")
reference(scene.convert("L").convert("RGB"), "reference-gray.png")
reference(clear, "reference-alpha.png")
reference(offset_canvas, "reference-animated-offset.png")
reference(cropped, "reference-cropped.png")
