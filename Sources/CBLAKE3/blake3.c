// BLAKE3's hash mode: the portable compression, the chunk state, the tree of chaining values, and the
// choice of SIMD kernel. See include/cblake3.h.
#include <stdatomic.h>
#include <stdlib.h>

#include "blake3_impl.h"

// MARK: The compression function

static inline uint32_t rotr32(uint32_t w, int c) { return (w >> c) | (w << (32 - c)); }

static inline void g(uint32_t *s, int a, int b, int c, int d, uint32_t x, uint32_t y) {
    s[a] = s[a] + s[b] + x; s[d] = rotr32(s[d] ^ s[a], 16);
    s[c] = s[c] + s[d];     s[b] = rotr32(s[b] ^ s[c], 12);
    s[a] = s[a] + s[b] + y; s[d] = rotr32(s[d] ^ s[a], 8);
    s[c] = s[c] + s[d];     s[b] = rotr32(s[b] ^ s[c], 7);
}

void osb3_compress(uint32_t cv[8], const uint8_t block[OSB3_BLOCK_LEN], uint8_t block_len, uint64_t counter, uint8_t flags) {
    uint32_t m[16];
    for (int i = 0; i < 16; i++) m[i] = osb3_load32(block + 4 * i);
    uint32_t s[16] = {
        cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7],
        OSB3_IV[0], OSB3_IV[1], OSB3_IV[2], OSB3_IV[3],
        (uint32_t)counter, (uint32_t)(counter >> 32), block_len, flags,
    };
    for (int r = 0; r < 7; r++) {
        const uint8_t *k = OSB3_SCHEDULE[r];
        g(s, 0, 4, 8, 12, m[k[0]], m[k[1]]);
        g(s, 1, 5, 9, 13, m[k[2]], m[k[3]]);
        g(s, 2, 6, 10, 14, m[k[4]], m[k[5]]);
        g(s, 3, 7, 11, 15, m[k[6]], m[k[7]]);
        g(s, 0, 5, 10, 15, m[k[8]], m[k[9]]);
        g(s, 1, 6, 11, 12, m[k[10]], m[k[11]]);
        g(s, 2, 7, 8, 13, m[k[12]], m[k[13]]);
        g(s, 3, 4, 9, 14, m[k[14]], m[k[15]]);
    }
    for (int i = 0; i < 8; i++) cv[i] = s[i] ^ s[i + 8];
}

static void store_cv(uint8_t out[OSB3_OUT_LEN], const uint32_t cv[8]) {
    for (int i = 0; i < 8; i++) osb3_store32(out + 4 * i, cv[i]);
}

static void load_cv(uint32_t cv[8], const uint8_t bytes[OSB3_OUT_LEN]) {
    for (int i = 0; i < 8; i++) cv[i] = osb3_load32(bytes + 4 * i);
}

void osb3_hash_many_portable(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                             uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                             uint8_t *out) {
    for (size_t i = 0; i < count; i++) {
        uint32_t cv[8];
        memcpy(cv, key, sizeof cv);
        for (size_t b = 0; b < blocks; b++) {
            uint8_t block_flags = flags | (b == 0 ? flags_start : 0) | (b + 1 == blocks ? flags_end : 0);
            osb3_compress(cv, input + i * stride + b * OSB3_BLOCK_LEN, OSB3_BLOCK_LEN, counter + (increment ? i : 0), block_flags);
        }
        store_cv(out + i * OSB3_OUT_LEN, cv);
    }
}

// MARK: Choosing a kernel

/// The best kernel this CPU runs, unless a weaker one was asked for by `osb3_use_kernel` or, when the
/// program starts, by the environment variable OPENSHARING_BLAKE3 (to measure an AVX2-only CPU on one with
/// AVX-512, say).
typedef enum { KERNEL_BEST, KERNEL_AVX2, KERNEL_NEON, KERNEL_PORTABLE } kernel_limit;

