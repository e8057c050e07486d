#include "thumbnail_codecs.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include <math.h>
#include <png.h>
#include <stdarg.h>
#include <tiffio.h>

// Opens `path` for reading and allocates a zeroed handle of `size` bytes to read it with; NULL with `message`
// set, and nothing left open, when either fails.
static void *tn_open(const char *path, size_t size, FILE **file, char message[TN_MESSAGE_SIZE]) {
    *file = fopen(path, "rb");
    if (!*file) {
        snprintf(message, TN_MESSAGE_SIZE, "cannot open the file");
        return NULL;
    }
    void *handle = calloc(1, size);
    if (!handle) {
        fclose(*file);
        snprintf(message, TN_MESSAGE_SIZE, "out of memory");
    }
    return handle;
}

// MARK: JPEG

struct tn_error_manager {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
};

static void tn_jpeg_error_exit(j_common_ptr common) {
    struct tn_error_manager *errors = (struct tn_error_manager *)common->err;
    if (errors->message) {
        char text[JMSG_LENGTH_MAX];
        (*common->err->format_message)(common, text);
        snprintf(errors->message, TN_MESSAGE_SIZE, "%s", text);
    }
    longjmp(errors->jump, 1);
}

// Warnings (a corrupt but decodable stream) are not errors: the decoder goes on, as viewers do.
static void tn_jpeg_output_message(j_common_ptr common) { (void)common; }

// The compressed bytes, read in TN_JPEG_INPUT_SIZE (64 KB) at a time. libjpeg's stdio source reads 4 KB, and libjpeg-turbo
// decodes an MCU on its fast path only while a whole MCU's worth of bytes at most (3 KB for 4:2:0) is
// buffered: with 4 KB most MCUs fell to the slow path, which refills the bit buffer byte by byte.
struct tn_jpeg_source {
    struct jpeg_source_mgr manager;
    FILE *file;
    JOCTET buffer[TN_JPEG_INPUT_SIZE];
};

static void tn_jpeg_source_start(j_decompress_ptr info) { (void)info; }

static boolean tn_jpeg_source_fill(j_decompress_ptr info) {
    struct tn_jpeg_source *source = (struct tn_jpeg_source *)info->src;
    size_t count = fread(source->buffer, 1, sizeof source->buffer, source->file);
    if (count == 0) {
        // The stream ends early: an end-of-image marker, as libjpeg's own sources give, so that what was
        // decoded stands (and the warning goes where warnings go).
        WARNMS(info, JWRN_JPEG_EOF);
        source->buffer[0] = 0xFF;
        source->buffer[1] = JPEG_EOI;
        count = 2;
    }
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = count;
    return TRUE;
}

static void tn_jpeg_source_skip(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *manager = info->src;
    if (count <= 0) return;
    while (count > (long)manager->bytes_in_buffer) {
        count -= (long)manager->bytes_in_buffer;
        (void)tn_jpeg_source_fill(info);
    }
    manager->next_input_byte += count;
    manager->bytes_in_buffer -= (size_t)count;
}

static void tn_jpeg_source_end(j_decompress_ptr info) { (void)info; }

struct tn_jpeg {
    struct jpeg_decompress_struct info;
    struct tn_error_manager errors;
    struct tn_jpeg_source source;
    FILE *file;
    int started;
};

