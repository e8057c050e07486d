// BLAKE3, written for OpenSharing from the specification (O'Connor, Aumasson, Neves, Wilcox-O'Hearn,
// "BLAKE3: one function, fast everywhere", 2020, https://github.com/BLAKE3-team/BLAKE3-specs): the hash
// mode only, fed in pieces, with chunks hashed several at a time by SIMD where the CPU has it (AVX-512,
// AVX2, NEON), chosen when the program runs.
#ifndef CBLAKE3_H
#define CBLAKE3_H

#include <stddef.h>
#include <stdint.h>

#define OSB3_OUT_LEN 32
#define OSB3_BLOCK_LEN 64
#define OSB3_CHUNK_LEN 1024
/// Deep enough for 2^54 chunks, 2^64 bytes.
#define OSB3_MAX_DEPTH 54

typedef struct {
    uint32_t cv[8];
    uint64_t chunk_counter;
    uint8_t buf[OSB3_BLOCK_LEN];
    uint8_t buf_len;
    uint8_t blocks_compressed;
} osb3_chunk_state;

typedef struct {
    osb3_chunk_state chunk;
    uint8_t cv_stack_len;
    uint8_t cv_stack[OSB3_MAX_DEPTH * OSB3_OUT_LEN];
} osb3_hasher;

void osb3_init(osb3_hasher *hasher);
void osb3_update(osb3_hasher *hasher, const void *input, size_t length);
/// The 32-byte digest; the hasher may be updated further afterwards.
void osb3_finalize(const osb3_hasher *hasher, uint8_t out[OSB3_OUT_LEN]);

/// The SIMD way chosen at run time: "avx512", "avx2", "neon" or "portable"; how many inputs it hashes at once.
const char *osb3_implementation(void);
size_t osb3_simd_degree(void);
/// Uses at most this kernel from now on — "avx2", "neon", "portable", or NULL for the best the CPU has — as
/// the environment variable OPENSHARING_BLAKE3 does when the program starts (tests and benchmarks).
void osb3_use_kernel(const char *name);

#endif
