// Four inputs at once with NEON: each 32-bit lane of a vector belongs to one input. Message words are
// brought into lanes, and chaining values taken out, by 4 × 4 transposes.
#if defined(__aarch64__)
#include <arm_neon.h>

#include "blake3_impl.h"

static inline uint32x4_t rot16(uint32x4_t x) { return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x))); }
static inline uint32x4_t rot12(uint32x4_t x) { return vsriq_n_u32(vshlq_n_u32(x, 20), x, 12); }
static inline uint32x4_t rot8(uint32x4_t x) { return vsriq_n_u32(vshlq_n_u32(x, 24), x, 8); }
static inline uint32x4_t rot7(uint32x4_t x) { return vsriq_n_u32(vshlq_n_u32(x, 25), x, 7); }

#define G(a, b, c, d, x, y)                           \
    v[a] = vaddq_u32(vaddq_u32(v[a], v[b]), x);       \
    v[d] = rot16(veorq_u32(v[d], v[a]));              \
    v[c] = vaddq_u32(v[c], v[d]);                     \
    v[b] = rot12(veorq_u32(v[b], v[c]));              \
    v[a] = vaddq_u32(vaddq_u32(v[a], v[b]), y);       \
    v[d] = rot8(veorq_u32(v[d], v[a]));               \
    v[c] = vaddq_u32(v[c], v[d]);                     \
    v[b] = rot7(veorq_u32(v[b], v[c]));

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
static inline void transpose4(uint32x4_t r[4]) {
    uint32x4x2_t a = vtrnq_u32(r[0], r[1]), b = vtrnq_u32(r[2], r[3]);
    r[0] = vcombine_u32(vget_low_u32(a.val[0]), vget_low_u32(b.val[0]));
    r[1] = vcombine_u32(vget_low_u32(a.val[1]), vget_low_u32(b.val[1]));
    r[2] = vcombine_u32(vget_high_u32(a.val[0]), vget_high_u32(b.val[0]));
    r[3] = vcombine_u32(vget_high_u32(a.val[1]), vget_high_u32(b.val[1]));
}

static void hash4(const uint8_t *input, size_t stride, size_t blocks, const uint32_t key[8], uint64_t counter,
                  bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
    uint32x4_t h[8];
    for (int i = 0; i < 8; i++) h[i] = vdupq_n_u32(key[i]);
    uint32_t lo[4], hi[4];
    for (int i = 0; i < 4; i++) {
        uint64_t c = counter + (increment ? (uint64_t)i : 0);
        lo[i] = (uint32_t)c;
        hi[i] = (uint32_t)(c >> 32);
    }
    const uint32x4_t counter_lo = vld1q_u32(lo), counter_hi = vld1q_u32(hi);
    for (size_t b = 0; b < blocks; b++) {
        uint32x4_t m[16];
        for (int quarter = 0; quarter < 4; quarter++) {
            for (int i = 0; i < 4; i++) {
                m[4 * quarter + i] = vreinterpretq_u32_u8(vld1q_u8(input + i * stride + b * OSB3_BLOCK_LEN + 16 * quarter));
            }
            transpose4(m + 4 * quarter);
        }
        uint8_t block_flags = flags | (b == 0 ? flags_start : 0) | (b + 1 == blocks ? flags_end : 0);
        uint32x4_t v[16] = {
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
            vdupq_n_u32(OSB3_IV[0]), vdupq_n_u32(OSB3_IV[1]), vdupq_n_u32(OSB3_IV[2]), vdupq_n_u32(OSB3_IV[3]),
            counter_lo, counter_hi, vdupq_n_u32(OSB3_BLOCK_LEN), vdupq_n_u32(block_flags),
        };
        // Unrolled, so that every message index is a constant and the words stay in registers.
        ROUND(0) ROUND(1) ROUND(2) ROUND(3) ROUND(4) ROUND(5) ROUND(6)
        for (int i = 0; i < 8; i++) h[i] = veorq_u32(v[i], v[i + 8]);
    }
    transpose4(h);
    transpose4(h + 4);
    for (int i = 0; i < 4; i++) {
        vst1q_u8(out + i * OSB3_OUT_LEN, vreinterpretq_u8_u32(h[i]));
        vst1q_u8(out + i * OSB3_OUT_LEN + 16, vreinterpretq_u8_u32(h[i + 4]));
    }
}

void osb3_hash_many_neon(const uint8_t *input, size_t stride, size_t count, size_t blocks, const uint32_t key[8],
                         uint64_t counter, bool increment, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                         uint8_t *out) {
    while (count >= 4) {
        hash4(input, stride, blocks, key, counter, increment, flags, flags_start, flags_end, out);
        input += 4 * stride;
        out += 4 * OSB3_OUT_LEN;
        if (increment) counter += 4;
        count -= 4;
    }
    osb3_hash_many_portable(input, stride, count, blocks, key, counter, increment, flags, flags_start, flags_end, out);
}
#endif