// The JPEG stream that starts `offset` bytes into the file at `path` (0, or inside an old-style JPEG TIFF).
tn_jpeg *tn_jpeg_open(const char *path, long offset, tn_jpeg_info *info, char message[TN_MESSAGE_SIZE]) {
    FILE *file;
    tn_jpeg *jpeg = tn_open(path, sizeof(tn_jpeg), &file, message);
    if (!jpeg) return NULL;
    jpeg->file = file;
    if (fseek(file, offset, SEEK_SET) != 0) {
        snprintf(message, TN_MESSAGE_SIZE, "cannot read from byte %ld", offset);
        tn_jpeg_close(jpeg);
        return NULL;
    }
    jpeg->info.err = jpeg_std_error(&jpeg->errors.manager);
    jpeg->errors.manager.error_exit = tn_jpeg_error_exit;
    jpeg->errors.manager.output_message = tn_jpeg_output_message;
    jpeg->errors.message = message;
    if (setjmp(jpeg->errors.jump)) {
        tn_jpeg_close(jpeg);
        return NULL;
    }
    jpeg_create_decompress(&jpeg->info);
    jpeg->source.file = file;
    jpeg->source.manager.init_source = tn_jpeg_source_start;
    jpeg->source.manager.fill_input_buffer = tn_jpeg_source_fill;
    jpeg->source.manager.skip_input_data = tn_jpeg_source_skip;
    jpeg->source.manager.resync_to_restart = jpeg_resync_to_restart;
    jpeg->source.manager.term_source = tn_jpeg_source_end;
    jpeg->info.src = &jpeg->source.manager;
    jpeg_save_markers(&jpeg->info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&jpeg->info, TRUE);

    memset(info, 0, sizeof(*info));
    info->width = (int)jpeg->info.image_width;
    info->height = (int)jpeg->info.image_height;
    info->components = jpeg->info.num_components;
    info->is_cmyk = jpeg->info.jpeg_color_space == JCS_CMYK || jpeg->info.jpeg_color_space == JCS_YCCK;
    info->adobe_inverted = jpeg->info.saw_Adobe_marker;
    info->progressive = jpeg->info.progressive_mode;
    long blocks = 0;
    for (int c = 0; c < jpeg->info.num_components; c++) {
        jpeg_component_info *component = &jpeg->info.comp_info[c];
        long across = ((long)jpeg->info.image_width * component->h_samp_factor + 8L * jpeg->info.max_h_samp_factor - 1)
                      / (8L * jpeg->info.max_h_samp_factor);
        long down = ((long)jpeg->info.image_height * component->v_samp_factor + 8L * jpeg->info.max_v_samp_factor - 1)
                    / (8L * jpeg->info.max_v_samp_factor);
        blocks += (across + component->h_samp_factor) * (down + component->v_samp_factor);
    }
    info->coefficient_bytes = blocks * (long)sizeof(JBLOCK);
    for (jpeg_saved_marker_ptr marker = jpeg->info.marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 && memcmp(marker->data, "Exif\0\0", 6) == 0) {
            info->exif = marker->data + 6;
            info->exif_length = marker->data_length - 6;
            break;
        }
    }
    return jpeg;
}

int tn_jpeg_start(tn_jpeg *jpeg, int numerator, long max_memory, int *width, int *height, int *channels,
                  char message[TN_MESSAGE_SIZE]) {
    jpeg->errors.message = message;
    if (setjmp(jpeg->errors.jump)) return -1;
    jpeg->info.scale_num = (unsigned int)numerator;
    jpeg->info.scale_denom = 8;
    jpeg->info.dct_method = JDCT_ISLOW;
    jpeg->info.mem->max_memory_to_use = max_memory;
    switch (jpeg->info.jpeg_color_space) {
    case JCS_GRAYSCALE: jpeg->info.out_color_space = JCS_GRAYSCALE; break;
    case JCS_CMYK: case JCS_YCCK: jpeg->info.out_color_space = JCS_CMYK; break;
    default: jpeg->info.out_color_space = JCS_RGB; break;
    }
    jpeg_start_decompress(&jpeg->info);
    jpeg->started = 1;
    *width = (int)jpeg->info.output_width;
    *height = (int)jpeg->info.output_height;
    *channels = jpeg->info.output_components;
    return 0;
}

int tn_jpeg_read(tn_jpeg *jpeg, uint8_t *buffer, int rows, char message[TN_MESSAGE_SIZE]) {
    jpeg->errors.message = message;
    if (setjmp(jpeg->errors.jump)) return -1;
    int read = 0;
    size_t stride = (size_t)jpeg->info.output_width * (size_t)jpeg->info.output_components;
    while (read < rows && jpeg->info.output_scanline < jpeg->info.output_height) {
        JSAMPROW row = buffer + (size_t)read * stride;
        read += (int)jpeg_read_scanlines(&jpeg->info, &row, 1);
    }
    return read;
}

void tn_jpeg_close(tn_jpeg *jpeg) {
    if (!jpeg) return;
    // Destroying never fails; an error here would longjmp to a stale buffer, so none is reported.
    jpeg->errors.message = NULL;
    if (setjmp(jpeg->errors.jump) == 0) jpeg_destroy_decompress(&jpeg->info);
    if (jpeg->file) fclose(jpeg->file);
    free(jpeg);
}

