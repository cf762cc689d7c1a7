#include "pokesearch_curl.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} api;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

// Without libcurl nothing over HTTP can work: say so once, clearly, and stop.
static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library) {
        *(void **)&api.global_init = dlsym(library, "curl_global_init");
        *(void **)&api.easy_init = dlsym(library, "curl_easy_init");
        *(void **)&api.easy_cleanup = dlsym(library, "curl_easy_cleanup");
        *(void **)&api.easy_reset = dlsym(library, "curl_easy_reset");
        *(void **)&api.easy_perform = dlsym(library, "curl_easy_perform");
        *(void **)&api.easy_strerror = dlsym(library, "curl_easy_strerror");
        *(void **)&api.slist_append = dlsym(library, "curl_slist_append");
        *(void **)&api.slist_free_all = dlsym(library, "curl_slist_free_all");
        *(void **)&api.easy_setopt = dlsym(library, "curl_easy_setopt");
        *(void **)&api.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    }
    if (!library || !api.global_init || !api.easy_init || !api.easy_cleanup || !api.easy_reset || !api.easy_perform
        || !api.easy_strerror || !api.slist_append || !api.slist_free_all || !api.easy_setopt || !api.easy_getinfo) {
        fprintf(stderr, "pokesearch: cannot load libcurl (libcurl.so.4): %s; install the libcurl4 package\n",
                library ? "a function is missing" : dlerror());
        exit(3);
    }
}

#define API (pthread_once(&loaded, load), api)

CURLcode pokesearch_curl_global_init(long flags) { return API.global_init(flags); }
CURL *pokesearch_curl_easy_init(void) { return API.easy_init(); }
void pokesearch_curl_easy_cleanup(CURL *handle) { API.easy_cleanup(handle); }
void pokesearch_curl_easy_reset(CURL *handle) { API.easy_reset(handle); }
CURLcode pokesearch_curl_easy_perform(CURL *handle) { return API.easy_perform(handle); }
const char *pokesearch_curl_easy_strerror(CURLcode code) { return API.easy_strerror(code); }
struct curl_slist *pokesearch_curl_slist_append(struct curl_slist *list, const char *text) { return API.slist_append(list, text); }
void pokesearch_curl_slist_free_all(struct curl_slist *list) { API.slist_free_all(list); }
CURLcode pokesearch_curl_setopt_long(CURL *h, CURLoption o, long v) { return API.easy_setopt(h, o, v); }
CURLcode pokesearch_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return API.easy_setopt(h, o, v); }
CURLcode pokesearch_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return API.easy_setopt(h, o, v); }
CURLcode pokesearch_curl_setopt_write(CURL *h, CURLoption o, pokesearch_curl_write_fn v) { return API.easy_setopt(h, o, v); }
CURLcode pokesearch_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return API.easy_getinfo(h, i, v); }
