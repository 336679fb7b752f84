// Thin C shims for the two C APIs Swift cannot call directly: the variadic curl_*_setopt /
// curl_easy_getinfo family and FFmpeg's function-like AVERROR macros. Nothing else belongs here.
#ifndef PLAYHEAD_SHIMS_H
#define PLAYHEAD_SHIMS_H

#include <curl/curl.h>
#include <stdint.h>
#include <stddef.h>

// MARK: libcurl
CURLcode ph_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ph_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ph_easy_setopt_ptr(CURL *handle, CURLoption option, const void *value);
typedef size_t (*ph_write_fn)(char *data, size_t size, size_t nmemb, void *userdata);
CURLcode ph_easy_setopt_write(CURL *handle, CURLoption option, ph_write_fn fn);
typedef int (*ph_xferinfo_fn)(void *userdata, curl_off_t dltotal, curl_off_t dlnow,
                              curl_off_t ultotal, curl_off_t ulnow);
CURLcode ph_easy_setopt_xferinfo(CURL *handle, ph_xferinfo_fn fn);
CURLcode ph_easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
CURLcode ph_easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out);
CURLcode ph_easy_getinfo_ptr(CURL *handle, CURLINFO info, void **out);
CURLcode ph_easy_getinfo_string(CURL *handle, CURLINFO info, const char **out);
CURLMcode ph_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// MARK: FFmpeg error codes
int ph_averror(int posix_errno);
int ph_averror_eof(void);
int ph_averror_eagain(void);
int ph_averror_invaliddata(void);

// MARK: glibc allocator (malloc.h is not in Swift's Glibc module)
/// malloc_trim(0): returns free heap memory of every arena to the system; 1 if some was released.
int ph_malloc_trim(void);

#endif
