#!/usr/bin/env python3
"""Makes the files the notification service examples ship and the tests attach, all drawn here:

- Examples/Extensions/BannerRenderer/banner.jpg and BundledAttachment/banner.jpg: the same 1000 x 750 banner
  (a gradient and two shapes), JPEG quality 85.

Run from the repository root: python3 Tools/make-notification-fixtures.py (needs Pillow).
"""
import io
from PIL import Image, ImageDraw


def banner(width, height):
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(height):
        draw.line([(0, y), (width, y)], fill=(40 + y * 150 // height, 90, 200 - y * 120 // height))
    draw.ellipse([width // 8, height // 8, width // 2, height * 5 // 8], fill=(240, 200, 40))
    draw.rectangle([width * 5 // 8, height // 4, width * 7 // 8, height * 3 // 4], fill=(30, 160, 90))
    return image


data = io.BytesIO()
banner(1000, 750).save(data, "JPEG", quality=85)
for example in ("BannerRenderer", "BundledAttachment"):
    with open(f"Examples/Extensions/{example}/banner.jpg", "wb") as out:
        out.write(data.getvalue())
