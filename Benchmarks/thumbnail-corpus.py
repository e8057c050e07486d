#!/usr/bin/env python3
"""`sharing thumbnail --max 300` over public image test suites, each result checked against an independent
decoder (Pillow 11.3.0, and pillow-heif 1.8.1 for HEIF, which brings libheif 1.23). The suites are the test
images of two source releases on PyPI, downloaded once and checked against their SHA-256: Pillow 11.3.0's
Tests/images (about 1,100 files of many formats made by many tools, broken and fuzzed ones among them) and
pillow-heif 1.8.1's tests/images (HEIF from phones, cameras and libheif: grids, stereo pairs, thumbnails
that do not match their image, truncated and corrupted files). Counts per class, and the files of every class
but `ok`.

    Benchmarks/thumbnail-corpus.py SHARING [DATA_DIR]
    (run by `make bench` with the Python of a virtual environment holding Pillow and pillow-heif)

Classes, per file:
  ok                  both read it; same size (within a pixel), PSNR >= 25 dB
  low PSNR            both read it, same size, PSNR below 25 dB
  orientation         ours matches the reference turned or flipped better than as it is
  size                the sizes differ by more than a pixel
  refused             we refuse (exit status 1) a file of a format we read, which the reference reads
  not our format      the reference reads a format we do not (Pillow reads many ImageIO does not)
  both refuse         neither reads it (a broken file), or only we read it
  crash               any exit but 0 and 1
  hang                no answer within 20 s
  over 100 MB         peak resident memory of the process over 100 MB
"""
import hashlib, math, os, signal, subprocess, sys, tarfile, tempfile, urllib.request
from PIL import Image, ImageChops, ImageOps
import pillow_heif

pillow_heif.register_heif_opener()

# The suites: a source release on PyPI, its SHA-256, and the folder of test images in it.
SUITES = [
    ("https://files.pythonhosted.org/packages/f3/0d/d0d6dea55cd152ce3d6767bb38a8fc10e33796ba4ba210cbab9354b6d238/"
     "pillow-11.3.0.tar.gz", "3828ee7586cd0b2091b6209e5ad53e20d0649bbe87164a459d0676e035e8f523", "/Tests/images/"),
    ("https://files.pythonhosted.org/packages/44/c1/82145984920ca055675af2c2795bd30da6f7461215c41f3c1eacb3d66353/"
     "pillow_heif-1.8.1.tar.gz", "521ebffb8a181d56c3904e5a61f20903edee0d9d3275967b8fb345f866215c06", "/tests/images/"),
]
# The formats `sharing thumbnail` reads, as Pillow names them (MPO is JPEG with more pictures after it).
OURS = {"JPEG", "MPO", "PNG", "GIF", "WEBP", "TIFF", "HEIF", "AVIF", "BMP"}
LIMIT = 300


def corpus(data, url, sha256, folder):
    """The image files of one suite, downloaded and unpacked into DATA once."""
    archive = os.path.join(data, url.rsplit("/", 1)[1])
    root = archive.removesuffix(".tar.gz") + "-tests"
    if not os.path.isdir(root):
        if not os.path.exists(archive):
            with urllib.request.urlopen(url, timeout=120) as response, open(archive + ".part", "wb") as out:
                out.write(response.read())
            os.rename(archive + ".part", archive)
        digest = hashlib.sha256(open(archive, "rb").read()).hexdigest()
        if digest != sha256:
            sys.exit(f"{archive}: SHA-256 {digest}, expected {sha256}")
        with tarfile.open(archive) as tar:
            members = [m for m in tar.getmembers() if m.isfile() and folder in m.name]
            for member in members:
                member.name = member.name.split(folder, 1)[1]
            tar.extractall(root + ".part", members=members)
        os.rename(root + ".part", root)
    files = []
    for directory, _, names in os.walk(root):
        files += [os.path.join(directory, name) for name in names]
    return sorted(files)


