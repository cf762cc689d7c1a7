#ifndef POKESEARCH_CURL_H
#define POKESEARCH_CURL_H
// libcurl's types and constants, with the few functions pokesearch calls reached through
// dlopen: linking libcurl would load it (and OpenSSL, nghttp2, Kerberos, LDAP …) into
// every run of the command line, a dozen milliseconds of start-up that only `ingest --api`
// and `sprite` need. curl_easy_setopt is variadic, so it gets one typed wrapper per
// argument kind.
#include <curl/curl.h>

typedef size_t (*pokesearch_curl_write_fn)(char *data, size_t size, size_t count, void *context);

CURLcode pokesearch_curl_global_init(long flags);
CURL *pokesearch_curl_easy_init(void);
void pokesearch_curl_easy_cleanup(CURL *handle);
void pokesearch_curl_easy_reset(CURL *handle);
CURLcode pokesearch_curl_easy_perform(CURL *handle);
const char *pokesearch_curl_easy_strerror(CURLcode code);
struct curl_slist *pokesearch_curl_slist_append(struct curl_slist *list, const char *text);
void pokesearch_curl_slist_free_all(struct curl_slist *list);
CURLcode pokesearch_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode pokesearch_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode pokesearch_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode pokesearch_curl_setopt_write(CURL *handle, CURLoption option, pokesearch_curl_write_fn value);
CURLcode pokesearch_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
#endif
