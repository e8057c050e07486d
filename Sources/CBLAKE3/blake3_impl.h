// What the BLAKE3 implementations share: constants, the portable compression, and the interface of the
// "many inputs at once" kernels.
#ifndef CBLAKE3_IMPL_H
#define CBLAKE3_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cblake3.h"

enum {
    OSB3_CHUNK_START = 1 << 0,
    OSB3_CHUNK_END = 1 << 1,
    OSB3_PARENT = 1 << 2,
    OSB3_ROOT = 1 << 3,
};

static const uint32_t OSB3_IV[8] = {
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
};

/// The message word each round reads at each position: the permutation [2, 6, 3, 10, 7, 0, 4, 13, 1, 11,
/// 12, 5, 9, 14, 15, 8] applied once more each round.
static const uint8_t OSB3_SCHEDULE[7][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8},
    {3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1},
    {10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6},
    {12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4},
    {9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7},
    {11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13},
};

static inline uint32_t osb3_load32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void osb3_store32(uint8_t *p, uint32_t w) {
    p[0] = (uint8_t)w; p[1] = (uint8_t)(w >> 8); p[2] = (uint8_t)(w >> 16); p[3] = (uint8_t)(w >> 24);
}

/// The compression function: a block into a chaining value, the first 8 words of the output.
void osb3_compress(uint32_t cv[8], const uint8_t block[OSB3_BLOCK_LEN], uint8_t block_len, uint64_t counter, uint8_t flags);

/// Hashes `count` inputs of `blocks` blocks each, the i-th at `input + i * stride`, each from the chaining
/// value `key`; writes their 32-byte chaining values to `out`, one after another. The i-th input's counter
/// is `counter + i` when `increment`, else `counter`; its first block adds `flags_start`, its last
/// `flags_end`. Chunks are 16 blocks with CHUNK_START and CHUNK_END; parents 1 block with PARENT.
typedef void (*osb3_hash_many_fn)(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                                  uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                                  uint8_t *out);

void osb3_hash_many_portable(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                             uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                             uint8_t *out);
#if defined(__x86_64__)
void osb3_hash_many_avx2(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                         uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                         uint8_t *out);
void osb3_hash_many_avx512(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                           uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                           uint8_t *out);
#endif
#if defined(__aarch64__)
void osb3_hash_many_neon(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                         uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                         uint8_t *out);
#endif

#endif