def reference(path, work):
    """Pillow's thumbnail, upright, as RGB; or (None, format) when Pillow cannot read the file. Made in a
    process of its own: a hostile file can crash the reference's C code too (one here does)."""
    made = os.path.join(work, "reference.png")
    if os.path.exists(made):
        os.remove(made)
    try:
        answer = subprocess.run([sys.executable, "-W", "ignore", __file__, "--reference", path, made], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, timeout=60)
    except subprocess.TimeoutExpired:
        return None, None
    kind = answer.stdout.decode().strip() or None
    if answer.returncode != 0 or not os.path.exists(made):
        return None, kind
    with Image.open(made) as image:
        return image.convert("RGB"), kind


def pillow_thumbnail(path):
    """Pillow's thumbnail of the file at `path`, in this process: (image or None, format or None)."""
    try:
        with Image.open(path) as image:
            kind = image.format
            image.load()
            # Pillow turns a TIFF upright as it opens it, and pillow-heif applies HEIF's transformations; each
            # drops the orientation it applied, so this turns only what is left to turn. Orientation is taken
            # where ImageIO takes it (docs/thumbnails.md): a HEIF or AVIF image's from its container alone (Pillow
            # would also read XMP's tiff:Orientation), a PNG's not from ImageMagick's "Raw profile type exif".
            if kind in ("HEIF", "AVIF"):
                image.info.pop("xmp", None)
            if kind == "PNG":
                image.info.pop("Raw profile type exif", None)
            upright = ImageOps.exif_transpose(image)
            upright = eight_bits(with_alpha(upright))
            upright.thumbnail((LIMIT, LIMIT))
            return flatten(upright), kind
    except Exception:
        try:
            with Image.open(path) as image:
                return None, image.format
        except Exception:
            return None, None


def with_alpha(image):
    """A tRNS colour (PNG's transparency in an image without a palette) as an alpha channel."""
    transparent = image.info.get("transparency")
    if transparent is None or image.mode in ("RGBA", "LA", "PA"):
        return image
    if image.mode in ("I", "I;16", "I;16B"):
        alpha = image.point(lambda value: 0 if value == transparent else 255).convert("L")
        grey = eight_bits(image)
        return Image.merge("LA", (grey, alpha))
    return image.convert("RGBA")


def eight_bits(image):
    """Grey levels as 8 bits before resampling: Pillow resamples a bilevel image by its nearest pixel only, and
    converts 16- and 32-bit samples by clipping them, not scaling (every decoder of ImageIO's kind scales)."""
    if image.mode == "1":
        return image.convert("L")
    if image.mode.startswith("I;16"):
        return image.point(lambda value: value / 257, "L") if image.mode in ("I;16", "I;16L", "I;16B", "I;16N") else image.convert("L")
    if image.mode in ("I", "F"):
        low, high = image.getextrema()
        scale = 255 / max(high - low, 1) if image.mode == "F" or high > 65535 else 255 / 65535
        offset = -low if image.mode == "F" or high > 65535 else 0
        return image.point(lambda value: (value + offset) * scale).convert("L")
    return image


def flatten(image):
    """RGB, transparency over white (as the JPEG thumbnails are)."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        image = image.convert("RGBA")
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, image).convert("RGB")
    return image.convert("RGB")


def psnr(a, b):
    difference = ImageChops.difference(a, b)
    histogram = difference.histogram()
    squares = sum(count * (value % 256) ** 2 for value, count in enumerate(histogram))
    mse = squares / (a.size[0] * a.size[1] * 3)
    return 99.0 if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def ours(sharing, path, output, work):
    """Exit status (None for a hang, a negative signal number for a crash), peak resident memory in KB (GNU
    time's, of the sharing process alone), the last line of errors."""
    measured, errors = os.path.join(work, "time"), os.path.join(work, "errors")
    command = ["/usr/bin/time", "-f", "%x %M", "-o", measured, sharing, "thumbnail", path, "--max", str(LIMIT), "-o", output]
    with open(errors, "wb") as sink:
        # A session of its own, so that a hang is ended with every process in it.
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink, start_new_session=True)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return None, 0, "no answer in 20 s"
    lines = open(measured).read().strip().splitlines()
    status, peak = (int(field) for field in lines[-1].split())
    if any(line.startswith("Command terminated by signal") for line in lines):
        status = -int(lines[0].rsplit(" ", 1)[1])
    messages = open(errors, "rb").read().decode(errors="replace").strip().splitlines()
    return status, peak, messages[-1] if messages else ""