int tn_jpeg_write(const char *path, const uint8_t *pixels, int width, int height, int channels, int quality,
                  const uint8_t *exif, int exif_length, char message[TN_MESSAGE_SIZE]) {
    FILE *volatile file = fopen(path, "wb");
    if (!file) {
        snprintf(message, TN_MESSAGE_SIZE, "cannot create the file");
        return -1;
    }
    // RGBA is laid over white a row at a time, into this.
    JSAMPLE *volatile row_buffer = channels == 4 ? malloc((size_t)width * 3) : NULL;
    if (channels == 4 && !row_buffer) {
        fclose(file);
        snprintf(message, TN_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    struct jpeg_compress_struct info;
    struct tn_error_manager errors;
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = tn_jpeg_error_exit;
    errors.manager.output_message = tn_jpeg_output_message;
    errors.message = message;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        fclose(file);
        free(row_buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_stdio_dest(&info, file);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = channels == 1 ? 1 : 3;
    info.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    if (exif && exif_length > 0) jpeg_write_marker(&info, JPEG_APP0 + 1, exif, (unsigned int)exif_length);
    while (info.next_scanline < info.image_height) {
        const uint8_t *source = pixels + (size_t)info.next_scanline * (size_t)width * (size_t)channels;
        JSAMPROW row = (JSAMPROW)source;
        if (channels == 4) {
            for (int x = 0; x < width; x++) {
                int alpha = source[x * 4 + 3];
                for (int c = 0; c < 3; c++) row_buffer[x * 3 + c] = (JSAMPLE)((source[x * 4 + c] * alpha + 255 * (255 - alpha) + 127) / 255);
            }
            row = row_buffer;
        }
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    free(row_buffer);
    if (fclose(file) != 0) {
        snprintf(message, TN_MESSAGE_SIZE, "cannot write the file");
        return -1;
    }
    return 0;
}

// MARK: PNG

struct tn_png {
    png_structp png;
    png_infop info;
    FILE *file;
    char *message;
    int passes, pass, row, rows_in_pass, width, height, interlaced;
};

static void tn_png_error(png_structp png, png_const_charp text) {
    char *message = png_get_error_ptr(png);
    if (message) snprintf(message, TN_MESSAGE_SIZE, "%s", text);
    png_longjmp(png, 1);
}

static void tn_png_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

void tn_png_close(tn_png *png) {
    if (!png) return;
    if (png->png) png_destroy_read_struct(&png->png, &png->info, NULL);
    if (png->file) fclose(png->file);
    free(png);
}

static int tn_png_pass_rows(int height, int pass) {
    // PNG_PASS_ROWS, for passes numbered 0–6.
    return (int)PNG_PASS_ROWS((png_uint_32)height, pass);
}

tn_png *tn_png_open(const char *path, tn_png_info *info, char message[TN_MESSAGE_SIZE]) {
    FILE *file;
    tn_png *png = tn_open(path, sizeof(tn_png), &file, message);
    if (!png) return NULL;
    png->file = file;
    png->message = message;
    png->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, message, tn_png_error, tn_png_warning);
    if (!png->png || !(png->info = png_create_info_struct(png->png))) {
        snprintf(message, TN_MESSAGE_SIZE, "out of memory");
        tn_png_close(png);
        return NULL;
    }
    if (setjmp(png_jmpbuf(png->png))) {
        tn_png_close(png);
        return NULL;
    }
    png_init_io(png->png, file);
    // The caller checks dimensions against its own limits; libpng's 1,000,000-pixel row limit stays.
    png_read_info(png->png, png->info);
    png_uint_32 width = 0, height = 0;
    int depth = 0, color = 0, interlace = 0;
    png_get_IHDR(png->png, png->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    int has_alpha = (color & PNG_COLOR_MASK_ALPHA) || png_get_valid(png->png, png->info, PNG_INFO_tRNS);
    if (depth == 16) png_set_strip_16(png->png);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png->png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png->png);
    if (png_get_valid(png->png, png->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png->png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png->png);
    // Without png_set_interlace_handling, an interlaced image's rows come pass by pass, each holding only
    // that pass's pixels: the caller places them, and needs no buffer of the whole image.
    png_read_update_info(png->png, png->info);

    memset(info, 0, sizeof(*info));
    info->width = (int)width;
    info->height = (int)height;
    info->has_alpha = has_alpha ? 1 : 0;
    info->interlaced = interlace == PNG_INTERLACE_ADAM7;
#ifdef PNG_eXIf_SUPPORTED
    png_bytep exif = NULL;
    png_uint_32 exif_length = 0;
    if (png_get_eXIf_1(png->png, png->info, &exif_length, &exif) && exif) {
        info->exif = exif;
        info->exif_length = exif_length;
    }
#endif
    png->width = (int)width;
    png->height = (int)height;
    png->interlaced = info->interlaced;
    png->passes = info->interlaced ? 7 : 1;
    png->pass = 0;
    png->row = 0;
    png->rows_in_pass = info->interlaced ? tn_png_pass_rows(png->height, 0) : png->height;
    return png;
}

int tn_png_read_row(tn_png *png, uint8_t *buffer, int *pass, int *row, int *pixels, char message[TN_MESSAGE_SIZE]) {
    png_set_error_fn(png->png, message, tn_png_error, tn_png_warning);
    // Passes without rows or columns (tiny images) have no rows in the stream.
    while (png->pass < png->passes &&
           (png->row >= png->rows_in_pass || (png->interlaced && PNG_PASS_COLS((png_uint_32)png->width, png->pass) == 0))) {
        png->pass += 1;
        png->row = 0;
        png->rows_in_pass = png->pass < png->passes ? tn_png_pass_rows(png->height, png->pass) : 0;
    }
    if (png->pass >= png->passes) return 0;
    if (setjmp(png_jmpbuf(png->png))) return -1;
    png_read_row(png->png, buffer, NULL);
    *pass = png->interlaced ? png->pass + 1 : 0;
    *row = png->row;
    *pixels = png->interlaced ? (int)PNG_PASS_COLS((png_uint_32)png->width, png->pass) : png->width;
    png->row += 1;
    return 1;
}

int tn_png_write(const char *path, const uint8_t *pixels, int width, int height, int channels,
                 const uint8_t *exif, int exif_length, char message[TN_MESSAGE_SIZE]) {
    FILE *volatile file = fopen(path, "wb");
    if (!file) {
        snprintf(message, TN_MESSAGE_SIZE, "cannot create the file");
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, tn_png_error, tn_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        if (png) png_destroy_write_struct(&png, NULL);
        fclose(file);
        snprintf(message, TN_MESSAGE_SIZE, "out of memory");
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(file);
        return -1;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (exif && exif_length > 0) png_set_eXIf_1(png, info, (png_uint_32)exif_length, (png_bytep)exif);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) png_write_row(png, pixels + (size_t)y * (size_t)width * (size_t)channels);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (fclose(file) != 0) {
        snprintf(message, TN_MESSAGE_SIZE, "cannot write the file");
        return -1;
    }
    return 0;
}

// MARK: Libraries opened when first needed

// libtiff and libheif bring libraries of their own (libtiff: Lerc, JBIG, zstd, lzma; libheif: codecs) whose
// loading costs every process memory — 0.9 and 2.9 MB — so each is opened only when its kind of file comes.
// Fills `slots` with the functions `names` of `library`; 1, or 0 when it or one of them is missing.
static int tn_load(const char *library, const char *const names[], size_t count, void **slots) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) return 0;
    for (size_t index = 0; index < count; index++) {
        if (!(slots[index] = dlsym(handle, names[index]))) return 0;
    }
    return 1;
}

// MARK: TIFF

// The libtiff functions used, declared by libtiff's own prototypes.
static struct {
    __typeof__(&TIFFOpenOptionsAlloc) OpenOptionsAlloc;
    __typeof__(&TIFFOpenOptionsFree) OpenOptionsFree;
    __typeof__(&TIFFOpenOptionsSetErrorHandlerExtR) OpenOptionsSetErrorHandlerExtR;
    __typeof__(&TIFFOpenOptionsSetWarningHandlerExtR) OpenOptionsSetWarningHandlerExtR;
    __typeof__(&TIFFOpenOptionsSetMaxSingleMemAlloc) OpenOptionsSetMaxSingleMemAlloc;
    __typeof__(&TIFFOpenExt) OpenExt;
    __typeof__(&TIFFClose) Close;
    __typeof__(&TIFFRGBAImageOK) RGBAImageOK;
    __typeof__(&TIFFRGBAImageBegin) RGBAImageBegin;
    __typeof__(&TIFFRGBAImageGet) RGBAImageGet;
    __typeof__(&TIFFRGBAImageEnd) RGBAImageEnd;
    __typeof__(&TIFFGetField) GetField;
    __typeof__(&TIFFGetFieldDefaulted) GetFieldDefaulted;
    __typeof__(&TIFFIsTiled) IsTiled;
    __typeof__(&TIFFTileSize64) TileSize64;
    __typeof__(&TIFFStripSize64) StripSize64;
    __typeof__(&TIFFScanlineSize64) ScanlineSize64;
    __typeof__(&TIFFReadScanline) ReadScanline;
    __typeof__(&TIFFNumberOfStrips) NumberOfStrips;
} tn_libtiff;
static int tn_libtiff_loaded;
static pthread_once_t tn_libtiff_once = PTHREAD_ONCE_INIT;

static void tn_libtiff_load(void) {
    static const char *const names[] = {
        "TIFFOpenOptionsAlloc", "TIFFOpenOptionsFree", "TIFFOpenOptionsSetErrorHandlerExtR",
        "TIFFOpenOptionsSetWarningHandlerExtR", "TIFFOpenOptionsSetMaxSingleMemAlloc", "TIFFOpenExt", "TIFFClose",
        "TIFFRGBAImageOK", "TIFFRGBAImageBegin", "TIFFRGBAImageGet", "TIFFRGBAImageEnd", "TIFFGetField",
        "TIFFGetFieldDefaulted", "TIFFIsTiled", "TIFFTileSize64", "TIFFStripSize64", "TIFFScanlineSize64",
        "TIFFReadScanline", "TIFFNumberOfStrips",
    };
    _Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(tn_libtiff) / sizeof(void *), "one name per function");
    tn_libtiff_loaded = tn_load("libtiff.so.6", names, sizeof(names) / sizeof(names[0]), (void **)&tn_libtiff);
}

struct tn_tiff {
    TIFF *tif;
    TIFFRGBAImage image;
    char last_error[TN_MESSAGE_SIZE];
    // Rows read one at a time (see tn_tiff_rows), when `rows` is not TN_TIFF_RGBA: the samples' bits, the
    // photometric interpretation, and a row's buffer.
    enum { TN_TIFF_RGBA, TN_TIFF_GRAY, TN_TIFF_LAB, TN_TIFF_RANGE, TN_TIFF_CMYK } rows;
    int bits, photometric, format, samples;
    uint8_t *scanline;
    // For TN_TIFF_RANGE: the lowest and highest sample, found in a first pass.
    double low, high;
};

// The largest strip's stored (compressed) size: libtiff reads a strip's bytes whole before decoding rows of it.
static uint64_t tn_tiff_largest_strip(TIFF *tif) {
    uint64_t *counts = NULL, largest = 0;
    if (!tn_libtiff.GetField(tif, TIFFTAG_STRIPBYTECOUNTS, &counts) || !counts) return 0;
    uint32_t strips = tn_libtiff.NumberOfStrips(tif);
    for (uint32_t index = 0; index < strips; index++) {
        if (counts[index] > largest) largest = counts[index];
    }
    return largest;
}

// The images read a row at a time (TIFFReadScanline), in strips, which libtiff hands over a row at a time
// however large its strips are (a fax page of G4 is often one strip of the whole page):
// - grey: one unsigned integer sample per pixel, of 1 to 32 bits, black or white being zero — the RGBA
//   interface takes only 1, 2, 4, 8 and 16 bits, and a strip whole;
// - CIELab of 8 bits, which the RGBA interface turns into RGB for a D50 white unadapted to sRGB's D65, so
//   that Lab's white comes out (255, 252, 222);
// - CMYK of 16 bits (any samples after the fourth left out), which the RGBA interface refuses.
static int tn_tiff_rows(TIFF *tif, uint16_t *bits, uint16_t *photometric, uint16_t *format, uint16_t *samples) {
    uint16_t planar = PLANARCONFIG_CONTIG, inks = INKSET_CMYK;
    *samples = 1;
    *format = SAMPLEFORMAT_UINT;
    tn_libtiff.GetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, samples);
    tn_libtiff.GetFieldDefaulted(tif, TIFFTAG_INKSET, &inks);
    tn_libtiff.GetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, bits);
    tn_libtiff.GetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, format);
    tn_libtiff.GetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    if (tn_libtiff.IsTiled(tif)) return TN_TIFF_RGBA;
    // 32-bit signed or floating-point grey, which the RGBA interface refuses (a photometric interpretation is
    // often left out of such files). Signed samples of 8 and 16 bits it reads.
    if (*samples == 1 && ((*format == SAMPLEFORMAT_INT && *bits == 32)
                         || (*format == SAMPLEFORMAT_IEEEFP && (*bits == 32 || *bits == 64)))) {
        if (!tn_libtiff.GetField(tif, TIFFTAG_PHOTOMETRIC, photometric)) *photometric = PHOTOMETRIC_MINISBLACK;
        if (*photometric == PHOTOMETRIC_MINISWHITE || *photometric == PHOTOMETRIC_MINISBLACK) return TN_TIFF_RANGE;
    }
    if (!tn_libtiff.GetField(tif, TIFFTAG_PHOTOMETRIC, photometric) || *format != SAMPLEFORMAT_UINT) return TN_TIFF_RGBA;
    if (*samples == 1 && *bits >= 1 && *bits <= 32 && (*photometric == PHOTOMETRIC_MINISWHITE || *photometric == PHOTOMETRIC_MINISBLACK)) {
        return TN_TIFF_GRAY;
    }
    if (*samples == 3 && *bits == 8 && planar == PLANARCONFIG_CONTIG
        && (*photometric == PHOTOMETRIC_CIELAB || *photometric == PHOTOMETRIC_ICCLAB)) {
        return TN_TIFF_LAB;
    }
    if (*samples >= 4 && *bits == 16 && planar == PLANARCONFIG_CONTIG && *photometric == PHOTOMETRIC_SEPARATED && inks == INKSET_CMYK) {
        return TN_TIFF_CMYK;
    }
    return TN_TIFF_RGBA;
}

