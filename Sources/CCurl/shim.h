#ifndef POKESEARCH_CCURL_SHIM_H
#define POKESEARCH_CCURL_SHIM_H
#include <curl/curl.h>
// curl_easy_setopt is variadic and does not import into Swift: one typed wrapper
// per argument kind.
typedef size_t (*pokesearch_curl_write_fn)(char *data, size_t size, size_t count, void *context);
static inline CURLcode pokesearch_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pokesearch_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pokesearch_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pokesearch_curl_setopt_write(CURL *h, CURLoption o, pokesearch_curl_write_fn v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pokesearch_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
#endif