static _Atomic int limit = -1;

static int parse_kernel(const char *name) {
    if (name == NULL) return KERNEL_BEST;
    if (strcmp(name, "avx2") == 0) return KERNEL_AVX2;
    if (strcmp(name, "neon") == 0) return KERNEL_NEON;
    if (strcmp(name, "portable") == 0) return KERNEL_PORTABLE;
    return KERNEL_BEST;
}

static osb3_hash_many_fn best_kernel(size_t *degree, const char **name) {
    int chosen = atomic_load_explicit(&limit, memory_order_relaxed);
    if (chosen < 0) {
        chosen = parse_kernel(getenv("OPENSHARING_BLAKE3"));
        atomic_store_explicit(&limit, chosen, memory_order_relaxed);
    }
#if defined(__x86_64__)
    if (chosen == KERNEL_BEST && __builtin_cpu_supports("avx512f")) { *degree = 16; *name = "avx512"; return osb3_hash_many_avx512; }
    if (chosen <= KERNEL_AVX2 && __builtin_cpu_supports("avx2")) { *degree = 8; *name = "avx2"; return osb3_hash_many_avx2; }
#elif defined(__aarch64__)
    if (chosen <= KERNEL_NEON) { *degree = 4; *name = "neon"; return osb3_hash_many_neon; }
#endif
    *degree = 1; *name = "portable";
    return osb3_hash_many_portable;
}

static osb3_hash_many_fn hash_many(size_t *degree) {
    const char *name;
    size_t unused;
    return best_kernel(degree ? degree : &unused, &name);
}

const char *osb3_implementation(void) {
    size_t degree;
    const char *name;
    best_kernel(&degree, &name);
    return name;
}

size_t osb3_simd_degree(void) {
    size_t degree;
    hash_many(&degree);
    return degree;
}

void osb3_use_kernel(const char *name) { atomic_store_explicit(&limit, parse_kernel(name), memory_order_relaxed); }

// MARK: Chunks

static void chunk_init(osb3_chunk_state *chunk, uint64_t counter) {
    memcpy(chunk->cv, OSB3_IV, sizeof chunk->cv);
    chunk->chunk_counter = counter;
    memset(chunk->buf, 0, sizeof chunk->buf);
    chunk->buf_len = 0;
    chunk->blocks_compressed = 0;
}

static size_t chunk_len(const osb3_chunk_state *chunk) {
    return (size_t)chunk->blocks_compressed * OSB3_BLOCK_LEN + chunk->buf_len;
}

static uint8_t chunk_start_flag(const osb3_chunk_state *chunk) {
    return chunk->blocks_compressed == 0 ? OSB3_CHUNK_START : 0;
}

/// Adds bytes to the chunk; a full block is compressed only once more bytes follow it, since the last
/// block of a chunk is compressed with CHUNK_END.
static void chunk_update(osb3_chunk_state *chunk, const uint8_t *input, size_t length) {
    while (length > 0) {
        if (chunk->buf_len == OSB3_BLOCK_LEN) {
            osb3_compress(chunk->cv, chunk->buf, OSB3_BLOCK_LEN, chunk->chunk_counter, chunk_start_flag(chunk));
            chunk->blocks_compressed++;
            chunk->buf_len = 0;
            memset(chunk->buf, 0, sizeof chunk->buf);
        }
        if (chunk->buf_len == 0) {
            while (length > OSB3_BLOCK_LEN) {
                osb3_compress(chunk->cv, input, OSB3_BLOCK_LEN, chunk->chunk_counter, chunk_start_flag(chunk));
                chunk->blocks_compressed++;
                input += OSB3_BLOCK_LEN;
                length -= OSB3_BLOCK_LEN;
            }
        }
        size_t take = OSB3_BLOCK_LEN - chunk->buf_len;
        if (take > length) take = length;
        memcpy(chunk->buf + chunk->buf_len, input, take);
        chunk->buf_len += (uint8_t)take;
        input += take;
        length -= take;
    }
}

