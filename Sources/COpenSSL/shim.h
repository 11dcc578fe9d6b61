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

/* BIO_new_mem_buf takes a length as int; a wrapper keeps the call sites free of casts. */
static inline BIO *pushdeck_bio_from_bytes(const void *bytes, int length) {
    return BIO_new_mem_buf(bytes, length);
}

#endif
