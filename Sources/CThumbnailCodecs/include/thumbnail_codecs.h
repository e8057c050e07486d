// The codec libraries Thumbnails uses (Debian's libjpeg-turbo, libpng, libwebp, libtiff, libde265, libheif), behind a
// few functions that never longjmp into Swift: libjpeg and libpng report errors by longjmp, which Swift
// cannot cross, so every call that may fail runs under a setjmp here and returns -1 with a message instead.
#ifndef THUMBNAIL_CODECS_H
#define THUMBNAIL_CODECS_H

#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>
#include <libde265/de265.h>
#include <libheif/heif.h>

#define TN_MESSAGE_SIZE 200

/// The bytes of a JPEG file read in at a time.
#define TN_JPEG_INPUT_SIZE (64 * 1024)

// MARK: JPEG (libjpeg-turbo)

typedef struct tn_jpeg tn_jpeg;

typedef struct {
    int width, height;
    int components;          // 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK
    int is_cmyk;             // the decoder's output is CMYK (Adobe's inverted form when adobe_inverted)
    int adobe_inverted;
    int progressive;
    long coefficient_bytes;  // memory a progressive decode holds for the whole image's coefficients
    const uint8_t *exif;     // the APP1 Exif segment's payload after "Exif\0\0", or NULL
    size_t exif_length;
} tn_jpeg_info;

/// Opens a JPEG file and reads its header; NULL with `message` set when it cannot.
tn_jpeg *tn_jpeg_open(const char *path, long offset, tn_jpeg_info *info, char message[TN_MESSAGE_SIZE]);
/// Starts decoding at scale `numerator`/8 into 8-bit gray, RGB or CMYK; `max_memory` bounds libjpeg's own
/// allocations. Returns 0 and the scaled size, or -1.
int tn_jpeg_start(tn_jpeg *jpeg, int numerator, long max_memory, int *width, int *height, int *channels,
                  char message[TN_MESSAGE_SIZE]);
/// Reads up to `rows` rows into `buffer` (rows of width × channels bytes). Returns the rows read, or -1.
int tn_jpeg_read(tn_jpeg *jpeg, uint8_t *buffer, int rows, char message[TN_MESSAGE_SIZE]);
void tn_jpeg_close(tn_jpeg *jpeg);

/// Writes `pixels` (rows of width × channels bytes: gray, RGB, or RGBA laid over white) as a baseline JPEG of
/// `quality` (1–100), with `exif` (an APP1 payload, "Exif\0\0" and a TIFF structure) when not NULL. 0, or -1.
int tn_jpeg_write(const char *path, const uint8_t *pixels, int width, int height, int channels, int quality,
                  const uint8_t *exif, int exif_length, char message[TN_MESSAGE_SIZE]);

// MARK: PNG (libpng)

typedef struct tn_png tn_png;

typedef struct {
    int width, height;
    int has_alpha;           // after expanding tRNS
    int interlaced;          // Adam7: rows arrive pass by pass, each a sparse subset
    const uint8_t *exif;     // the eXIf chunk, or NULL
    size_t exif_length;
} tn_png_info;

tn_png *tn_png_open(const char *path, tn_png_info *info, char message[TN_MESSAGE_SIZE]);
/// Reads the next row as 8-bit RGB or RGBA (per `has_alpha`): its pass (0 when not interlaced, else 1–7)
/// and its row within the pass, and how many pixels it has. Returns 1, 0 at the end, or -1.
int tn_png_read_row(tn_png *png, uint8_t *buffer, int *pass, int *row, int *pixels, char message[TN_MESSAGE_SIZE]);
void tn_png_close(tn_png *png);

/// Writes `pixels` (rows of width × channels bytes: gray, RGB or RGBA) as a PNG, with an eXIf chunk of `exif`
/// (a TIFF structure) when not NULL. 0, or -1.
int tn_png_write(const char *path, const uint8_t *pixels, int width, int height, int channels,
                 const uint8_t *exif, int exif_length, char message[TN_MESSAGE_SIZE]);

// MARK: TIFF (libtiff)

typedef struct tn_tiff tn_tiff;

typedef struct {
    int unsupported;         // on failure: libtiff is missing, or cannot turn this kind of TIFF into RGBA
    int width, height;
    int has_alpha;           // an alpha sample, associated or not
    int band_rows;           // the rows libtiff decodes at once: a strip's, or a row of tiles'
    long band_bytes;         // the memory libtiff holds while it decodes them
} tn_tiff_info;

/// Opens a TIFF file's first image; libtiff allocates at most `max_allocation` bytes at once. NULL with
/// `message` set when it cannot (unreadable, or a kind of TIFF libtiff cannot turn into RGBA).
tn_tiff *tn_tiff_open(const char *path, long max_allocation, tn_tiff_info *info, char message[TN_MESSAGE_SIZE]);
/// Reads rows [row, row + rows) as 8-bit RGBA, not premultiplied, as stored (the orientation not applied).
/// 0, or -1.
int tn_tiff_read(tn_tiff *tiff, int row, int rows, uint8_t *rgba, char message[TN_MESSAGE_SIZE]);
void tn_tiff_close(tn_tiff *tiff);

// MARK: HEIF (libheif, loaded when first needed)

/// The libheif functions Thumbnails calls, for the HEIF images it does not decode itself with libde265.
/// libheif brings HEVC and AV1 codecs (libde265, x265, dav1d, aom) whose loading alone costs every process
/// about 3 MB of memory, so it is opened only when such an image comes.
typedef struct {
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    struct heif_error (*context_read_from_file)(struct heif_context *, const char *, const struct heif_reading_options *);
    struct heif_error (*context_get_primary_image_handle)(struct heif_context *, struct heif_image_handle **);
    void (*image_handle_release)(const struct heif_image_handle *);
    int (*image_handle_get_width)(const struct heif_image_handle *);
    int (*image_handle_get_height)(const struct heif_image_handle *);
    int (*image_handle_has_alpha_channel)(const struct heif_image_handle *);
    struct heif_decoding_options *(*decoding_options_alloc)(void);
    void (*decoding_options_free)(struct heif_decoding_options *);
    struct heif_error (*decode_image)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                      enum heif_chroma, const struct heif_decoding_options *);
    void (*image_release)(const struct heif_image *);
    const uint8_t *(*image_get_plane_readonly)(const struct heif_image *, enum heif_channel, int *);
    int (*image_get_width)(const struct heif_image *, enum heif_channel);
    int (*image_get_height)(const struct heif_image *, enum heif_channel);
} tn_heif_api;

/// libheif's functions, or NULL when libheif.so.1 cannot be loaded.
const tn_heif_api *tn_heif(void);

#endif
