// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 where Apple's CryptoKit is missing. Only the EVP
// digest interface is used; it picks the CPU's SHA instructions when there are some.
#include <openssl/evp.h>
