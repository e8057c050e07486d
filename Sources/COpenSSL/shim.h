// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 where Apple's CryptoKit is missing. The direct
// SHA256_* functions are used rather than the EVP interface: they take the CPU's SHA instructions just the
// same, without loading OpenSSL's providers (2 MB of memory at first use, against 0.4 MB).
#define OPENSSL_API_COMPAT 0x10100000L
#include <openssl/sha.h>
