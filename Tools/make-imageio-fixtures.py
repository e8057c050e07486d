#!/usr/bin/env python3
"""Makes Tests/OpenImageIOTests/Fixtures: images whose metadata the ImageIO tests read back, each field known.

- camera.jpg: 640 × 480 stored, EXIF orientation 6 (upright 480 × 640), written as a camera does: TIFF tags,
  an Exif directory, a GPS directory, and a 160 × 120 JPEG thumbnail in the second directory (EXIF 2.32,
  CIPA DC-008). The EXIF is assembled by hand, so that every field and type is the one chosen here.
- plain.jpg: 300 × 200, a JFIF density of 300 dots per inch, no EXIF (so no embedded thumbnail).
- gray-progressive.jpg: 200 × 100 gray, progressive.
- alpha.png: 120 × 80 RGBA, pHYs of 2835 pixels a metre (72 dpi), tEXt Author and Comment.
- animated.gif: 64 × 48, three frames, looping forever, the first frame's delay 1 hundredth of a second (which players stretch to 0.1 s).

Run from the repository root: python3 Tools/make-imageio-fixtures.py (needs Pillow).
"""
import io, os, struct
from PIL import Image, ImageDraw, PngImagePlugin

OUT = "Tests/OpenImageIOTests/Fixtures"
os.makedirs(OUT, exist_ok=True)