def classify(sharing, path, work):
    output = os.path.join(work, "thumbnail.png")
    if os.path.exists(output):
        os.remove(output)
    status, peak, message = ours(sharing, path, output, work)
    expected, kind = reference(path, work)
    if status is None:
        return "hang", message, peak
    if status not in (0, 1):
        return "crash", f"{'signal ' + str(-status) if status < 0 else 'exit ' + str(status)}: {message}", peak
    if peak > 100 * 1024:
        return "over 100 MB", f"{peak} KB", peak
    if status == 1 or not os.path.exists(output):
        if expected is None:
            return "both refuse", message, peak
        if kind not in OURS:
            return "not our format", kind, peak
        return "refused", message, peak
    if expected is None:
        return "both refuse", f"only we read it ({kind or 'unknown to Pillow'})", peak
    with Image.open(output) as made:
        made = flatten(made)
    (w, h), (ew, eh) = made.size, expected.size
    if abs(w - ew) > 1 or abs(h - eh) > 1:
        if abs(w - eh) <= 1 and abs(h - ew) <= 1:
            return "orientation", f"{w}x{h}, reference {ew}x{eh}", peak
        return "size", f"{w}x{h}, reference {ew}x{eh}", peak
    made = made.resize(expected.size)
    quality = psnr(made, expected)
    turned = max(psnr(made, expected.transpose(t)) for t in (Image.FLIP_LEFT_RIGHT, Image.FLIP_TOP_BOTTOM, Image.ROTATE_180)
                 if expected.transpose(t).size == made.size)
    if turned > quality + 6 and turned > 25:
        return "orientation", f"{quality:.1f} dB as is, {turned:.1f} dB turned", peak
    if quality < 25:
        return "low PSNR", f"{quality:.1f} dB", peak
    return "ok", f"{quality:.1f} dB", peak


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--reference":
        image, kind = pillow_thumbnail(sys.argv[2])
        if image is not None:
            image.save(sys.argv[3])
        print(kind or "")
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sharing = sys.argv[1]
    data = sys.argv[2] if len(sys.argv) > 2 else "/var/tmp/opensharing-bench"
    os.makedirs(data, exist_ok=True)
    suites = [(url.rsplit("/", 1)[1].removesuffix(".tar.gz"), corpus(data, url, sha256, folder)) for url, sha256, folder in SUITES]
    order = ["ok", "refused", "size", "orientation", "low PSNR", "crash", "hang", "over 100 MB", "not our format", "both refuse"]
    found = {name: [] for name in order}
    peaks = []
    with tempfile.TemporaryDirectory() as work:
        for suite, files in suites:
            for path in files:
                name, detail, peak = classify(sharing, path, work)
                found[name].append((f"{suite}/{os.path.relpath(path, os.path.join(data, suite + '-tests'))}", detail))
                peaks.append(peak)
    counts = ", ".join(f"{len(files)} of {suite}" for suite, files in suites)
    print(f"{sum(len(files) for _, files in suites)} files ({counts}); sharing thumbnail --max {LIMIT} "
          f"against Pillow {Image.__version__} with pillow-heif {pillow_heif.__version__} (libheif {pillow_heif.libheif_version()})")
    print(f"peak resident memory: at most {max(peaks) // 1024} MB")
    for name in order:
        print(f"{name:16} {len(found[name]):5}")
    for name in order[1:]:
        if found[name]:
            print(f"\n{name}:")
            for path, detail in found[name]:
                print(f"  {path}: {detail}")


if __name__ == "__main__":
    main()