/// The last compression of a node, still to be made: with ROOT if it is the root, else for its chaining value.
typedef struct {
    uint32_t cv[8];
    uint8_t block[OSB3_BLOCK_LEN];
    uint8_t block_len;
    uint64_t counter;
    uint8_t flags;
} output_t;

static output_t chunk_output(const osb3_chunk_state *chunk) {
    output_t output;
    memcpy(output.cv, chunk->cv, sizeof output.cv);
    memcpy(output.block, chunk->buf, OSB3_BLOCK_LEN);
    output.block_len = chunk->buf_len;
    output.counter = chunk->chunk_counter;
    output.flags = chunk_start_flag(chunk) | OSB3_CHUNK_END;
    return output;
}

static output_t parent_output(const uint8_t left_and_right[2 * OSB3_OUT_LEN]) {
    output_t output;
    memcpy(output.cv, OSB3_IV, sizeof output.cv);
    memcpy(output.block, left_and_right, OSB3_BLOCK_LEN);
    output.block_len = OSB3_BLOCK_LEN;
    output.counter = 0;
    output.flags = OSB3_PARENT;
    return output;
}

static void output_cv(const output_t *output, uint8_t out[OSB3_OUT_LEN]) {
    uint32_t cv[8];
    memcpy(cv, output->cv, sizeof cv);
    osb3_compress(cv, output->block, output->block_len, output->counter, output->flags);
    store_cv(out, cv);
}

// MARK: The tree

void osb3_init(osb3_hasher *hasher) {
    chunk_init(&hasher->chunk, 0);
    hasher->cv_stack_len = 0;
}

/// Merges completed subtrees on the stack until it holds one per 1 bit of `total_chunks`: a subtree is
/// merged only once a chunk after it is known to exist, so no merge can be the root's.
static void merge_cv_stack(osb3_hasher *hasher, uint64_t total_chunks) {
    size_t after = (size_t)__builtin_popcountll(total_chunks);
    while (hasher->cv_stack_len > after) {
        uint8_t *pair = hasher->cv_stack + (hasher->cv_stack_len - 2) * OSB3_OUT_LEN;
        output_t output = parent_output(pair);
        output_cv(&output, pair);
        hasher->cv_stack_len--;
    }
}

static void push_cv(osb3_hasher *hasher, const uint8_t cv[OSB3_OUT_LEN], uint64_t chunk_counter) {
    merge_cv_stack(hasher, chunk_counter);
    memcpy(hasher->cv_stack + hasher->cv_stack_len * OSB3_OUT_LEN, cv, OSB3_OUT_LEN);
    hasher->cv_stack_len++;
}

/// Most chunks hashed as one subtree: their chaining values fit on the stack (8 KiB).
#define WIDE_CHUNKS 256

/// Hashes a whole subtree of `chunks` chunks (a power of two, at least 2) and reduces it, a level at a time
/// and many nodes at once, to its two children's chaining values.
static void compress_subtree(const uint8_t *input, size_t chunks, uint64_t chunk_counter, uint8_t out[2 * OSB3_OUT_LEN]) {
    uint8_t cvs[WIDE_CHUNKS * OSB3_OUT_LEN];
    osb3_hash_many_fn kernel = hash_many(NULL);
    kernel(input, OSB3_CHUNK_LEN, chunks, OSB3_CHUNK_LEN / OSB3_BLOCK_LEN, OSB3_IV, chunk_counter, true, 0,
           OSB3_CHUNK_START, OSB3_CHUNK_END, cvs);
    // Each pair of chaining values is a parent's block: the level above is written over the one below.
    for (size_t nodes = chunks; nodes > 2; nodes /= 2) {
        kernel(cvs, 2 * OSB3_OUT_LEN, nodes / 2, 1, OSB3_IV, 0, false, OSB3_PARENT, 0, 0, cvs);
    }
    memcpy(out, cvs, 2 * OSB3_OUT_LEN);
}

