/* The peer for compare-types.sh: GIO's content types (freedesktop shared-mime-info), the type system Linux
 * desktops use as macOS uses UTIs. Same operations, inputs and output format as TypeTiming/main.swift. */
#include <gio/gio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const int iterations = 2000000;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

typedef long (*operation)(int);

static void time_it(const char *name, operation body) {
    long checksum = 0;
    for (int i = 0; i < 10000; i++) checksum += body(i); /* warm up: first use loads the MIME database */
    double start = now_ns();
    for (int i = 0; i < iterations; i++) checksum += body(i);
    printf("%s\t%.1f\t%ld\n", name, (now_ns() - start) / iterations, checksum);
}

static const char *types[] = {"application/x-shellscript", "image/jpeg", "text/html", "video/mp4"};
static const char *supertypes[] = {"text/plain", "image/*", "text/*", "video/*"};
static const char *file_names[] = {"photo.jpg", "page.html", "clip.mp4", "archive.zip",
                                   "notes.txt", "doc.pdf", "pic.png", "data.json"};
static const char *mime_types[] = {"image/jpeg", "text/html", "video/mp4", "application/zip",
                                   "text/plain", "application/pdf", "image/png", "application/json"};

static long conformance(int i) { return g_content_type_is_a(types[i & 3], supertypes[(i >> 2) & 3]); }

static long by_extension(int i) {
    gboolean uncertain;
    char *type = g_content_type_guess(file_names[i & 7], NULL, 0, &uncertain);
    long n = (long)strlen(type);
    g_free(type);
    return n;
}

static long by_mime_type(int i) {
    char *type = g_content_type_from_mime_type(mime_types[i & 7]);
    long n = (long)strlen(type);
    g_free(type);
    return n;
}

int main(void) {
    time_it("conformance", conformance);
    time_it("by-extension", by_extension);
    time_it("by-mime-type", by_mime_type);
    return 0;
}
