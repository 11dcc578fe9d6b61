#ifndef PUSHDECK_COPENSSL_SHIM_H
#define PUSHDECK_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509v3.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>

// Macros Swift cannot import.
static inline long pushdeck_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long pushdeck_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long pushdeck_SSL_CTX_set_options(SSL_CTX *ctx, long options) { return (long)SSL_CTX_set_options(ctx, (uint64_t)options); }
static inline long pushdeck_SSL_MODE_RELEASE_BUFFERS(void) { return SSL_MODE_RELEASE_BUFFERS; }
static inline long pushdeck_SSL_MODE_ENABLE_PARTIAL_WRITE(void) { return SSL_MODE_ENABLE_PARTIAL_WRITE; }
static inline long pushdeck_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER(void) { return SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER; }
static inline long pushdeck_SSL_OP_NO_RENEGOTIATION(void) { return (long)SSL_OP_NO_RENEGOTIATION; }
static inline int pushdeck_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int pushdeck_SSL_TLSEXT_ERR_OK(void) { return SSL_TLSEXT_ERR_OK; }
static inline int pushdeck_SSL_TLSEXT_ERR_ALERT_FATAL(void) { return SSL_TLSEXT_ERR_ALERT_FATAL; }
static inline int pushdeck_OPENSSL_NPN_NEGOTIATED(void) { return OPENSSL_NPN_NEGOTIATED; }
static inline int pushdeck_SSL_ERROR_WANT_READ(void) { return SSL_ERROR_WANT_READ; }
static inline int pushdeck_SSL_ERROR_WANT_WRITE(void) { return SSL_ERROR_WANT_WRITE; }
static inline int pushdeck_SSL_ERROR_ZERO_RETURN(void) { return SSL_ERROR_ZERO_RETURN; }
static inline int pushdeck_NID_X9_62_prime256v1(void) { return NID_X9_62_prime256v1; }
static inline int pushdeck_MBSTRING_ASC(void) { return MBSTRING_ASC; }
// EVP_EC_gen is a macro over a variadic function.
static inline EVP_PKEY *pushdeck_EVP_EC_gen_P256(void) { return EVP_EC_gen("P-256"); }
// EVP_RSA_gen is a macro over a variadic function too.
static inline EVP_PKEY *pushdeck_EVP_RSA_gen(unsigned int bits) { return EVP_RSA_gen(bits); }
static inline void pushdeck_X509V3_set_ctx_nodb(X509V3_CTX *ctx) { X509V3_set_ctx_nodb(ctx); }
/* BIO_new_mem_buf takes a length as int; a wrapper keeps the call sites free of casts. */
static inline BIO *pushdeck_bio_from_bytes(const void *bytes, int length) { return BIO_new_mem_buf(bytes, length); }
#endif