void osb3_update(osb3_hasher *hasher, const void *bytes, size_t length) {
    const uint8_t *input = bytes;
    // First, finish a chunk begun by an earlier update.
    if (chunk_len(&hasher->chunk) > 0) {
        size_t take = OSB3_CHUNK_LEN - chunk_len(&hasher->chunk);
        if (take > length) take = length;
        chunk_update(&hasher->chunk, input, take);
        input += take;
        length -= take;
        if (length == 0) return;
        // More follows, so this chunk is not the last: its chaining value goes on the stack.
        output_t output = chunk_output(&hasher->chunk);
        uint8_t cv[OSB3_OUT_LEN];
        output_cv(&output, cv);
        push_cv(hasher, cv, hasher->chunk.chunk_counter);
        chunk_init(&hasher->chunk, hasher->chunk.chunk_counter + 1);
    }
    // Then whole subtrees, as large as the input and the position in the tree allow, while more follows a chunk.
    while (length > OSB3_CHUNK_LEN) {
        uint64_t counter = hasher->chunk.chunk_counter;
        size_t chunks = WIDE_CHUNKS;
        while ((size_t)chunks * OSB3_CHUNK_LEN > length) chunks /= 2;
        // A subtree starts at a multiple of its size.
        while (counter & (chunks - 1)) chunks /= 2;
        if (chunks == 1) {
            osb3_chunk_state chunk;
            chunk_init(&chunk, counter);
            chunk_update(&chunk, input, OSB3_CHUNK_LEN);
            output_t output = chunk_output(&chunk);
            uint8_t cv[OSB3_OUT_LEN];
            output_cv(&output, cv);
            push_cv(hasher, cv, counter);
        } else {
            // Its two children go on the stack, not their parent, which may yet be the root.
            uint8_t children[2 * OSB3_OUT_LEN];
            compress_subtree(input, chunks, counter, children);
            push_cv(hasher, children, counter);
            push_cv(hasher, children + OSB3_OUT_LEN, counter + chunks / 2);
        }
        hasher->chunk.chunk_counter = counter + chunks;
        input += chunks * OSB3_CHUNK_LEN;
        length -= chunks * OSB3_CHUNK_LEN;
    }
    if (length > 0) {
        chunk_update(&hasher->chunk, input, length);
        merge_cv_stack(hasher, hasher->chunk.chunk_counter);
    }
}

void osb3_finalize(const osb3_hasher *hasher, uint8_t out[OSB3_OUT_LEN]) {
    output_t output;
    size_t remaining;
    if (hasher->cv_stack_len == 0) {
        output = chunk_output(&hasher->chunk);
        remaining = 0;
    } else if (chunk_len(&hasher->chunk) > 0) {
        // The chunk in progress is the last; every subtree on the stack is merged into the path above it.
        output = chunk_output(&hasher->chunk);
        remaining = hasher->cv_stack_len;
    } else {
        // The input ended on a subtree's boundary: the top two chaining values are the last node's children.
        remaining = hasher->cv_stack_len - 2;
        output = parent_output(hasher->cv_stack + remaining * OSB3_OUT_LEN);
    }
    while (remaining > 0) {
        remaining--;
        uint8_t pair[2 * OSB3_OUT_LEN];
        memcpy(pair, hasher->cv_stack + remaining * OSB3_OUT_LEN, OSB3_OUT_LEN);
        output_cv(&output, pair + OSB3_OUT_LEN);
        output = parent_output(pair);
    }
    uint32_t cv[8];
    memcpy(cv, output.cv, sizeof cv);
    osb3_compress(cv, output.block, output.block_len, output.counter, output.flags | OSB3_ROOT);
    store_cv(out, cv);
}