def scene(width, height):
    """An asymmetric picture: a red disc at the top left, a blue block at the bottom right."""
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(height):
        draw.line([(0, y), (width, y)], fill=(y * 200 // height + 30, 120, 220 - y * 200 // height))
    draw.ellipse([width // 10, height // 10, width // 3, height // 3], fill=(230, 30, 30))
    draw.rectangle([width * 2 // 3, height * 2 // 3, width - width // 10, height - height // 10], fill=(20, 20, 210))
    return image


# TIFF field types.
BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED = 1, 2, 3, 4, 5, 7


def directory(entries, start, next_offset=0):
    """A big-endian TIFF directory at byte `start` of the TIFF structure: its bytes. `entries` are
    (tag, type, values); values that do not fit in 4 bytes follow the directory."""
    size = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1}
    head = struct.pack(">H", len(entries))
    data = b""
    data_start = start + 2 + 12 * len(entries) + 4
    for tag, kind, values in sorted(entries):
        if kind == ASCII:
            raw = values.encode() + b"\0"
        elif kind in (BYTE, UNDEFINED):
            raw = bytes(values)
        elif kind == SHORT:
            raw = b"".join(struct.pack(">H", v) for v in values)
        elif kind == LONG:
            raw = b"".join(struct.pack(">I", v) for v in values)
        else:
            raw = b"".join(struct.pack(">II", n, d) for n, d in values)
        count = len(raw) // size[kind]
        if len(raw) <= 4:
            field = raw.ljust(4, b"\0")
        else:
            field = struct.pack(">I", data_start + len(data))
            data += raw + (b"\0" if len(raw) % 2 else b"")
        head += struct.pack(">HHI", tag, kind, count) + field
    return head + struct.pack(">I", next_offset) + data


def exif_with_thumbnail(thumbnail_jpeg):
    """The TIFF structure of camera.jpg's EXIF, offsets worked out in two passes."""
    primary = lambda exif_at, gps_at, next_at: [
        (0x010F, ASCII, "OpenSharing"), (0x0110, ASCII, "Fixture Camera"), (0x0112, SHORT, [6]),
        (0x011A, RATIONAL, [(72, 1)]), (0x011B, RATIONAL, [(72, 1)]), (0x0128, SHORT, [2]),
        (0x0131, ASCII, "make-imageio-fixtures"), (0x0132, ASCII, "2026:11:25 10:00:00"),
        (0x8769, LONG, [exif_at]), (0x8825, LONG, [gps_at]),
    ]
    exif_entries = [
        (0x829A, RATIONAL, [(1, 120)]), (0x829D, RATIONAL, [(18, 10)]), (0x8827, SHORT, [50]),
        (0x9000, UNDEFINED, list(b"0232")), (0x9003, ASCII, "2026:11:25 09:59:58"),
        (0x9101, UNDEFINED, [1, 2, 3, 0]), (0x920A, RATIONAL, [(425, 100)]),
        (0x9286, UNDEFINED, list(b"ASCII\0\0\0a comment")), (0xA000, UNDEFINED, list(b"0100")),
        (0xA002, LONG, [640]), (0xA003, LONG, [480]), (0xA301, UNDEFINED, [1]),
        (0xA432, RATIONAL, [(425, 100), (425, 100), (18, 10), (18, 10)]), (0xA434, ASCII, "Fixture Lens"),
    ]
    gps_entries = [
        (0x0000, BYTE, [2, 2, 0, 0]), (0x0001, ASCII, "N"), (0x0002, RATIONAL, [(48, 1), (51, 1), (2400, 100)]),
        (0x0003, ASCII, "E"), (0x0004, RATIONAL, [(2, 1), (17, 1), (2400, 100)]), (0x0005, BYTE, [0]),
        (0x0006, RATIONAL, [(35, 1)]), (0x0007, RATIONAL, [(9, 1), (59, 1), (58, 1)]), (0x001D, ASCII, "2026:11:25"),
    ]
    thumbnail_entries = lambda at: [(0x0103, SHORT, [6]), (0x0201, LONG, [at]), (0x0202, LONG, [len(thumbnail_jpeg)])]
    # First pass for the sizes, second with the offsets they give.
    offsets = (0, 0, 0, 0)
    for _ in range(2):
        exif_at, gps_at, first_at, thumb_at = offsets
        ifd0 = directory(primary(exif_at, gps_at, first_at), 8, first_at)
        exif_dir = directory(exif_entries, 8 + len(ifd0))
        gps_dir = directory(gps_entries, 8 + len(ifd0) + len(exif_dir))
        ifd1_at = 8 + len(ifd0) + len(exif_dir) + len(gps_dir)
        ifd1 = directory(thumbnail_entries(thumb_at), ifd1_at)
        offsets = (8 + len(ifd0), 8 + len(ifd0) + len(exif_dir), ifd1_at, ifd1_at + len(ifd1))
    return b"MM\0\x2a" + struct.pack(">I", 8) + ifd0 + exif_dir + gps_dir + ifd1 + thumbnail_jpeg


def jpeg_with_exif(image, exif, quality=92):
    """`image` as a JPEG whose APP1 is `exif` (a TIFF structure), written after SOI."""
    plain = io.BytesIO()
    image.save(plain, "JPEG", quality=quality)
    body = plain.getvalue()
    segment = b"Exif\0\0" + exif
    assert len(segment) + 2 <= 0xFFFF
    return body[:2] + b"\xff\xe1" + struct.pack(">H", len(segment) + 2) + segment + body[2:]


# The camera stores the scene turned (orientation 6: the stored pixels turn a quarter clockwise to be upright).
upright = scene(480, 640)
stored = upright.transpose(Image.ROTATE_90)
assert stored.size == (640, 480)
small = io.BytesIO()
stored.resize((160, 120), Image.LANCZOS).save(small, "JPEG", quality=80)
with open(f"{OUT}/camera.jpg", "wb") as file:
    file.write(jpeg_with_exif(stored, exif_with_thumbnail(small.getvalue())))

scene(300, 200).save(f"{OUT}/plain.jpg", quality=90, dpi=(300, 300))
scene(200, 100).convert("L").save(f"{OUT}/gray-progressive.jpg", quality=90, progressive=True)

alpha = scene(120, 80).convert("RGBA")
alpha.putalpha(Image.linear_gradient("L").resize((120, 80)))
text = PngImagePlugin.PngInfo()
text.add_text("Author", "OpenSharing")
text.add_text("Comment", "made by make-imageio-fixtures")
alpha.save(f"{OUT}/alpha.png", pnginfo=text, dpi=(72, 72))

frames = [scene(64, 48).rotate(angle) for angle in (0, 120, 240)]
frames[0].save(f"{OUT}/animated.gif", save_all=True, append_images=frames[1:], loop=0, duration=[10, 100, 100])
print("wrote", OUT)