// libtiff reports through handlers: the first error of a call is kept; warnings are not errors.
static int tn_tiff_error(TIFF *tif, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tif;
    (void)module;
    struct tn_tiff *tiff = user_data;
    if (!tiff->last_error[0]) vsnprintf(tiff->last_error, TN_MESSAGE_SIZE, format, arguments);
    return 1;
}

static int tn_tiff_warning(TIFF *tif, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tif, (void)user_data, (void)module, (void)format, (void)arguments;
    return 1;
}

static int tn_tiff_range(tn_tiff *tiff, uint32_t height);

tn_tiff *tn_tiff_open(const char *path, long max_allocation, tn_tiff_info *info, char message[TN_MESSAGE_SIZE]) {
    pthread_once(&tn_libtiff_once, tn_libtiff_load);
    if (!tn_libtiff_loaded) {
        info->unsupported = 1;
        snprintf(message, TN_MESSAGE_SIZE, "TIFF needs libtiff (Debian's libtiff6), which cannot be loaded");
        return NULL;
    }
    struct tn_tiff *tiff = calloc(1, sizeof *tiff);
    if (!tiff) {
        snprintf(message, TN_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    TIFFOpenOptions *options = tn_libtiff.OpenOptionsAlloc();
    tn_libtiff.OpenOptionsSetErrorHandlerExtR(options, tn_tiff_error, tiff);
    tn_libtiff.OpenOptionsSetWarningHandlerExtR(options, tn_tiff_warning, tiff);
    tn_libtiff.OpenOptionsSetMaxSingleMemAlloc(options, max_allocation);
    tiff->tif = tn_libtiff.OpenExt(path, "rm", options);  // "m": read, not memory-mapped, so only what is read is resident
    tn_libtiff.OpenOptionsFree(options);
    uint16_t bits = 0, photometric = 0, format = 0, samples = 1;
    if (tiff->tif && (tiff->rows = tn_tiff_rows(tiff->tif, &bits, &photometric, &format, &samples)) != TN_TIFF_RGBA) {
        uint32_t width = 0, height = 0;
        tn_libtiff.GetField(tiff->tif, TIFFTAG_IMAGEWIDTH, &width);
        tn_libtiff.GetField(tiff->tif, TIFFTAG_IMAGELENGTH, &height);
        uint64_t line = tn_libtiff.ScanlineSize64(tiff->tif);
        uint64_t strip = tn_tiff_largest_strip(tiff->tif);
        if (width && height && line && line <= (uint64_t)max_allocation) tiff->scanline = malloc((size_t)line);
        if (!tiff->scanline) {
            snprintf(message, TN_MESSAGE_SIZE, "%s", tiff->last_error[0] ? tiff->last_error : "its rows cannot be read");
            tn_libtiff.Close(tiff->tif);
            free(tiff);
            return NULL;
        }
        tiff->bits = bits;
        tiff->photometric = photometric;
        tiff->format = format;
        tiff->samples = samples;
        tiff->image.width = width;
        tiff->image.height = height;
        if (tiff->rows == TN_TIFF_RANGE && tn_tiff_range(tiff, height) != 0) {
            snprintf(message, TN_MESSAGE_SIZE, "%s", tiff->last_error[0] ? tiff->last_error : "a row cannot be decoded");
            free(tiff->scanline);
            tn_libtiff.Close(tiff->tif);
            free(tiff);
            return NULL;
        }
        info->width = (int)width;
        info->height = (int)height;
        info->has_alpha = 0;
        info->band_rows = 1;
        // libtiff holds the strip's stored bytes while it decodes rows of it, and one row.
        info->band_bytes = (long)(line + strip);
        return tiff;
    }
    char text[1024] = "";
    if (!tiff->tif || !tn_libtiff.RGBAImageOK(tiff->tif, text) || !tn_libtiff.RGBAImageBegin(&tiff->image, tiff->tif, 0, text)) {
        info->unsupported = text[0] != 0;
        snprintf(message, TN_MESSAGE_SIZE, "%s", text[0] ? text : tiff->last_error[0] ? tiff->last_error : "cannot open it");
        if (tiff->tif) tn_libtiff.Close(tiff->tif);
        free(tiff);
        return NULL;
    }
    // Asking for the orientation the file has: libtiff flips nothing, the resampler turns the image.
    tiff->image.req_orientation = tiff->image.orientation;
    info->width = (int)tiff->image.width;
    info->height = (int)tiff->image.height;
    info->has_alpha = tiff->image.alpha != 0;
    uint16_t planar = PLANARCONFIG_CONTIG;
    tn_libtiff.GetFieldDefaulted(tiff->tif, TIFFTAG_PLANARCONFIG, &planar);
    long planes = planar == PLANARCONFIG_SEPARATE ? tiff->image.samplesperpixel : 1;
    uint32_t rows = tiff->image.height;
    if (tn_libtiff.IsTiled(tiff->tif)) {
        tn_libtiff.GetField(tiff->tif, TIFFTAG_TILELENGTH, &rows);
        info->band_bytes = (long)tn_libtiff.TileSize64(tiff->tif) * planes;
    } else {
        tn_libtiff.GetFieldDefaulted(tiff->tif, TIFFTAG_ROWSPERSTRIP, &rows);
        info->band_bytes = (long)tn_libtiff.StripSize64(tiff->tif) * planes;
    }
    info->band_rows = (int)(rows == 0 || rows > tiff->image.height ? tiff->image.height : rows);
    return tiff;
}

static unsigned tn_unpremultiply(unsigned value, unsigned alpha) {
    unsigned result = (value * 255 + alpha / 2) / alpha;
    return result > 255 ? 255 : result;
}

// Sample `x` of the row just read, signed or floating point, as a double (NaN for a float that is not a number).
static double tn_tiff_sample(const tn_tiff *tiff, uint32_t x) {
    const uint8_t *row = tiff->scanline;
    if (tiff->format == SAMPLEFORMAT_IEEEFP) {
        return tiff->bits == 32 ? ((const float *)row)[x] : ((const double *)row)[x];
    }
    return ((const int32_t *)row)[x];
}

// Signed and floating-point samples have no fixed range, so a first pass over the rows finds the lowest and
// highest, and the rows are scaled between them (as Pillow and image viewers show such images).
static int tn_tiff_range(tn_tiff *tiff, uint32_t height) {
    double low = INFINITY, high = -INFINITY;
    for (uint32_t y = 0; y < height; y++) {
        if (tn_libtiff.ReadScanline(tiff->tif, tiff->scanline, y, 0) < 0) return -1;
        for (uint32_t x = 0; x < tiff->image.width; x++) {
            double value = tn_tiff_sample(tiff, x);
            if (isnan(value)) continue;
            if (value < low) low = value;
            if (value > high) high = value;
        }
    }
    tiff->low = isfinite(low) ? low : 0;
    tiff->high = isfinite(high) && high > tiff->low ? high : tiff->low + 1;
    return 0;
}

// sRGB's transfer function, of a linear value, as 0–255.
static uint8_t tn_srgb(double linear) {
    double value = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055;
    return (uint8_t)lround(fmin(fmax(value, 0), 1) * 255);
}

// CIE L*a*b* to sRGB, Lab taken relative to sRGB's own white (D65), so that Lab's neutrals stay neutral and its
// white is white: the adaptation a viewer makes from the file's D50 white.
static void tn_lab_to_rgb(double lightness, double a, double b, uint8_t *rgb) {
    double fy = (lightness + 16) / 116, fx = fy + a / 500, fz = fy - b / 200;
    double f[3] = {fx, fy, fz}, xyz[3];
    const double white[3] = {0.95047, 1.0, 1.08883};
    for (int index = 0; index < 3; index++) {
        double t = f[index];
        xyz[index] = white[index] * (t > 6.0 / 29 ? t * t * t : 3 * (6.0 / 29) * (6.0 / 29) * (t - 4.0 / 29));
    }
    rgb[0] = tn_srgb(3.2406 * xyz[0] - 1.5372 * xyz[1] - 0.4986 * xyz[2]);
    rgb[1] = tn_srgb(-0.9689 * xyz[0] + 1.8758 * xyz[1] + 0.0415 * xyz[2]);
    rgb[2] = tn_srgb(0.0557 * xyz[0] - 0.2040 * xyz[1] + 1.0570 * xyz[2]);
}

// Rows one at a time: grey samples scaled to 8 bits by their depth (the top 8 of more bits, a spread of fewer),
// white where zero is white; Lab (a* and b* signed in CIELab, offset by 128 in ICCLab) turned into sRGB; CMYK
// as libtiff's RGBA interface and Pillow turn it, each of red, green and blue (1 − C)(1 − K) and so on.
static int tn_tiff_read_rows(tn_tiff *tiff, int row, int rows, uint8_t *rgba, char message[TN_MESSAGE_SIZE]) {
    uint32_t width = tiff->image.width;
    int bits = tiff->bits;
    for (int y = 0; y < rows; y++) {
        if (tn_libtiff.ReadScanline(tiff->tif, tiff->scanline, (uint32_t)(row + y), 0) < 0) {
            snprintf(message, TN_MESSAGE_SIZE, "%s", tiff->last_error[0] ? tiff->last_error : "a row cannot be decoded");
            return -1;
        }
        uint8_t *out = rgba + (size_t)y * width * 4;
        if (tiff->rows == TN_TIFF_RANGE) {
            for (uint32_t x = 0; x < width; x++) {
                double value = tn_tiff_sample(tiff, x);
                double scaled = isnan(value) ? 0 : fmin(fmax((value - tiff->low) / (tiff->high - tiff->low), 0), 1) * 255;
                uint8_t level = (uint8_t)lround(tiff->photometric == PHOTOMETRIC_MINISWHITE ? 255 - scaled : scaled);
                out[x * 4] = out[x * 4 + 1] = out[x * 4 + 2] = level;
                out[x * 4 + 3] = 255;
            }
            continue;
        }
        if (tiff->rows == TN_TIFF_CMYK) {
            const uint16_t *samples = (const uint16_t *)tiff->scanline;  // host order, as libtiff gives them
            for (uint32_t x = 0; x < width; x++) {
                const uint16_t *ink = samples + (size_t)x * tiff->samples;
                unsigned white = 255 - (ink[3] >> 8);
                for (int channel = 0; channel < 3; channel++) out[x * 4 + channel] = (uint8_t)((255 - (ink[channel] >> 8)) * white / 255);
                out[x * 4 + 3] = 255;
            }
            continue;
        }
        if (tiff->rows == TN_TIFF_LAB) {
            int offset = tiff->photometric == PHOTOMETRIC_ICCLAB ? 128 : 0;
            for (uint32_t x = 0; x < width; x++) {
                const uint8_t *lab = tiff->scanline + x * 3;
                double a = offset ? lab[1] - offset : (int8_t)lab[1], b = offset ? lab[2] - offset : (int8_t)lab[2];
                tn_lab_to_rgb(lab[0] * 100.0 / 255, a, b, out + x * 4);
                out[x * 4 + 3] = 255;
            }
            continue;
        }
        for (uint32_t x = 0; x < width; x++) {
            uint32_t value;
            if (bits == 16) {
                value = ((uint16_t *)tiff->scanline)[x] >> 8;  // libtiff gives 16- and 32-bit samples in host order
            } else if (bits == 32) {
                value = ((uint32_t *)tiff->scanline)[x] >> 24;
            } else {
                // Packed most significant bit first.
                uint64_t start = (uint64_t)x * (uint64_t)bits, sample = 0;
                for (int bit = 0; bit < bits; bit++) {
                    uint64_t at = start + (uint64_t)bit;
                    sample = sample << 1 | ((tiff->scanline[at / 8] >> (7 - at % 8)) & 1);
                }
                value = bits >= 8 ? (uint32_t)(sample >> (bits - 8)) : (uint32_t)(sample * 255 / ((1u << bits) - 1));
            }
            uint8_t level = (uint8_t)(tiff->photometric == PHOTOMETRIC_MINISWHITE ? 255 - value : value);
            out[x * 4] = out[x * 4 + 1] = out[x * 4 + 2] = level;
            out[x * 4 + 3] = 255;
        }
    }
    return 0;
}

int tn_tiff_read(tn_tiff *tiff, int row, int rows, uint8_t *rgba, char message[TN_MESSAGE_SIZE]) {
    tiff->last_error[0] = 0;
    if (tiff->rows != TN_TIFF_RGBA) return tn_tiff_read_rows(tiff, row, rows, rgba, message);
    tiff->image.row_offset = row;
    tiff->image.col_offset = 0;
    uint32_t *raster = (uint32_t *)rgba;
    if (!tn_libtiff.RGBAImageGet(&tiff->image, raster, tiff->image.width, (uint32_t)rows)) {
        snprintf(message, TN_MESSAGE_SIZE, "%s", tiff->last_error[0] ? tiff->last_error : "its image data cannot be decoded");
        return -1;
    }
    // libtiff packs each pixel into a 32-bit word with alpha premultiplied: bytes R, G, B, A, unpremultiplied.
    size_t count = (size_t)tiff->image.width * (size_t)rows;
    for (size_t index = 0; index < count; index++) {
        uint32_t pixel = raster[index];
        unsigned red = TIFFGetR(pixel), green = TIFFGetG(pixel), blue = TIFFGetB(pixel), alpha = TIFFGetA(pixel);
        if (alpha > 0 && alpha < 255) {
            red = tn_unpremultiply(red, alpha), green = tn_unpremultiply(green, alpha), blue = tn_unpremultiply(blue, alpha);
        }
        uint8_t *bytes = rgba + index * 4;
        bytes[0] = (uint8_t)red, bytes[1] = (uint8_t)green, bytes[2] = (uint8_t)blue, bytes[3] = (uint8_t)alpha;
    }
    return 0;
}

void tn_tiff_close(tn_tiff *tiff) {
    if (tiff->rows != TN_TIFF_RGBA) {
        free(tiff->scanline);
    } else {
        tn_libtiff.RGBAImageEnd(&tiff->image);
    }
    tn_libtiff.Close(tiff->tif);
    free(tiff);
}

// MARK: HEIF

static tn_heif_api tn_heif_functions;
static int tn_heif_loaded;
static pthread_once_t tn_heif_once = PTHREAD_ONCE_INIT;

static void tn_heif_load(void) {
    static const char *const names[] = {
        "heif_context_alloc", "heif_context_free", "heif_context_read_from_file", "heif_context_get_primary_image_handle",
        "heif_image_handle_release", "heif_image_handle_get_width", "heif_image_handle_get_height",
        "heif_image_handle_has_alpha_channel", "heif_decoding_options_alloc",
        "heif_decoding_options_free", "heif_decode_image", "heif_image_release", "heif_image_get_plane_readonly",
        "heif_image_get_width", "heif_image_get_height",
    };
    _Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(tn_heif_api) / sizeof(void *), "one name per function");
    tn_heif_loaded = tn_load("libheif.so.1", names, sizeof(names) / sizeof(names[0]), (void **)&tn_heif_functions);
}

const tn_heif_api *tn_heif(void) {
    pthread_once(&tn_heif_once, tn_heif_load);
    return tn_heif_loaded ? &tn_heif_functions : NULL;
}
