#ifndef PUSHDECK_CHTTPPARSER_SHIM_H
#define PUSHDECK_CHTTPPARSER_SHIM_H
#include <http_parser.h>

// HTTP_PARSER_ERRNO is a macro; the bit fields are read here rather than through Swift's import.
static inline int pushdeck_http_errno(const http_parser *parser) { return (int)HTTP_PARSER_ERRNO(parser); }
static inline int pushdeck_http_method(const http_parser *parser) { return (int)parser->method; }
static inline int pushdeck_http_is_upgrade(const http_parser *parser) { return (int)parser->upgrade; }
static inline const char *pushdeck_http_method_name(const http_parser *parser) {
    return http_method_str((enum http_method)parser->method);
}
static inline const char *pushdeck_http_errno_name(const http_parser *parser) {
    return http_errno_name(HTTP_PARSER_ERRNO(parser));
}
static inline int pushdeck_http_status_code(const http_parser *parser) { return (int)parser->status_code; }
static inline const char *pushdeck_http_status_text(int status) { return http_status_str((enum http_status)status); }
#endif
