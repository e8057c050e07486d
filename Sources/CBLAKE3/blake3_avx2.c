// Eight inputs at once with AVX2: each 32-bit lane of a vector belongs to one input. Message words are
// brought into lanes by an 8 × 8 transpose, and the chaining values taken out by another.
#if defined(__x86_64__)
#include <immintrin.h>

#include "blake3_impl.h"

#define AVX2 __attribute__((target("avx2")))

AVX2 static inline __m256i rot16(__m256i x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                                   2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
}

AVX2 static inline __m256i rot8(__m256i x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
                                                   1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12));
}

AVX2 static inline __m256i rot12(__m256i x) { return _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20)); }
AVX2 static inline __m256i rot7(__m256i x) { return _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25)); }

#define G(a, b, c, d, x, y)                                                   \
    v[a] = _mm256_add_epi32(_mm256_add_epi32(v[a], v[b]), x);                 \
    v[d] = rot16(_mm256_xor_si256(v[d], v[a]));                               \
    v[c] = _mm256_add_epi32(v[c], v[d]);                                      \
    v[b] = rot12(_mm256_xor_si256(v[b], v[c]));                               \
    v[a] = _mm256_add_epi32(_mm256_add_epi32(v[a], v[b]), y);                 \
    v[d] = rot8(_mm256_xor_si256(v[d], v[a]));                                \
    v[c] = _mm256_add_epi32(v[c], v[d]);                                      \
    v[b] = rot7(_mm256_xor_si256(v[b], v[c]));

#define ROUND(r)                                                              \
    G(0, 4, 8, 12, m[OSB3_SCHEDULE[r][0]], m[OSB3_SCHEDULE[r][1]])            \
    G(1, 5, 9, 13, m[OSB3_SCHEDULE[r][2]], m[OSB3_SCHEDULE[r][3]])            \
    G(2, 6, 10, 14, m[OSB3_SCHEDULE[r][4]], m[OSB3_SCHEDULE[r][5]])           \
    G(3, 7, 11, 15, m[OSB3_SCHEDULE[r][6]], m[OSB3_SCHEDULE[r][7]])           \
    G(0, 5, 10, 15, m[OSB3_SCHEDULE[r][8]], m[OSB3_SCHEDULE[r][9]])           \
    G(1, 6, 11, 12, m[OSB3_SCHEDULE[r][10]], m[OSB3_SCHEDULE[r][11]])         \
    G(2, 7, 8, 13, m[OSB3_SCHEDULE[r][12]], m[OSB3_SCHEDULE[r][13]])          \
    G(3, 4, 9, 14, m[OSB3_SCHEDULE[r][14]], m[OSB3_SCHEDULE[r][15]])

/// Rows in, columns out: row i's word w becomes vector w's lane i.
AVX2 static inline void transpose8(__m256i r[8]) {
    __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    __m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    __m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    r[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
    r[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
    r[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
    r[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
    r[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
    r[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
    r[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
    r[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}

AVX2 static void hash8(const uint8_t *input, size_t stride, size_t blocks, const uint32_t key[8], uint64_t counter,
                       bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
    __m256i h[8];
    for (int i = 0; i < 8; i++) h[i] = _mm256_set1_epi32((int)key[i]);
    uint32_t lo[8], hi[8];
    for (int i = 0; i < 8; i++) {
        uint64_t c = counter + (increment ? (uint64_t)i : 0);
        lo[i] = (uint32_t)c;
        hi[i] = (uint32_t)(c >> 32);
    }
    const __m256i counter_lo = _mm256_loadu_si256((const __m256i *)lo), counter_hi = _mm256_loadu_si256((const __m256i *)hi);
    for (size_t b = 0; b < blocks; b++) {
        __m256i m[16];
        for (int i = 0; i < 8; i++) {
            const uint8_t *block = input + i * stride + b * OSB3_BLOCK_LEN;
            m[i] = _mm256_loadu_si256((const __m256i *)block);
            m[i + 8] = _mm256_loadu_si256((const __m256i *)(block + 32));
        }
        transpose8(m);
        transpose8(m + 8);
        uint8_t block_flags = flags | (b == 0 ? flags_start : 0) | (b + 1 == blocks ? flags_end : 0);
        __m256i v[16] = {
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
            _mm256_set1_epi32((int)OSB3_IV[0]), _mm256_set1_epi32((int)OSB3_IV[1]),
            _mm256_set1_epi32((int)OSB3_IV[2]), _mm256_set1_epi32((int)OSB3_IV[3]),
            counter_lo, counter_hi, _mm256_set1_epi32(OSB3_BLOCK_LEN), _mm256_set1_epi32(block_flags),
        };
        // Unrolled, so that every message index is a constant and the words stay in registers.
        ROUND(0) ROUND(1) ROUND(2) ROUND(3) ROUND(4) ROUND(5) ROUND(6)
        for (int i = 0; i < 8; i++) h[i] = _mm256_xor_si256(v[i], v[i + 8]);
    }
    transpose8(h);
    for (int i = 0; i < 8; i++) _mm256_storeu_si256((__m256i *)(out + i * OSB3_OUT_LEN), h[i]);
}

void osb3_hash_many_avx2(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                         uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                         uint8_t *out) {
    while (count >= 8) {
        hash8(input, stride, blocks, key, counter, increment, flags, flags_start, flags_end, out);
        input += 8 * stride;
        out += 8 * OSB3_OUT_LEN;
        if (increment) counter += 8;
        count -= 8;
    }
    osb3_hash_many_portable(input, stride, count, blocks, key, counter, increment, flags, flags_start, flags_end, out);
}
#endif
