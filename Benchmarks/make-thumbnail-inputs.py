#!/usr/bin/env python3
"""Writes the thumbnail benchmark's inputs into DIR: photo-like 48 MP and 12 MP JPEGs, a smooth 48 MP JPEG (the same
shapes without the noise: little for the entropy decoder, so fixed costs show), a 12 MP PNG, WebP and TIFF (LZW),
a 12 MP HEIC with and without an embedded 320 px thumbnail (heif-enc), and the same as an iPhone writes it: a
portrait photo stored turned (irot), in 512-pixel tiles, with and without its thumbnail (Tools/heif_assemble.py).
Blurred shapes plus noise, so the codecs work about as hard as on photographs. Deterministic (seeded)."""
import os, random, subprocess, sys
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tools"))
import heif_assemble

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
random.seed(7)

def photo(width, height, noise=True):
    small = Image.new("RGB", (width // 8, height // 8))
    draw = ImageDraw.Draw(small)
    for _ in range(200):
        x, y, r = random.randrange(width // 8), random.randrange(height // 8), random.randrange(5, 80)
        draw.ellipse([x - r, y - r, x + r, y + r], fill=tuple(random.randrange(256) for _ in range(3)))
    large = small.filter(ImageFilter.GaussianBlur(3)).resize((width, height), Image.BICUBIC)
    if not noise:
        return large
    return Image.blend(large, Image.effect_noise((width, height), 24).convert("RGB"), 0.12)

photo(8000, 6000).save(f"{out}/48mp.jpg", quality=90)
twelve = photo(4000, 3000)
twelve.save(f"{out}/12mp.jpg", quality=90)
twelve.save(f"{out}/12mp.png")
twelve.save(f"{out}/12mp.webp", quality=90)
twelve.save(f"{out}/12mp.tif", compression="tiff_lzw")
subprocess.run(["heif-enc", "-q", "85", "-o", f"{out}/12mp.heic", f"{out}/12mp.png"], check=True, stdout=subprocess.DEVNULL)
subprocess.run(["heif-enc", "-q", "85", "-t", "320", "-o", f"{out}/12mp-thumbnail.heic", f"{out}/12mp.png"], check=True, stdout=subprocess.DEVNULL)
portrait = photo(3024, 4032)
heif_assemble.write(f"{out}/12mp-grid-thumbnail.heic", portrait, orientation=6, tile=512, thumbnail=320, quality=85)
heif_assemble.write(f"{out}/12mp-grid.heic", portrait, orientation=6, tile=512, quality=85)
# The first picture's shapes again (the same seed), without the noise.
random.seed(7)
photo(8000, 6000, noise=False).save(f"{out}/48mp-smooth.jpg", quality=90)
