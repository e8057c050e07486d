// Sixteen inputs at once with AVX-512: each 32-bit lane of a vector belongs to one input. Message words are
// brought into lanes by a 16 × 16 transpose; chaining values, once per input, are scattered out by index.
#if defined(__x86_64__)
#include <immintrin.h>

#include "blake3_impl.h"

#define AVX512 __attribute__((target("avx512f")))

#define G(a, b, c, d, x, y)                                                   \
    v[a] = _mm512_add_epi32(_mm512_add_epi32(v[a], v[b]), x);                 \
    v[d] = _mm512_ror_epi32(_mm512_xor_si512(v[d], v[a]), 16);                \
    v[c] = _mm512_add_epi32(v[c], v[d]);                                      \
    v[b] = _mm512_ror_epi32(_mm512_xor_si512(v[b], v[c]), 12);                \
    v[a] = _mm512_add_epi32(_mm512_add_epi32(v[a], v[b]), y);                 \
    v[d] = _mm512_ror_epi32(_mm512_xor_si512(v[d], v[a]), 8);                 \
    v[c] = _mm512_add_epi32(v[c], v[d]);                                      \
    v[b] = _mm512_ror_epi32(_mm512_xor_si512(v[b], v[c]), 7);

#define ROUND(r)                                                              \
    G(0, 4, 8, 12, m[OSB3_SCHEDULE[r][0]], m[OSB3_SCHEDULE[r][1]])            \
    G(1, 5, 9, 13, m[OSB3_SCHEDULE[r][2]], m[OSB3_SCHEDULE[r][3]])            \
    G(2, 6, 10, 14, m[OSB3_SCHEDULE[r][4]], m[OSB3_SCHEDULE[r][5]])           \
    G(3, 7, 11, 15, m[OSB3_SCHEDULE[r][6]], m[OSB3_SCHEDULE[r][7]])           \
    G(0, 5, 10, 15, m[OSB3_SCHEDULE[r][8]], m[OSB3_SCHEDULE[r][9]])           \
    G(1, 6, 11, 12, m[OSB3_SCHEDULE[r][10]], m[OSB3_SCHEDULE[r][11]])         \
    G(2, 7, 8, 13, m[OSB3_SCHEDULE[r][12]], m[OSB3_SCHEDULE[r][13]])          \
    G(3, 4, 9, 14, m[OSB3_SCHEDULE[r][14]], m[OSB3_SCHEDULE[r][15]])

/// Rows in, columns out: row i's word w becomes vector w's lane i. Within each 128-bit lane, 4 × 4 blocks are
/// transposed by unpacking; then the 4 × 4 arrangement of lanes is transposed by lane shuffles.
AVX512 static inline void transpose16(__m512i r[16]) {
    __m512i u[16];
    for (int g = 0; g < 4; g++) {
        __m512i t0 = _mm512_unpacklo_epi32(r[4 * g], r[4 * g + 1]), t1 = _mm512_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
        __m512i t2 = _mm512_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]), t3 = _mm512_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
        u[4 * g] = _mm512_unpacklo_epi64(t0, t2);
        u[4 * g + 1] = _mm512_unpackhi_epi64(t0, t2);
        u[4 * g + 2] = _mm512_unpacklo_epi64(t1, t3);
        u[4 * g + 3] = _mm512_unpackhi_epi64(t1, t3);
    }
    for (int c = 0; c < 4; c++) {
        __m512i a = _mm512_shuffle_i32x4(u[c], u[4 + c], 0x44), b = _mm512_shuffle_i32x4(u[c], u[4 + c], 0xEE);
        __m512i d = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0x44), e = _mm512_shuffle_i32x4(u[8 + c], u[12 + c], 0xEE);
        r[c] = _mm512_shuffle_i32x4(a, d, 0x88);
        r[4 + c] = _mm512_shuffle_i32x4(a, d, 0xDD);
        r[8 + c] = _mm512_shuffle_i32x4(b, e, 0x88);
        r[12 + c] = _mm512_shuffle_i32x4(b, e, 0xDD);
    }
}

AVX512 static void hash16(const uint8_t *input, size_t stride, size_t blocks, const uint32_t key[8], uint64_t counter,
                          bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
    __m512i h[8];
    for (int i = 0; i < 8; i++) h[i] = _mm512_set1_epi32((int)key[i]);
    uint32_t lo[16], hi[16];
    int32_t cv_offsets[16];
    for (int i = 0; i < 16; i++) {
        uint64_t c = counter + (increment ? (uint64_t)i : 0);
        lo[i] = (uint32_t)c;
        hi[i] = (uint32_t)(c >> 32);
        cv_offsets[i] = i * OSB3_OUT_LEN / 4;
    }
    const __m512i counter_lo = _mm512_loadu_si512(lo), counter_hi = _mm512_loadu_si512(hi);
    for (size_t b = 0; b < blocks; b++) {
        __m512i m[16];
        for (int i = 0; i < 16; i++) m[i] = _mm512_loadu_si512(input + i * stride + b * OSB3_BLOCK_LEN);
        transpose16(m);
        uint8_t block_flags = flags | (b == 0 ? flags_start : 0) | (b + 1 == blocks ? flags_end : 0);
        __m512i v[16] = {
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
            _mm512_set1_epi32((int)OSB3_IV[0]), _mm512_set1_epi32((int)OSB3_IV[1]),
            _mm512_set1_epi32((int)OSB3_IV[2]), _mm512_set1_epi32((int)OSB3_IV[3]),
            counter_lo, counter_hi, _mm512_set1_epi32(OSB3_BLOCK_LEN), _mm512_set1_epi32(block_flags),
        };
        // Unrolled, so that every message index is a constant and the words stay in registers.
        ROUND(0) ROUND(1) ROUND(2) ROUND(3) ROUND(4) ROUND(5) ROUND(6)
        for (int i = 0; i < 8; i++) h[i] = _mm512_xor_si512(v[i], v[i + 8]);
    }
    const __m512i cv_lanes = _mm512_loadu_si512(cv_offsets);
    for (int w = 0; w < 8; w++) _mm512_i32scatter_epi32(out + 4 * w, cv_lanes, h[w], 4);
}

void osb3_hash_many_avx512(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                           uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                           uint8_t *out) {
    while (count >= 16) {
        hash16(input, stride, blocks, key, counter, increment, flags, flags_start, flags_end, out);
        input += 16 * stride;
        out += 16 * OSB3_OUT_LEN;
        if (increment) counter += 16;
        count -= 16;
    }
    osb3_hash_many_avx2(input, stride, count, blocks, key, counter, increment, flags, flags_start, flags_end, out);
}
#endif
